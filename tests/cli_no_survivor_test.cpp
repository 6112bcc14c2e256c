// No process of a run survives it, however it detaches (issue 19, defects 6
// and 7): ranks of tests/programs/detaching_children.c start setsid children
// and double-fork grandchildren, then hang. At a timeout the harness names
// exactly the ranks (not their children) and kills everything; SIGKILLed
// itself during the hang, it leaves no survivor within 5 s.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "cli_support.hpp"

namespace scalefuzz::e2e {
namespace {

using ::testing::HasSubstr;

std::string program() { return (build_dir() / "tests" / "detaching_children").string(); }

int ready_count(const fs::path& dir) {
  int n = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); ++it) ++n;
  return n;
}

// Processes mentioning `marker` still alive after up to `patience`.
std::vector<pid_t> survivors_after(const std::string& marker, std::chrono::milliseconds patience) {
  std::vector<pid_t> left;
  wait_until([&] { return (left = processes_mentioning(marker)).empty(); }, patience, std::chrono::milliseconds(50));
  return left;
}

void kill_all(const std::vector<pid_t>& pids) {
  for (pid_t p : pids) kill(p, SIGKILL);  // do not leave them to the next test
}

TEST(IssueDefect6, TimeoutCountsOnlyRanksAndKillsTheirDetachedChildren) {
  TempDir tmp;
  const fs::path ready = tmp.path() / "ready";
  fs::create_directories(ready);
  const fs::path out = tmp.path() / "exec";
  const auto r = run_scalefuzz({"exec", "--out", out.string(), "--timeout", "10s", "--", "mpiexec", "-n", "2",
                                program(), ready.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(ready_count(ready), 4) << "the children did not all start";
  EXPECT_THAT(r.out, HasSubstr("stacks of 2 of 2 ranks captured"));
  const auto outcome = nlohmann::json::parse(read_file(out / "outcome.json"));
  ASSERT_EQ(outcome.at("stacks").size(), 2u) << outcome.dump(1);
  std::set<long> rank_pids;
  for (const auto& s : outcome.at("stacks")) rank_pids.insert(s.at("pid").get<long>());
  ASSERT_TRUE(outcome.contains("other_processes")) << outcome.dump(1);
  int detached = 0;
  for (const auto& p : outcome.at("other_processes")) {
    EXPECT_EQ(rank_pids.count(p.at("pid").get<long>()), 0u) << "a rank is listed as another process";
    if (p.at("command") == "detaching_child") ++detached;
  }
  EXPECT_EQ(detached, 4) << "every setsid child and double-fork grandchild is listed: " << outcome.dump(1);
  const auto left = survivors_after(out.string(), std::chrono::seconds(5));
  EXPECT_TRUE(left.empty()) << left.size() << " processes of the run survived its timeout";
  kill_all(left);
}

TEST(IssueDefect7, SigkilledHarnessLeavesNoSurvivorWithinFiveSeconds) {
  TempDir tmp;
  const fs::path ready = tmp.path() / "ready";
  fs::create_directories(ready);
  const fs::path out = tmp.path() / "exec";
  const pid_t harness = start_scalefuzz(
      {"exec", "--out", out.string(), "--timeout", "300s", "--", "mpiexec", "-n", "2", program(), ready.string()},
      tmp.path() / "log");
  wait_until([&] { return ready_count(ready) >= 4; }, std::chrono::seconds(120));
  ASSERT_EQ(ready_count(ready), 4) << read_file(tmp.path() / "log" / "stderr.txt");
  ASSERT_GE(processes_mentioning(out.string()).size(), 7u) << "mpiexec, proxy, 2 ranks, 4 detached processes";
  ASSERT_EQ(kill(harness, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(harness, &status, 0), harness);
  const auto left = survivors_after(out.string(), std::chrono::seconds(5));
  EXPECT_TRUE(left.empty()) << left.size() << " processes of the run survived the SIGKILLed harness";
  kill_all(left);
}

// Issue 34 item 4: without the PID namespace (an ordinary user has no
// CAP_SYS_ADMIN), SIGKILL of `run` and Ctrl-C or SIGTERM of `exec` and
// `reproduce` left the ranks' setsid children running under init. Run here
// as an unprivileged user, as a user meets it.
class NonRootNoSurvivor : public ::testing::Test {
 protected:
  static constexpr const char* kUser = "scalefuzz-test";

  void SetUp() override {
    if (::geteuid() != 0) return;  // already unprivileged: run as we are
    if (::getpwnam(kUser) == nullptr) {
      const auto r = harness::run_process({"useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                           "--user-group", kUser},
                                          "", std::chrono::seconds(60));
      if (!r.succeeded() && ::getpwnam(kUser) == nullptr)
        GTEST_SKIP() << "cannot create the unprivileged user " << kUser << ": " << r.err;
    }
    prefix_ = {"setpriv", std::string("--reuid=") + kUser, std::string("--regid=") + kUser, "--clear-groups",
               "--inh-caps=-all", "--"};
    // A checkout under a directory other users cannot enter (a home of
    // mode 700) keeps the binary out of the user's reach: not the defect
    // under test, so say so instead of failing.
    std::vector<std::string> probe = prefix_;
    for (const std::string& p : {scalefuzz_binary().string(), program()}) {
      probe.resize(prefix_.size());
      probe.insert(probe.end(), {"test", "-x", p});
      if (!harness::run_process(probe, "", std::chrono::seconds(30)).succeeded())
        GTEST_SKIP() << "the unprivileged user " << kUser << " cannot execute " << p
                     << " (a parent directory is not open to other users)";
    }
    // The user writes its output and the program's ready files here.
    fs::permissions(tmp_.path(), fs::perms::all);
  }

  // `scalefuzz ARGS` as the unprivileged user.
  pid_t start(const std::vector<std::string>& args) { return start_scalefuzz(args, tmp_.path() / "log", prefix_); }
  std::string log() { return read_file(tmp_.path() / "log" / "stderr.txt") + read_file(tmp_.path() / "log" / "stdout.txt"); }

  // Waits for 4 detached processes, then sends `sig` to the harness.
  int signal_when_ready(pid_t harness, int sig, const fs::path& ready, const fs::path& out) {
    wait_until([&] { return ready_count(ready) >= 4; }, std::chrono::seconds(120));
    EXPECT_EQ(ready_count(ready), 4) << log();
    EXPECT_GE(processes_mentioning(out.string()).size(), 7u) << "mpiexec, proxy, 2 ranks, 4 detached processes";
    EXPECT_EQ(kill(harness, sig), 0);
    int status = 0;
    EXPECT_EQ(waitpid(harness, &status, 0), harness);
    return status;
  }

  fs::path ready_dir() {
    const fs::path ready = tmp_.path() / "ready";
    fs::create_directories(ready);
    fs::permissions(ready, fs::perms::all);
    return ready;
  }

  fs::path campaign(const fs::path& ready) {
    const fs::path file = tmp_.path() / "detach.yaml";
    write_file(file, "campaign: detach\n"
                     "app: { command: [\"" + program() + "\", \"" + ready.string() + "\"] }\n"
                     "scales: [2]\n"
                     "timeout: 300s\n"
                     "detectors: [races]\n");
    return file;
  }

  void expect_no_survivor(const fs::path& out) {
    const auto left = survivors_after(out.string(), std::chrono::seconds(5));
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the run survived: " << log();
    kill_all(left);
  }

  TempDir tmp_;
  std::vector<std::string> prefix_;
};

TEST_F(NonRootNoSurvivor, SigkilledRunLeavesNoSurvivor) {
  const fs::path ready = ready_dir();
  const fs::path out = tmp_.path() / "out";
  const pid_t harness = start({"run", campaign(ready).string(), "--out", out.string()});
  const int status = signal_when_ready(harness, SIGKILL, ready, out);
  EXPECT_TRUE(WIFSIGNALED(status));
  expect_no_survivor(out);
}

TEST_F(NonRootNoSurvivor, InterruptedExecSaysSoExits130AndLeavesNoSurvivor) {
  for (int sig : {SIGINT, SIGTERM}) {
    const fs::path ready = ready_dir();
    for (const auto& f : fs::directory_iterator(ready)) fs::remove(f.path());
    const fs::path out = tmp_.path() / ("exec-" + std::to_string(sig));
    const pid_t harness = start({"exec", "--out", out.string(), "--timeout", "300s", "--", "mpiexec", "-n", "2",
                                 program(), ready.string()});
    const int status = signal_when_ready(harness, sig, ready, out);
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig << " killed exec: " << log();
    EXPECT_EQ(WEXITSTATUS(status), 130) << log();
    EXPECT_THAT(read_file(tmp_.path() / "log" / "stderr.txt"), HasSubstr("interrupted"));
    expect_no_survivor(out);
  }
}

TEST_F(NonRootNoSurvivor, TerminatedReproduceSaysSoExits130AndLeavesNoSurvivor) {
  const fs::path ready = ready_dir();
  const fs::path out = tmp_.path() / "rep";
  const pid_t harness = start({"reproduce", campaign(ready).string(), "--until", "hang", "--max-runs", "2", "--out",
                               out.string()});
  const int status = signal_when_ready(harness, SIGTERM, ready, out);
  ASSERT_TRUE(WIFEXITED(status)) << log();
  EXPECT_EQ(WEXITSTATUS(status), 130) << log();
  EXPECT_THAT(read_file(tmp_.path() / "log" / "stderr.txt"), HasSubstr("interrupted"));
  expect_no_survivor(out);
}

}  // namespace
}  // namespace scalefuzz::e2e
