// launch_local against real mpiexec (MPICH Hydra) and the spine scenarios.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "run_tree.hpp"
#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::harness {
namespace {

const std::string kScenarios = SCALEFUZZ_SCENARIO_DIR;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

class LaunchLocalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    become_subreaper();
    base_ = std::filesystem::temp_directory_path() /
            ("sf-launch-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(base_);
  }
  void TearDown() override {
    // Failed tests keep their run directories for inspection; so do all
    // tests with SCALEFUZZ_KEEP_TEST_RUNS set.
    if (!HasFailure() && !std::getenv("SCALEFUZZ_KEEP_TEST_RUNS")) std::filesystem::remove_all(base_);
  }

  // Run ids are unique per test process so concurrent ctest jobs never see
  // each other's processes as leftovers.
  RunSpec spec(const std::string& name, int nprocs, std::vector<std::string> argv,
               std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    RunSpec s;
    s.run_id = "launcher-test-" + std::to_string(getpid()) + "-" + name;
    s.campaign = "launcher-test";
    s.nprocs = nprocs;
    s.argv = std::move(argv);
    s.timeout = timeout;
    s.seed = 42;
    return s;
  }
  LaunchOptions options(const std::string& name) {
    LaunchOptions o;
    o.run_dir = base_ / name;
    return o;
  }
  void expect_nothing_left(const RunSpec& s) {
    auto left = testing::leftovers_of_run(s.run_id);
    EXPECT_TRUE(left.empty()) << "first leftover: " << left.front();
  }
  std::filesystem::path base_;
};

TEST_F(LaunchLocalTest, RingIsOk) {
  auto s = spec("ring", 3, {kScenarios + "/ring", "--iterations", "200"});
  auto o = options("ring");
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::Ok) << outcome.detail << "\n" << read_file(o.run_dir / "stderr.txt");
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(read_file(o.run_dir / "stdout.txt").find("ring: OK ranks=3"), std::string::npos);
  auto stored = read_outcome(o.run_dir);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->kind, OutcomeKind::Ok);
  EXPECT_GT(stored->wall_seconds, 0.0);
  expect_nothing_left(s);
}

TEST_F(LaunchLocalTest, Stencil2dIsOk) {
  auto s = spec("stencil2d", 4, {kScenarios + "/stencil2d", "--iterations", "30", "--n", "12"});
  auto o = options("stencil2d");
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::Ok) << outcome.detail << "\n" << read_file(o.run_dir / "stderr.txt");
  EXPECT_NE(read_file(o.run_dir / "stdout.txt").find("stencil2d: OK ranks=4 grid=24x24"), std::string::npos);
  expect_nothing_left(s);
}

TEST_F(LaunchLocalTest, EnvironmentReachesEveryRank) {
  auto s = spec("env", 2, {"env"});
  s.noise.mode = noise::Mode::System;
  s.noise.settings = {{"scale", "1.5"}, {"max-delay", "20us"}};
  s.seed = 123456789012345ULL;
  s.env = {{"FROM_SPEC", "spec"}, {"OVERRIDDEN", "spec"}};
  auto o = options("env");
  o.env = {{"FROM_OPTIONS", "options"}, {"OVERRIDDEN", "options"}};
  setenv("SCALEFUZZ_NOISE_STALE", "from-the-harness", 1);  // must not reach the ranks
  Outcome outcome = launch_local(s, o);
  unsetenv("SCALEFUZZ_NOISE_STALE");
  ASSERT_EQ(outcome.kind, OutcomeKind::Ok) << outcome.detail;
  std::string out = read_file(o.run_dir / "stdout.txt");
  EXPECT_EQ(count_of(out, "SCALEFUZZ_RUN_ID=" + s.run_id + "\n"), 2) << out;
  EXPECT_EQ(count_of(out, "SCALEFUZZ_RUN_DIR=" + std::filesystem::absolute(o.run_dir).string() + "\n"), 2);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_SEED=123456789012345\n"), 2);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_NOISE_MODE=system\n"), 2);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_NOISE_SCALE=1.5\n"), 2);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_NOISE_MAX_DELAY=20us\n"), 2);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_LAUNCH_ID="), 2);
  EXPECT_EQ(count_of(out, "FROM_SPEC=spec\n"), 2);
  EXPECT_EQ(count_of(out, "FROM_OPTIONS=options\n"), 2);
  EXPECT_EQ(count_of(out, "OVERRIDDEN=options\n"), 2);
  EXPECT_EQ(count_of(out, "LD_PRELOAD="), 0);
  EXPECT_EQ(count_of(out, "SCALEFUZZ_NOISE_STALE"), 0);
}

TEST_F(LaunchLocalTest, InjectorIsPreloadedIntoRanksOnly) {
  // Any existing shared library shows the mechanism; the ranks print LD_PRELOAD.
  auto s = spec("preload", 2, {"env"});
  auto o = options("preload");
  o.injector_lib = "/lib/x86_64-linux-gnu/libm.so.6";
  if (!std::filesystem::exists(o.injector_lib)) GTEST_SKIP() << "no libm at the Debian path";
  Outcome outcome = launch_local(s, o);
  ASSERT_EQ(outcome.kind, OutcomeKind::Ok) << outcome.detail;
  EXPECT_EQ(count_of(read_file(o.run_dir / "stdout.txt"), "LD_PRELOAD=/lib/x86_64-linux-gnu/libm.so.6\n"), 2);
}

TEST_F(LaunchLocalTest, DeadlockCycleHangsWithAStackPerRankAndLeavesNothing) {
  const int ranks = 3;
  auto s = spec("deadlock", ranks, {kScenarios + "/deadlock_cycle"}, std::chrono::seconds(4));
  auto o = options("deadlock");
  std::vector<long> frozen;
  std::vector<char> states;
  std::vector<std::string> rank_env;
  o.on_frozen = [&](const std::vector<long>& pids) {
    frozen = pids;
    for (long pid : pids) {
      states.push_back(testing::process_state(pid));
      rank_env.push_back(testing::environ_value(pid, "PMI_RANK"));
    }
  };
  auto t0 = std::chrono::steady_clock::now();
  Outcome outcome = launch_local(s, o);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  EXPECT_EQ(outcome.kind, OutcomeKind::Hang) << outcome.detail;
  EXPECT_GE(elapsed, 4.0);
  EXPECT_LT(elapsed, 4.0 + 30.0) << "freeze + stacks + kill took too long";
  EXPECT_NE(outcome.detail.find("timeout after 4s"), std::string::npos) << outcome.detail;
  EXPECT_EQ(outcome.detail.find("survived"), std::string::npos) << outcome.detail;

  ASSERT_EQ(frozen.size(), static_cast<std::size_t>(ranks)) << outcome.detail;
  for (int r = 0; r < ranks; ++r) {
    EXPECT_EQ(states[r], 'T') << "rank " << r << " was not stopped during on_frozen";
    EXPECT_EQ(rank_env[r], std::to_string(r)) << "on_frozen pids are ordered by rank";
  }

  ASSERT_EQ(outcome.stacks.size(), static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const auto& stack = outcome.stacks[r];
    EXPECT_EQ(stack.rank, r);
    EXPECT_EQ(stack.pid, frozen[r]);
    EXPECT_NE(stack.text.find("Ssend"), std::string::npos) << "rank " << r << ":\n" << stack.text;
    EXPECT_NE(stack.text.find("send_then_receive"), std::string::npos) << stack.text;
    EXPECT_EQ(read_file(o.run_dir / "stacks" / ("rank-" + std::to_string(r) + ".txt")), stack.text);
  }
  auto stored = read_outcome(o.run_dir);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->kind, OutcomeKind::Hang);
  EXPECT_EQ(stored->stacks.size(), static_cast<std::size_t>(ranks));
  expect_nothing_left(s);
}

TEST_F(LaunchLocalTest, CrashInComputeIsCrashedWithSigsegvOnTheRightRank) {
  auto s = spec("crash", 3, {kScenarios + "/crash_in_compute", "--crash-rank", "2"});
  auto o = options("crash");
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::Crashed) << outcome.detail;
  EXPECT_EQ(outcome.signal, 11);
  EXPECT_NE(outcome.detail.find("rank 2"), std::string::npos) << outcome.detail;
  EXPECT_NE(outcome.detail.find("SIGSEGV"), std::string::npos) << outcome.detail;
  EXPECT_EQ(read_outcome(o.run_dir)->signal, 11);
  expect_nothing_left(s);
}

TEST_F(LaunchLocalTest, CrashRankBeyondTheScaleRunsClean) {
  auto s = spec("nocrash", 2, {kScenarios + "/crash_in_compute", "--crash-rank", "5"});
  Outcome outcome = launch_local(s, options("nocrash"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Ok) << outcome.detail;
}

TEST_F(LaunchLocalTest, MpiAbortIsClassified) {
  // The scenarios call MPI_Abort(MPI_COMM_WORLD, 2) on a bad argument.
  auto s = spec("abort", 2, {kScenarios + "/ring", "--no-such-option"});
  auto o = options("abort");
  // Hydra sometimes exits on the abort before forwarding the ranks' stderr
  // (2 of 30 plain mpiexec runs lost it); without the message an abort is
  // indistinguishable from exit(2). Retry until the output arrived.
  Outcome outcome;
  for (int attempt = 0; attempt < 4; ++attempt) {
    outcome = launch_local(s, o);
    if (!read_file(o.run_dir / "stderr.txt").empty()) break;
    EXPECT_EQ(outcome.kind, OutcomeKind::Failed) << outcome.detail;
  }
  EXPECT_EQ(outcome.kind, OutcomeKind::MpiAbort) << outcome.detail;
  EXPECT_NE(outcome.detail.find("MPI_Abort(MPI_COMM_WORLD, 2)"), std::string::npos) << outcome.detail;
  expect_nothing_left(s);
}

TEST_F(LaunchLocalTest, NonZeroExitIsFailed) {
  auto s = spec("false", 2, {"false"});
  Outcome outcome = launch_local(s, options("false"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Failed) << outcome.detail;
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.signal, 0);
}

TEST_F(LaunchLocalTest, WrongResultRegexOnStdout) {
  auto s = spec("wrong", 2, {kScenarios + "/stencil2d", "--iterations", "5"});
  s.check = "stdout-regex";
  s.wrong_result_regex = "residual=[0-9.e+-]+";
  auto o = options("wrong");
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::WrongResult) << outcome.detail;
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.detail.find("line 1"), std::string::npos) << outcome.detail;
  // The same run judged by exit code only is ok.
  s.check = "exit-code";
  s.wrong_result_regex.reset();
  EXPECT_EQ(launch_local(s, o).kind, OutcomeKind::Ok);
  // A required line that never appears.
  s.check = "stdout-must-match";
  s.expected_stdout_regex = "stencil2d: OK ranks=2 ";
  EXPECT_EQ(launch_local(s, o).kind, OutcomeKind::Ok);
  s.expected_stdout_regex = "stencil2d: OK ranks=3 ";
  Outcome missing = launch_local(s, o);
  EXPECT_EQ(missing.kind, OutcomeKind::WrongResult) << missing.detail;
}

TEST_F(LaunchLocalTest, MissingBinaryIsALaunchErrorWithClearDetail) {
  auto s = spec("missing", 2, {"/nonexistent/dir/app", "--x"});
  auto o = options("missing");
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::LaunchError);
  EXPECT_NE(outcome.detail.find("application binary not found: '/nonexistent/dir/app'"), std::string::npos)
      << outcome.detail;
  EXPECT_EQ(read_outcome(o.run_dir)->kind, OutcomeKind::LaunchError);
  EXPECT_NE(read_file(o.run_dir / "stderr.txt").find("/nonexistent/dir/app"), std::string::npos);
}

TEST_F(LaunchLocalTest, MissingMpiexecIsALaunchError) {
  auto s = spec("nompiexec", 2, {kScenarios + "/ring"});
  auto o = options("nompiexec");
  o.mpiexec = {"no-such-mpiexec-xyz"};
  Outcome outcome = launch_local(s, o);
  EXPECT_EQ(outcome.kind, OutcomeKind::LaunchError);
  EXPECT_NE(outcome.detail.find("mpiexec not found: 'no-such-mpiexec-xyz'"), std::string::npos) << outcome.detail;
}

TEST_F(LaunchLocalTest, InvalidRegexAndMissingInjectorAreLaunchErrors) {
  auto s = spec("badregex", 2, {kScenarios + "/ring"});
  s.check = "stdout-regex";
  s.wrong_result_regex = "([unclosed";
  Outcome outcome = launch_local(s, options("badregex"));
  EXPECT_EQ(outcome.kind, OutcomeKind::LaunchError);
  EXPECT_NE(outcome.detail.find("invalid result-check regex"), std::string::npos) << outcome.detail;

  auto s2 = spec("noinjector", 2, {kScenarios + "/ring"});
  auto o2 = options("noinjector");
  o2.injector_lib = "/nonexistent/libscalefuzz_injector.so";
  Outcome outcome2 = launch_local(s2, o2);
  EXPECT_EQ(outcome2.kind, OutcomeKind::LaunchError);
  EXPECT_NE(outcome2.detail.find("injector library not found"), std::string::npos) << outcome2.detail;
}

TEST_F(LaunchLocalTest, HarnessKilledMidRunTakesTheRunDown) {
  // A harness process SIGKILLed in the middle of a hanging run (the resume
  // scenario): mpiexec dies with it (PR_SET_PDEATHSIG) and takes the proxy
  // and the spinning ranks along; nothing keeps running.
  auto s = spec("orphaned", 3, {kScenarios + "/deadlock_cycle"}, std::chrono::seconds(120));
  auto o = options("orphaned");
  pid_t harness = fork();
  ASSERT_GE(harness, 0);
  if (harness == 0) {
    launch_local(s, o);
    _exit(0);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (testing::live_ranks_of_run(s.run_id) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(testing::live_ranks_of_run(s.run_id), 3) << "the ranks never started";
  kill(harness, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(harness, &status, 0), harness);

  // Orphaned ranks are reparented to this test process (a subreaper).
  auto killed_at = std::chrono::steady_clock::now();
  std::vector<std::string> left;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    testing::reap_zombie_children();
    left = testing::leftovers_of_run(s.run_id);
  } while (!left.empty() && std::chrono::steady_clock::now() - killed_at < std::chrono::seconds(10));
  EXPECT_TRUE(left.empty()) << "still there 10 s after the harness died: " << left.front();
}

TEST_F(LaunchLocalTest, ParallelRunsAreEachClassifiedCorrectly) {
  const auto hang_timeout = std::chrono::seconds(8);
  auto hang = spec("par-hang", 2, {kScenarios + "/deadlock_cycle"}, hang_timeout);
  auto ring = spec("par-ring", 2, {kScenarios + "/ring", "--iterations", "20"});
  auto crash = spec("par-crash", 2, {kScenarios + "/crash_in_compute"});
  Outcome hang_outcome, ring_outcome, crash_outcome;
  std::thread a([&] { hang_outcome = launch_local(hang, options("par-hang")); });
  std::thread b([&] { ring_outcome = launch_local(ring, options("par-ring")); });
  std::thread c([&] { crash_outcome = launch_local(crash, options("par-crash")); });
  auto t0 = std::chrono::steady_clock::now();
  b.join();
  double ring_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  a.join();
  c.join();
  EXPECT_EQ(hang_outcome.kind, OutcomeKind::Hang) << hang_outcome.detail;
  EXPECT_EQ(hang_outcome.stacks.size(), 2u);
  EXPECT_EQ(ring_outcome.kind, OutcomeKind::Ok) << ring_outcome.detail;
  // The ring finishes while the other run still hangs: nobody waits for
  // someone else's timeout.
  EXPECT_LT(ring_seconds, std::chrono::duration<double>(hang_timeout).count());
  EXPECT_EQ(crash_outcome.kind, OutcomeKind::Crashed) << crash_outcome.detail;
  EXPECT_EQ(crash_outcome.signal, 11);
  expect_nothing_left(hang);
  expect_nothing_left(ring);
  expect_nothing_left(crash);
}

}  // namespace
}  // namespace scalefuzz::harness
