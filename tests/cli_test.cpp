// End-to-end tests of the `scalefuzz` binary: real campaign files, real
// mpiexec, real processes. They check the CLI contract of DESIGN.md (exit
// codes, file:line:column errors, --dry-run, --filter) and the spine's
// promises: a harness killed with SIGKILL resumes to exactly the full set of
// runs, nothing of a run survives it, and a broken store is never overwritten.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "bad_files.hpp"
#include "cli_support.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::e2e {
namespace {

using harness::testing::BadFile;
using harness::testing::kBadFiles;
using ::testing::HasSubstr;
using ::testing::Not;

fs::path bad_campaign_dir() { return source_dir() / "harness" / "campaign" / "tests" / "data" / "bad"; }

int count_lines_matching(const std::string& text, const std::regex& re) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, re)) ++n;
  return n;
}

// ---------------------------------------------------------------- bad input

class CliBadCampaign : public ::testing::TestWithParam<BadFile> {};

TEST_P(CliBadCampaign, ExitsTwoWithFileLineAndColumn) {
  const BadFile& bad = GetParam();
  TempDir tmp;
  const fs::path file = bad_campaign_dir() / bad.file;
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string()});
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string where = file.string() + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.column) + ": ";
  EXPECT_THAT(r.err, HasSubstr(where + bad.message));
  EXPECT_FALSE(fs::exists(out)) << "a campaign-file error must not create the output directory";
}

INSTANTIATE_TEST_SUITE_P(Malformed, CliBadCampaign, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& info) {
                           std::string name = info.param.file;
                           return name.substr(0, name.find('.'));
                         });

TEST(CliUsage, ErrorsExitTwoWithAMessage) {
  auto r = run_scalefuzz({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err + r.out, HasSubstr("usage: scalefuzz COMMAND"));

  r = run_scalefuzz({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'frobnicate'"));

  r = run_scalefuzz({"run", "/nonexistent/campaign.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/campaign.yaml"));

  r = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--jobs", "zero"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--jobs"));

  r = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--dry-run", "--filter",
                     "cont=512"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown filter key 'cont'"));
}

TEST(CliUsage, EveryListedCommandHasTruthfulHelp) {
  const auto top = run_scalefuzz({"--help"});
  ASSERT_EQ(top.exit_code, 0);
  // Every command the top-level help lists answers --help with its own usage line.
  std::regex listed(R"(^  ([a-z][a-z-]+)\s{2,})");
  std::istringstream in(top.out);
  int commands = 0;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, listed)) continue;
    ++commands;
    const auto help = run_scalefuzz({m[1].str(), "--help"});
    EXPECT_EQ(help.exit_code, 0) << m[1];
    EXPECT_THAT(help.out, HasSubstr("usage: scalefuzz " + m[1].str())) << m[1];
  }
  EXPECT_GE(commands, 5);
}

TEST(CliDryRun, PrintsEveryCommandAndLaunchesNothing) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--dry-run", "--out",
                                out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // ring.yaml: 3 scales x 2 counts x 2 noise profiles x 2 repetitions.
  EXPECT_EQ(count_lines_matching(r.out, std::regex(R"(^# np\d+-\S+ \(seed \d+, timeout \d+ ms\)$)")), 24);
  EXPECT_EQ(count_lines_matching(r.out, std::regex(R"(mpiexec -n [234] .*/scenarios/ring --iterations 200)")), 24);
  EXPECT_THAT(r.out, HasSubstr("# 24 runs; nothing was launched (--dry-run)"));
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliDryRun, FilterSelectsByScaleNoiseAndParameter) {
  const std::string ring = (source_dir() / "configs/scenarios/ring.yaml").string();
  auto r = run_scalefuzz({"run", ring, "--dry-run", "--filter", "np=4,noise=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# 4 runs;"));
  EXPECT_EQ(count_lines_matching(r.out, std::regex(R"(mpiexec -n 4 )")), 4);
  EXPECT_EQ(count_lines_matching(r.out, std::regex(R"(NOISE_MODE=random)")), 0);

  r = run_scalefuzz({"run", ring, "--dry-run", "--filter", "count=4096,rep=1,np<4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# 4 runs;"));
  EXPECT_EQ(count_lines_matching(r.out, std::regex(R"(--count 4096$)")), 4);
}

// ------------------------------------------------------ outcomes and codes

// Issue 32: the application-centric run of a point whose system-centric run
// hung cannot start (no NINJA analysis); it is skipped, said once (info), and
// neither the exit code, the JUnit failures nor the bugs count it.
TEST(CliCampaign, ApplicationRunAfterAHungSystemRunIsSkippedNotAFailure) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: skipped_after_hang\n"
             "app: { command: [\"{build}/scenarios/deadlock_cycle\", \"--warmup\", \"0\"] }\n"
             "scales: [2]\n"
             "noise:\n  - { mode: system }\n  - { mode: application }\n"
             "repetitions: 2\n"
             "timeout: 4s\n"
             "detectors: []\n");
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;  // the hangs
  EXPECT_THAT(r.err, Not(HasSubstr("needs a finished system-centric run")));
  const auto findings = nlohmann::json::parse(read_file(out / "findings.json"));
  int hangs = 0, skipped = 0;
  for (const auto& f : findings.at("findings")) {
    if (f.at("detector") != "outcome") continue;
    if (f.at("kind") == "hang") ++hangs;
    if (f.at("kind") == "skipped") {
      ++skipped;
      EXPECT_EQ(f.at("severity"), "info");
    }
    EXPECT_NE(f.at("kind"), "launch-error");
  }
  EXPECT_EQ(hangs, 2);
  EXPECT_EQ(skipped, 1);  // two skipped runs, one point
  for (const auto& b : findings.at("bugs")) EXPECT_NE(b.at("kind"), "skipped");
  const std::string junit = read_file(out / "junit.xml");
  EXPECT_THAT(junit, Not(HasSubstr("launch-error")));
  EXPECT_EQ(count_lines_matching(junit, std::regex("<error ")), 0);
  EXPECT_THAT(junit, HasSubstr("hang"));
}

TEST(CliCampaign, HangsAndCrashesAreFindingsWithExitOne) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: hang_and_ok\n"
             "app: { command: [\"{build}/scenarios/deadlock_cycle\", \"--warmup\", \"{warmup}\"] }\n"
             "scales: [2, 3]\n"
             "parameters: { warmup: [0, 2] }\n"
             "timeout: 4s\n"
             "detectors: [races]\n");
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;

  const auto findings = nlohmann::json::parse(read_file(out / "findings.json"));
  int hangs = 0;
  for (const auto& f : findings.at("findings"))
    if (f.at("detector") == "outcome" && f.at("kind") == "hang") ++hangs;
  EXPECT_EQ(hangs, 4);

  // JUnit: one testcase per campaign point (here one run each), each hang a
  // failure with the stacks in its system-out, and one for the bug they
  // share (no detector localized them: one outcome/hang bug).
  const std::string junit = read_file(out / "junit.xml");
  EXPECT_EQ(count_lines_matching(junit, std::regex("<testcase ")), 5);
  EXPECT_EQ(count_lines_matching(junit, std::regex("<failure ")), 5);
  EXPECT_THAT(junit, HasSubstr("send_then_receive"));
  ASSERT_EQ(findings.at("bugs").size(), 1u);
  EXPECT_EQ(findings.at("bugs")[0].at("occurrence_count"), 4);
  EXPECT_TRUE(processes_mentioning(out.string()).empty()) << "a process of the campaign outlived it";
}

TEST(CliCampaign, CleanCampaignExitsZero) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: clean\n"
             "app:\n"
             "  command: [\"{build}/scenarios/ring\", \"--iterations\", \"20\"]\n"
             "  check: { stdout-must-match: \"^ring: OK ranks=\" }\n"
             "scales: [2, 3]\n"
             "repetitions: 2\n"
             "timeout: 60s\n");
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string(), "--jobs", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("4/4 runs finished, 4 ok"));
  EXPECT_TRUE(fs::exists(out / "report.html"));
  EXPECT_EQ(count_children_with(out / "runs", "outcome.json"), 4);
}

// ------------------------------------------------------------ status line

// `scalefuzz run ARGS` on a pseudo-terminal: everything it printed there.
std::string run_on_a_terminal(const std::vector<std::string>& args, int& exit_code) {
  std::vector<std::string> words = {scalefuzz_binary().string()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  winsize size{};
  size.ws_col = 400;  // wide enough that no status line is cut
  size.ws_row = 50;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  std::string text;
  if (pid < 0) return text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
  char buf[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 1000) <= 0) continue;
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO: the child side closed
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(master);
  int status = 0;
  if (::waitpid(pid, &status, WNOHANG) == 0) ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return text;
}

// On a terminal the status line names each phase (launching, every detector
// at work, every report written) with the elapsed time; in a log (not a
// terminal) the same campaign prints one plain line per run.
TEST(CliProgress, StatusLineNamesThePhasesOnATerminalOnly) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: phases\n"
             "app: { command: [\"{build}/scenarios/ring\", \"--iterations\", \"20\"] }\n"
             "scales: [2]\n"
             "timeout: 60s\n"
             "detectors: [races, usage]\n");
  int code = -1;
  const std::string tty = run_on_a_terminal({"run", file.string(), "--out", (tmp.path() / "tty").string()}, code);
  EXPECT_EQ(code, 0) << tty;
  EXPECT_THAT(tty, HasSubstr("\r\x1b[K[0/1] launching | 1 running | ok 0 |"));
  EXPECT_THAT(tty, ::testing::ContainsRegex("crashed 0 . [0-9.]+s elapsed . ETA [?]"));
  EXPECT_THAT(tty, HasSubstr("] analysing: races on np2-none-r0 |"));
  EXPECT_THAT(tty, HasSubstr("] analysing: usage on np2-none-r0 |"));
  EXPECT_THAT(tty, HasSubstr("] analysing: races over the campaign |"));
  EXPECT_THAT(tty, HasSubstr("] writing report.html |"));
  EXPECT_THAT(tty, HasSubstr("wrote "));

  const auto log = run_scalefuzz({"run", file.string(), "--out", (tmp.path() / "log").string()});
  EXPECT_EQ(log.exit_code, 0) << log.err;
  EXPECT_THAT(log.err, HasSubstr("[1/1] np2-none-r0 ok "));
  EXPECT_EQ(log.err.find('\r'), std::string::npos) << "no status line in a log: " << log.err;
  EXPECT_EQ(log.err.find("analysing:"), std::string::npos) << log.err;
}

// --------------------------------------------------------------- resuming

TEST(CliResume, SigkilledHarnessResumesToExactlyTheFullSet) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  // Eight runs of about a second each: long enough to kill the harness
  // while one of them is in flight.
  write_file(file,
             "campaign: resume\n"
             "app:\n"
             "  command: [\"{build}/scenarios/ring\", \"--iterations\", \"{iterations}\", \"--count\", \"4096\"]\n"
             "  check: { stdout-must-match: \"^ring: OK ranks=\" }\n"
             "scales: [2]\n"
             "parameters: { iterations: [3000] }\n"
             "repetitions: 8\n"
             "timeout: 120s\n"
             "detectors: [races]\n");
  const fs::path out = tmp.path() / "out";
  const std::vector<std::string> args{"run", file.string(), "--out", out.string()};

  const pid_t harness_pid = start_scalefuzz(args, tmp.path() / "first");
  // Wait until some runs finished but not all, then kill -9 the harness.
  int finished = 0;
  wait_until([&] { return (finished = count_children_with(out / "runs", "outcome.json")) >= 2; },
             std::chrono::seconds(240));
  ASSERT_GE(finished, 2) << read_file(tmp.path() / "first" / "stderr.txt");
  ASSERT_LT(finished, 8) << "the campaign finished before it could be killed";
  ASSERT_EQ(kill(harness_pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(harness_pid, &status, 0), harness_pid);
  ASSERT_TRUE(WIFSIGNALED(status));

  // Nothing of the killed campaign survives it (the run in flight is taken down).
  std::vector<pid_t> left;
  for (int i = 0; i < 100; ++i) {
    left = processes_mentioning(out.string());
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(left.empty()) << left.size() << " processes of the killed campaign are still alive";

  std::map<std::string, std::string> finished_before;  // run id -> finished_at
  {
    auto store = harness::RunStore::open_existing(out, harness::StoreAccess::ReadOnly);
    for (const auto& run : store.runs())
      if (run.finished()) finished_before[run.spec.run_id] = run.finished_at;
  }
  ASSERT_FALSE(finished_before.empty());

  // The reports stream (issue 28): the killed campaign's findings.json and
  // junit.xml are complete and list its finished runs (all but possibly the
  // last, killed between the store's record and the report's update).
  const auto findings = nlohmann::json::parse(read_file(out / "findings.json"));
  std::set<std::string> listed_finished;
  ASSERT_EQ(findings.at("runs").size(), 8u);
  for (const auto& run : findings.at("runs")) {
    if (run.at("outcome") == "unfinished") continue;
    listed_finished.insert(run.at("run_id").get<std::string>());
    EXPECT_EQ(run.at("outcome"), "ok") << run.dump();
    EXPECT_TRUE(finished_before.count(run.at("run_id").get<std::string>())) << run.dump();
  }
  EXPECT_GE(listed_finished.size() + 1, finished_before.size());
  const std::string junit = read_file(out / "junit.xml");
  EXPECT_THAT(junit, HasSubstr("</testsuites>"));
  // One testcase per campaign point: it counts finished runs, so it is
  // not skipped as "no run of this point finished".
  EXPECT_THAT(junit, HasSubstr("<testcase "));
  EXPECT_THAT(junit, Not(HasSubstr("campaign interrupted")));

  const auto r = run_scalefuzz(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  auto store = harness::RunStore::open_existing(out, harness::StoreAccess::ReadOnly);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 8u);
  std::set<std::string> ids;
  for (const auto& run : runs) {
    ids.insert(run.spec.run_id);
    ASSERT_TRUE(run.finished()) << run.spec.run_id;
    EXPECT_EQ(run.outcome->kind, harness::OutcomeKind::Ok) << run.spec.run_id << ": " << run.outcome->detail;
    // Runs finished before the kill were kept, not rerun.
    if (auto it = finished_before.find(run.spec.run_id); it != finished_before.end()) {
      EXPECT_EQ(run.finished_at, it->second) << run.spec.run_id << " was rerun";
    }
  }
  EXPECT_EQ(ids.size(), 8u);
  EXPECT_EQ(count_children_with(out / "runs", "spec.json"), 8) << "stray or duplicate run directories";
}

// Ctrl-C during a 60 s hang: the in-flight run's whole process tree is gone
// and the harness exits 130 with the resume hint within 3 s; the resumed
// campaign finishes the rest.
TEST(CliInterrupt, SigintKillsTheInFlightRunAndExits130ThenResumeFinishes) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: interrupt\n"
             "app: { command: [\"{build}/scenarios/{program}\"] }\n"
             "scales: [3]\n"
             "parameters: { program: [deadlock_cycle, ring] }\n"
             "repetitions: 2\n"
             "timeout: 60s\n"
             "detectors: [mpipd]\n"
             "scheduler: { type: local, jobs: 1 }\n");
  const fs::path out = tmp.path() / "out";
  const pid_t harness_pid = start_scalefuzz({"run", file.string(), "--out", out.string()}, tmp.path() / "first");
  // Wait until the first deadlock run's ranks are up (their trace files exist).
  wait_until([&] { return count_children_with(out / "runs", "ranks") > 0; }, std::chrono::seconds(60),
             std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // well inside the hang
  ASSERT_FALSE(processes_mentioning(out.string()).empty()) << "the hung run is not running";

  const auto sent = std::chrono::steady_clock::now();
  ASSERT_EQ(kill(harness_pid, SIGINT), 0);
  int status = 0;
  pid_t waited = 0;
  while ((waited = waitpid(harness_pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() - sent < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  if (waited == 0) kill(harness_pid, SIGKILL), waitpid(harness_pid, &status, 0);
  ASSERT_EQ(waited, harness_pid) << "still running 10 s after SIGINT";
  EXPECT_LT(took, 3.0) << "exit took " << took << " s after SIGINT";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_THAT(read_file(tmp.path() / "first" / "stderr.txt"), HasSubstr("run the same command again to resume"));
  EXPECT_TRUE(processes_mentioning(out.string()).empty()) << "processes of the interrupted run survived";
  {
    auto store = harness::RunStore::open_existing(out, harness::StoreAccess::ReadOnly);
    EXPECT_FALSE(store.is_finished("np3-programdeadlock_cycle-none-r0")) << "an interrupted run was stored as finished";
  }

  // Resume the rest (the ring runs; the hangs would take their full minute).
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string(), "--filter", "program=ring"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto store = harness::RunStore::open_existing(out, harness::StoreAccess::ReadOnly);
  EXPECT_TRUE(store.is_finished("np3-programring-none-r0"));
  EXPECT_TRUE(store.is_finished("np3-programring-none-r1"));
}

// Five mistakes in one campaign file: all five reported by one run, each with
// FILE:LINE:COLUMN.
TEST(CliUsage, EveryErrorOfACampaignFileIsReportedAtOnce) {
  TempDir tmp;
  const fs::path file = tmp.path() / "five.yaml";
  write_file(file,
             "campaign: five\n"                                 // 1
             "app: { command: [\"{build}/scenarios/ring\"] }\n"  // 2
             "scales: [2, x]\n"                                  // 3: not a number
             "repetition: 2\n"                                   // 4: unknown key (repetitions)
             "timeout: 5 parsecs\n"                              // 5: bad duration
             "detectors: [races, pgd]\n"                         // 6: unknown detector (pdg)
             "noise:\n"                                          // 7
             "  - { mode: sytem }\n");                           // 8: unknown noise mode
  const auto r = run_scalefuzz({"run", file.string(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  for (const std::string line : {":3:", ":4:", ":5:", ":6:", ":8:"})
    EXPECT_THAT(r.err, HasSubstr(file.string() + line)) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(5 errors)"));
  EXPECT_THAT(r.err, HasSubstr("did you mean 'repetitions'"));
  // The file is wrong, not the command line: no pointer to --help (issue 34).
  EXPECT_THAT(r.err, Not(HasSubstr("--help' for usage"))) << r.err;
}

TEST(CliStore, CorruptStoreIsReportedAndNeverOverwritten) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  fs::create_directories(out);
  const std::string garbage = "this is not an SQLite database\n";
  write_file(out / "scalefuzz.db", garbage);
  const auto r = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--out",
                                out.string(), "--filter", "np=2,rep=0,noise=none,count=16"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr((out / "scalefuzz.db").string()));
  EXPECT_EQ(read_file(out / "scalefuzz.db"), garbage);
  EXPECT_FALSE(fs::exists(out / "runs"));

  const auto report = run_scalefuzz({"report", out.string()});
  EXPECT_EQ(report.exit_code, 2) << report.err;
  EXPECT_EQ(read_file(out / "scalefuzz.db"), garbage);
}

// Issue 36: `sqlite3 OUT/scalefuzz.db 'drop table findings'; scalefuzz
// report OUT` was exit 3 "internal error" and left -wal/-shm files beside
// the store. The schema is checked read-only first: exit 2, what is missing
// named, nothing touched.
TEST(CliStore, DamagedStoreContentIsRefusedUntouched) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const auto first = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--out",
                                    out.string(), "--filter", "np=2,rep=0,noise=none,count=16"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((out / "scalefuzz.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE findings", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  ASSERT_FALSE(fs::exists(out / "scalefuzz.db-wal"));
  const std::string before = read_file(out / "scalefuzz.db");
  for (const std::string command : {"report", "analyze"}) {
    const auto r = run_scalefuzz({command, out.string()});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("table 'findings' missing")) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("internal error"))) << r.err;
    EXPECT_EQ(read_file(out / "scalefuzz.db"), before) << command;
    EXPECT_FALSE(fs::exists(out / "scalefuzz.db-wal")) << command;
    EXPECT_FALSE(fs::exists(out / "scalefuzz.db-shm")) << command;
  }
}

TEST(CliStore, AnotherCampaignsStoreIsRefused) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const auto first = run_scalefuzz({"run", (source_dir() / "configs/scenarios/ring.yaml").string(), "--out",
                                    out.string(), "--filter", "np=2,rep=0,noise=none,count=16"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string db_before = read_file(out / "scalefuzz.db");
  const auto second = run_scalefuzz({"run", (source_dir() / "configs/scenarios/stencil2d.yaml").string(), "--out",
                                     out.string(), "--filter", "np=2"});
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_THAT(second.err, HasSubstr("scalefuzz.db"));
  EXPECT_EQ(read_file(out / "scalefuzz.db"), db_before);
}

}  // namespace
}  // namespace scalefuzz::e2e
