// Regression tests of issue 19's loader defects (1)-(3): a campaign file never
// hangs the loader, a matrix too large is the user's error at the key that
// multiplies, deep nesting is "too deep". Each load that could hang runs in a
// child with a time and memory limit, so a regression fails instead of
// taking the machine down (yaml-cpp 0.7.0 grew to 5 GB in 10 s on ",").
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace scalefuzz::harness::testing {
namespace {

struct BoundedLoad {
  bool finished = false;  // exited on its own within the limits
  int exit_code = -1;     // 0 loaded, 2 CampaignError, 3 other exception
  std::string message;
};

// Loads `yaml` in a forked child limited to 10 s of CPU and 1 GiB.
BoundedLoad load_bounded(const std::string& yaml) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    rlimit cpu{10, 10}, memory{1UL << 30, 1UL << 30};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_AS, &memory);
    alarm(20);
    int code = 0;
    std::string message;
    try {
      parse(yaml);
    } catch (const CampaignError& e) {
      code = 2, message = e.what();
    } catch (const std::exception& e) {
      code = 3, message = e.what();
    }
    if (write(pipe_fds[1], message.data(), message.size()) < 0) code = 4;
    _exit(code);
  }
  close(pipe_fds[1]);
  BoundedLoad result;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) result.message.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.finished = WIFEXITED(status);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return result;
}

TEST(IssueDefect1, CommaOnlyCampaignFileIsRejectedNotHung) {
  for (const std::string text : {",", " ,", ",\n", "campaign: x\n,\n", "- ,\n", "[a],\n"}) {
    const BoundedLoad r = load_bounded(text);
    ASSERT_TRUE(r.finished) << "'" << text << "' hung or blew the memory limit (signal " << -r.exit_code << ")";
    EXPECT_EQ(r.exit_code, 2) << text << ": " << r.message;
    EXPECT_EQ(r.message.rfind("/campaigns/inline.yaml:", 0), 0u) << r.message;
  }
}

TEST(IssueDefect1, CommaOnlyFileGetsLineAndColumn) {
  EXPECT_EQ(load_bounded(" ,").message,
            "/campaigns/inline.yaml:1:2: the YAML parser makes no progress here (a stray ',' outside [ ] or { }?)");
}

TEST(IssueDefect2, MoreThanAMillionRunsIsACampaignErrorAtTheMultiplyingKey) {
  EXPECT_EQ(parse_error("campaign: x\napp: {command: [a]}\nscales: [2, 4]\nrepetitions: 1000000\n"),
            "/campaigns/inline.yaml:4:1: the campaign expands to 2000000 runs (scales 2 x repetitions 1000000), "
            "more than the limit of 1000000; narrow repetitions");
  std::string many_values, more_values;
  for (int i = 0; i < 1000; ++i) many_values += (i ? "," : "") + std::to_string(i);
  for (int i = 0; i < 1001; ++i) more_values += (i ? "," : "") + std::to_string(i);
  const std::string error = parse_error("campaign: x\napp: {command: [a, '{a}', '{b}']}\nscales: [2]\nparameters:\n  a: [" +
                                        many_values + "]\n  b: [" + more_values + "]\n");
  EXPECT_EQ(error.rfind("/campaigns/inline.yaml:6:3: the campaign expands to 1001000 runs", 0), 0u) << error;
  EXPECT_NE(error.find("narrow parameters.b"), std::string::npos) << error;
}

TEST(IssueDefect2, ExactlyAMillionRunsIsAllowed) {
  EXPECT_EQ(parse_error("campaign: x\napp: {command: [a]}\nscales: [2]\nrepetitions: 1000000\n"), "");
}

TEST(IssueDefect3, TwentyThousandLevelsOfNestingAreTooDeep) {
  const std::string flow = "campaign: x\napp: {command: [a]}\nscales: " + std::string(20000, '[') + std::string(20000, ']') + "\n";
  const BoundedLoad r = load_bounded(flow);
  ASSERT_TRUE(r.finished);
  EXPECT_EQ(r.message, "/campaigns/inline.yaml:3:72: nested too deep: more than 64 levels of lists and maps (a "
                       "campaign file needs a handful)");
  std::string block = "campaign: x\nparameters:\n";
  for (int i = 0; i < 200; ++i) block += std::string(2 * i + 2, ' ') + "k" + std::to_string(i) + ":\n";
  EXPECT_NE(load_bounded(block).message.find("nested too deep"), std::string::npos);
}

TEST(IssueDefect3, NeverEndingCampaignFileIsRefusedBySize) {
  try {
    load_campaign("/dev/zero");
    FAIL() << "/dev/zero loaded";
  } catch (const CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find("more than a campaign file's limit"), std::string::npos) << e.what();
  }
}

// Every input that ever failed the campaign fuzzer (tests/fuzz/regressions/
// campaign) loads, or is rejected with file:line:column, within the limits —
// also in builds without clang, where the fuzzer itself is not built.
TEST(FuzzRegressions, EveryKeptInputLoadsOrIsRejectedWithLineAndColumn) {
  const std::filesystem::path dir = SCALEFUZZ_FUZZ_REGRESSIONS;
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const BoundedLoad r = load_bounded(text.str());
    ++replayed;
    ASSERT_TRUE(r.finished) << entry.path() << " hung or blew the memory limit";
    if (r.exit_code == 0) continue;
    EXPECT_EQ(r.exit_code, 2) << entry.path() << ": " << r.message;
    EXPECT_TRUE(std::regex_search(r.message, std::regex(R"(^/campaigns/inline\.yaml:[0-9]+:[0-9]+: )")))
        << entry.path() << ": " << r.message;
  }
  EXPECT_GE(replayed, 4);
}

}  // namespace
}  // namespace scalefuzz::harness::testing
