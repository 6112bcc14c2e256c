// Classification of mpiexec exits, on output recorded from MPICH 4.0.2
// (Hydra) with UCX on Debian 12.
#include "classify.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>

#include "scalefuzz/testing/files.hpp"

namespace scalefuzz::harness {
namespace {

int exited(int code) { return (code & 0xff) << 8; }  // waitpid status of a normal exit

// The pid-to-rank lookup of a run whose one known rank process printed `printed` as its pid.
std::function<std::optional<RankProcess>(long)> printed_pid_is(long printed, RankProcess rank) {
  return [=](long pid) { return pid == printed ? std::optional<RankProcess>(rank) : std::nullopt; };
}

class ClassifyTest : public ::testing::Test {
 protected:
  void write(const std::string& out, const std::string& err) {
    std::ofstream(dir_ / "stdout.txt") << out;
    std::ofstream(dir_ / "stderr.txt") << err;
  }
  // The run's result check: KIND with its regex (a must-match kind's is the expected one).
  void judge_by(const std::string& kind, const std::string& regex) {
    spec_.check = kind;
    (kind.ends_with("must-match") ? spec_.expected_stdout_regex : spec_.wrong_result_regex) = regex;
  }
  Outcome classify_output(const std::string& out, const std::string& err, int status,
                         std::function<std::optional<RankProcess>(long)> rank_of = {}) {
    write(out, err);
    return classify(status, std::move(rank_of));
  }
  Outcome classify(int status, std::function<std::optional<RankProcess>(long)> rank_of = {}) {
    return classify_exit(spec_, status, dir_ / "stdout.txt", dir_ / "stderr.txt", rank_of, *find_mpi_launcher("hydra"));
  }
  scalefuzz::testing::TempDir tmp_{"sf-classify"};
  const std::filesystem::path& dir_ = tmp_.path();
  RunSpec spec_;
};

const char* kSegvBanner =
    "\n"
    "===================================================================================\n"
    "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
    "=   PID 10788 RUNNING AT vm\n"
    "=   EXIT CODE: 9\n"
    "=   CLEANING UP REMAINING PROCESSES\n"
    "=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES\n"
    "===================================================================================\n"
    "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)\n"
    "This typically refers to a problem with your application.\n"
    "Please see the FAQ page for debugging suggestions\n";

// UCX's line for a rank's SIGSEGV: the pid padded to five columns, then again.
std::string ucx_segv_line(int pid) {
  std::string padded = std::to_string(pid);
  padded.resize(std::max<std::size_t>(padded.size(), 5), ' ');
  return "[vm:" + padded + ":0:" + std::to_string(pid) +
         "] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))\n";
}

const char* kUcxSegv =
    "crash_in_compute: rank 1 about to crash at iteration 3\n"
    "[vm:10789:0:10789] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))\n"
    "==== backtrace (tid:  10789) ====\n";

TEST_F(ClassifyTest, CleanExitIsOk) {
  auto o = classify_output("ring: OK ranks=3\n", "", exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::Ok);
  EXPECT_EQ(o.exit_code, 0);
}

TEST_F(ClassifyTest, SegfaultWithUcxLineNamesSignalAndRank) {
  auto o = classify_output(kSegvBanner, kUcxSegv, exited(11), printed_pid_is(10789, {1, 10789}));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_EQ(o.signal, 11);
  EXPECT_EQ(o.exit_code, 11);
  EXPECT_NE(o.detail.find("rank 1"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("SIGSEGV"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, UcxPadsSmallPids) {
  // Recorded after the pid counter wrapped around.
  auto o = classify_output(kSegvBanner, ucx_segv_line(518), exited(11), printed_pid_is(518, {2, 518}));
  EXPECT_EQ(o.signal, 11);
  EXPECT_NE(o.detail.find("rank 2 (pid 518)"), std::string::npos) << o.detail;
}

// In the run's own PID namespace UCX prints the rank's pid there ("pid 5");
// the details name the rank and its host pid (issue 35).
TEST_F(ClassifyTest, ANamespacePidIsShownAsTheRankAndItsHostPid) {
  auto o = classify_output(kSegvBanner, ucx_segv_line(5), exited(11), printed_pid_is(5, {3, 48211}));
  ASSERT_EQ(o.crashed_rank, 3);
  EXPECT_NE(o.detail.find("rank 3 (pid 48211) killed by signal 11"), std::string::npos) << o.detail;
  EXPECT_EQ(o.detail.find("pid 5"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, AnUnmappedPidIsNotShown) {
  auto o = classify_output(kSegvBanner, kUcxSegv, exited(11));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_FALSE(o.crashed_rank);
  EXPECT_EQ(o.detail.find("10789"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("a rank killed by signal 11"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, OlderHydraBannersGiveTheSignal) {
  write("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   KILLED BY SIGNAL: 6 (Aborted)\n", "");
  EXPECT_EQ(classify(exited(134)).signal, 6);
  auto o = classify_output("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   EXIT CODE: 139\n", "", exited(139));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_EQ(o.signal, 11);
}

// Exits whose class and detail follow from the recorded output and the
// status alone: one row each, with the signal or exit code where it matters.
struct RecordedExit {
  const char* what;
  std::string out, err;
  int status;
  OutcomeKind kind;
  std::optional<int> signal, exit_code;
  std::string detail;  // a part of the outcome's detail
};

TEST_F(ClassifyTest, RecordedExitsGetTheirClassAndDetail) {
  const RecordedExit exits[] = {
      // Recorded: rank 1 of 3 called exit(3) before MPI_Finalize.
      {"early exit reported as SIGKILL says so",
       "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 10848 RUNNING AT vm\n"
       "=   EXIT CODE: 9\n"
       "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)\n",
       "", exited(9), OutcomeKind::Crashed, 9, std::nullopt, "without MPI_Finalize"},
      {"MPI_Abort names rank and call", "",
       "Abort(7) on node 1 (rank 1 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 7) - process 1\n",
       exited(7), OutcomeKind::MpiAbort, 0, std::nullopt, "rank 1 called MPI_Abort(MPI_COMM_WORLD, 7)"},
      {"non-zero exit without signal is failed", "", "something went wrong\n\n", exited(4), OutcomeKind::Failed,
       std::nullopt, 4, "something went wrong"},
      {"execvp error is a launch error", "",
       "[proxy:0:0@vm] HYDU_create_process (utils/launch/launch.c:73): execvp error on file ./nonexistent (No such "
       "file or directory)\n",
       exited(255), OutcomeKind::LaunchError, std::nullopt, std::nullopt, "./nonexistent: No such file or directory"},
      {"mpiexec killed from outside is failed, not crashed", "", "", SIGKILL /* WIFSIGNALED status */,
       OutcomeKind::Failed, std::nullopt, std::nullopt, "SIGKILL"},
  };
  for (const auto& e : exits) {
    SCOPED_TRACE(e.what);
    const auto o = classify_output(e.out, e.err, e.status);
    EXPECT_EQ(o.kind, e.kind);
    if (e.signal) {
      EXPECT_EQ(o.signal, *e.signal);
    }
    if (e.exit_code) {
      EXPECT_EQ(o.exit_code, *e.exit_code);
    }
    EXPECT_NE(o.detail.find(e.detail), std::string::npos) << o.detail;
  }
}

TEST_F(ClassifyTest, WrongResultRegexOnCleanExit) {
  judge_by("stdout-regex", "WRONG [0-9]+");
  auto o = classify_output("iteration 1\nring: WRONG 12 mismatching values\n", "", exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("line 2"), std::string::npos) << o.detail;
  // The regex only judges clean exits.
  EXPECT_EQ(classify(exited(3)).kind, OutcomeKind::Failed);
}

TEST_F(ClassifyTest, ExpectedStdoutRegexMustMatchSomeLine) {
  write("stencil2d: OK ranks=4\n", "");
  judge_by("stdout-must-match", "OK ranks=[0-9]+");
  EXPECT_EQ(classify(exited(0)).kind, OutcomeKind::Ok);
  spec_.expected_stdout_regex = "OK ranks=8";
  auto o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("no stdout line matches the expected regex 'OK ranks=8'"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, MpiAbortWithCodeZeroIsMpiAbortDespiteExitZero) {
  // MPICH 4.0.2: MPI_Abort(MPI_COMM_WORLD, 0) makes mpiexec exit 0.
  judge_by("stdout-must-match", "^done");
  auto o = classify_output("",
                           "rank 2: wrong match at loop 17\n"
                           "Abort(0) on node 2 (rank 2 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 0) - "
                           "process 2\n",
                           exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::MpiAbort);
  EXPECT_NE(o.detail.find("rank 2 called MPI_Abort(MPI_COMM_WORLD, 0) (mpiexec exit code 0)"), std::string::npos)
      << o.detail;
}

TEST_F(ClassifyTest, ChecksReadStderrOrBothStreams) {
  judge_by("stderr-regex", "wrong match");
  auto o = classify_output("result 42\n", "rank 1: wrong match at loop 3\n", exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("stderr line 1"), std::string::npos) << o.detail;
  spec_.check = "stdout-regex";  // the same regex on stdout finds nothing
  EXPECT_EQ(classify(exited(0)).kind, OutcomeKind::Ok);
  spec_.check = "output-regex";
  EXPECT_EQ(classify(exited(0)).kind, OutcomeKind::WrongResult);
  spec_.check = "output-must-match";
  spec_.wrong_result_regex.reset();
  spec_.expected_stdout_regex = "loop 3$";  // found on stderr: fine for output-
  EXPECT_EQ(classify(exited(0)).kind, OutcomeKind::Ok);
  spec_.check = "stdout-must-match";
  o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("no stdout line matches"), std::string::npos) << o.detail;
  EXPECT_FALSE(result_check_problem(spec_));
  spec_.check = "stdin-regex";
  EXPECT_TRUE(result_check_problem(spec_));
}

TEST(ResultCheckProblem, KindsAndRegexesAreValidated) {
  RunSpec spec;
  EXPECT_FALSE(result_check_problem(spec));
  spec.check = "stdout-regex";
  EXPECT_TRUE(result_check_problem(spec));  // regex missing
  spec.wrong_result_regex = "WRONG";
  EXPECT_FALSE(result_check_problem(spec));
  spec.wrong_result_regex = "([unclosed";
  EXPECT_NE(result_check_problem(spec)->find("invalid result-check regex"), std::string::npos);
  spec.wrong_result_regex.reset();
  spec.check = "stdout-must-match";
  EXPECT_TRUE(result_check_problem(spec));
  spec.expected_stdout_regex = "OK";
  EXPECT_FALSE(result_check_problem(spec));
  spec.check = "checksum";
  EXPECT_NE(result_check_problem(spec)->find("unknown result check 'checksum'"), std::string::npos);
}

TEST(SignalName, KnownAndUnknown) {
  EXPECT_EQ(signal_name(11), "SIGSEGV");
  EXPECT_EQ(signal_name(9), "SIGKILL");
  EXPECT_EQ(signal_name(1000), "signal 1000");
}

}  // namespace
}  // namespace scalefuzz::harness
