// Classification of mpiexec exits, on output recorded from MPICH 4.0.2
// (Hydra) with UCX on Debian 12.
#include "classify.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>

#include "scalefuzz/testing/files.hpp"

namespace scalefuzz::harness {
namespace {

int exited(int code) { return (code & 0xff) << 8; }  // waitpid status of a normal exit

class ClassifyTest : public ::testing::Test {
 protected:
  void write(const std::string& out, const std::string& err) {
    std::ofstream(dir_ / "stdout.txt") << out;
    std::ofstream(dir_ / "stderr.txt") << err;
  }
  Outcome classify(int status, std::function<std::optional<RankProcess>(long)> rank_of = {}) {
    return classify_exit(spec_, status, dir_ / "stdout.txt", dir_ / "stderr.txt", rank_of);
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

const char* kUcxSegv =
    "crash_in_compute: rank 1 about to crash at iteration 3\n"
    "[vm:10789:0:10789] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))\n"
    "==== backtrace (tid:  10789) ====\n";

TEST_F(ClassifyTest, CleanExitIsOk) {
  write("ring: OK ranks=3\n", "");
  auto o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::Ok);
  EXPECT_EQ(o.exit_code, 0);
}

TEST_F(ClassifyTest, SegfaultWithUcxLineNamesSignalAndRank) {
  write(kSegvBanner, kUcxSegv);
  auto o = classify(exited(11), [](long pid) -> std::optional<RankProcess> {
    if (pid == 10789) return RankProcess{1, 10789};
    return std::nullopt;
  });
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_EQ(o.signal, 11);
  EXPECT_EQ(o.exit_code, 11);
  EXPECT_NE(o.detail.find("rank 1"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("SIGSEGV"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, UcxPadsSmallPids) {
  // Recorded after the pid counter wrapped around.
  write(kSegvBanner, "[vm:518  :0:518] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))\n");
  auto o = classify(exited(11), [](long pid) -> std::optional<RankProcess> {
    if (pid == 518) return RankProcess{2, 518};
    return std::nullopt;
  });
  EXPECT_EQ(o.signal, 11);
  EXPECT_NE(o.detail.find("rank 2 (pid 518)"), std::string::npos) << o.detail;
}

// In the run's own PID namespace UCX prints the rank's pid there ("pid 5");
// the details name the rank and its host pid (issue 35).
TEST_F(ClassifyTest, ANamespacePidIsShownAsTheRankAndItsHostPid) {
  write(kSegvBanner, "[vm:5    :0:5] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))\n");
  auto o = classify(exited(11), [](long pid) -> std::optional<RankProcess> {
    if (pid == 5) return RankProcess{3, 48211};
    return std::nullopt;
  });
  ASSERT_EQ(o.crashed_rank, 3);
  EXPECT_NE(o.detail.find("rank 3 (pid 48211) killed by signal 11"), std::string::npos) << o.detail;
  EXPECT_EQ(o.detail.find("pid 5"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, AnUnmappedPidIsNotShown) {
  write(kSegvBanner, kUcxSegv);
  auto o = classify(exited(11));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_FALSE(o.crashed_rank);
  EXPECT_EQ(o.detail.find("10789"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("a rank killed by signal 11"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, OlderHydraBannersGiveTheSignal) {
  write("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   KILLED BY SIGNAL: 6 (Aborted)\n", "");
  EXPECT_EQ(classify(exited(134)).signal, 6);
  write("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   EXIT CODE: 139\n", "");
  auto o = classify(exited(139));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_EQ(o.signal, 11);
}

TEST_F(ClassifyTest, EarlyExitReportedAsSigkillSaysSo) {
  // Recorded: rank 1 of 3 called exit(3) before MPI_Finalize.
  write("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 10848 RUNNING AT vm\n"
        "=   EXIT CODE: 9\n"
        "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)\n",
        "");
  auto o = classify(exited(9));
  EXPECT_EQ(o.kind, OutcomeKind::Crashed);
  EXPECT_EQ(o.signal, 9);
  EXPECT_NE(o.detail.find("without MPI_Finalize"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, MpiAbortNamesRankAndCall) {
  write("", "Abort(7) on node 1 (rank 1 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 7) - process 1\n");
  auto o = classify(exited(7));
  EXPECT_EQ(o.kind, OutcomeKind::MpiAbort);
  EXPECT_EQ(o.signal, 0);
  EXPECT_NE(o.detail.find("rank 1 called MPI_Abort(MPI_COMM_WORLD, 7)"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, NonZeroExitWithoutSignalIsFailed) {
  write("", "something went wrong\n\n");
  auto o = classify(exited(4));
  EXPECT_EQ(o.kind, OutcomeKind::Failed);
  EXPECT_EQ(o.exit_code, 4);
  EXPECT_NE(o.detail.find("something went wrong"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, ExecvpErrorIsLaunchError) {
  write("", "[proxy:0:0@vm] HYDU_create_process (utils/launch/launch.c:73): execvp error on file ./nonexistent (No such file or directory)\n");
  auto o = classify(exited(255));
  EXPECT_EQ(o.kind, OutcomeKind::LaunchError);
  EXPECT_NE(o.detail.find("./nonexistent: No such file or directory"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, MpiexecKilledFromOutsideIsFailedNotCrashed) {
  write("", "");
  auto o = classify(SIGKILL);  // WIFSIGNALED status
  EXPECT_EQ(o.kind, OutcomeKind::Failed);
  EXPECT_NE(o.detail.find("SIGKILL"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, WrongResultRegexOnCleanExit) {
  write("iteration 1\nring: WRONG 12 mismatching values\n", "");
  spec_.check = "stdout-regex";
  spec_.wrong_result_regex = "WRONG [0-9]+";
  auto o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("line 2"), std::string::npos) << o.detail;
  // The regex only judges clean exits.
  EXPECT_EQ(classify(exited(3)).kind, OutcomeKind::Failed);
}

TEST_F(ClassifyTest, ExpectedStdoutRegexMustMatchSomeLine) {
  write("stencil2d: OK ranks=4\n", "");
  spec_.check = "stdout-must-match";
  spec_.expected_stdout_regex = "OK ranks=[0-9]+";
  EXPECT_EQ(classify(exited(0)).kind, OutcomeKind::Ok);
  spec_.expected_stdout_regex = "OK ranks=8";
  auto o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::WrongResult);
  EXPECT_NE(o.detail.find("no stdout line matches the expected regex 'OK ranks=8'"), std::string::npos) << o.detail;
}

TEST_F(ClassifyTest, MpiAbortWithCodeZeroIsMpiAbortDespiteExitZero) {
  // MPICH 4.0.2: MPI_Abort(MPI_COMM_WORLD, 0) makes mpiexec exit 0.
  write("", "rank 2: wrong match at loop 17\n"
            "Abort(0) on node 2 (rank 2 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 0) - process 2\n");
  spec_.check = "stdout-must-match";
  spec_.expected_stdout_regex = "^done";
  auto o = classify(exited(0));
  EXPECT_EQ(o.kind, OutcomeKind::MpiAbort);
  EXPECT_NE(o.detail.find("rank 2 called MPI_Abort(MPI_COMM_WORLD, 0) (mpiexec exit code 0)"), std::string::npos)
      << o.detail;
}

TEST_F(ClassifyTest, ChecksReadStderrOrBothStreams) {
  write("result 42\n", "rank 1: wrong match at loop 3\n");
  spec_.check = "stderr-regex";
  spec_.wrong_result_regex = "wrong match";
  auto o = classify(exited(0));
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
