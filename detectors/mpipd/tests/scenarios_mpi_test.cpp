// End to end: each MPI-PD scenario runs under mpiexec with the injector
// preloaded, its traces are read back, and MPI-PD must name the documented
// situation and faulty set (see the header of each scenarios/mpipd/*.c).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;        // test name and run id
  std::string program;     // executable in the scenarios directory
  int nranks;
  std::string args;
  bool completes;          // the program is correct at this scale
  Situation situation;
  std::vector<int> faulty;
};

std::ostream& operator<<(std::ostream& o, const Case& c) { return o << c.name; }

// Runs the scenario; returns mpiexec's exit status (timeout: 5 s, rc 255).
int launch(const Case& c, const fs::path& run_dir) {
  fs::remove_all(run_dir);
  fs::create_directories(run_dir);
  const std::string cmd = std::string("MPIEXEC_TIMEOUT=5 ") + SCALEFUZZ_MPIEXEC + " -genv LD_PRELOAD " +
                          SCALEFUZZ_INJECTOR + " -genv SCALEFUZZ_RUN_DIR " + run_dir.string() +
                          " -genv SCALEFUZZ_RUN_ID " + c.name + " -n " + std::to_string(c.nranks) + " " +
                          SCALEFUZZ_SCENARIO_DIR + "/" + c.program + " " + c.args + " > " +
                          (run_dir / "output.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class MpipdScenario : public ::testing::TestWithParam<Case> {};

TEST_P(MpipdScenario, YieldsTheDocumentedSituationAndFaultySet) {
  const Case& c = GetParam();
  const fs::path run_dir = fs::path(SCALEFUZZ_TEST_OUT) / c.name;
  const int rc = launch(c, run_dir);
  if (c.completes) {
    EXPECT_EQ(rc, 0) << "see " << (run_dir / "output.txt");
    return;
  }
  ASSERT_NE(rc, 0) << "the scenario was expected to fail; see " << (run_dir / "output.txt");
  auto run = trace::read_run(run_dir);
  ASSERT_EQ(run.ranks.size(), static_cast<std::size_t>(c.nranks));
  MpipdInput input;
  input.outcome = rc == 255 ? "hang" : "failed";
  auto res = localize_failure(run, input);
  EXPECT_EQ(res.situation_label, situation_name(c.situation)) << res.explanation;
  EXPECT_EQ(res.faulty, c.faulty) << res.explanation;
  auto findings = mpipd_findings(res, run, c.name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].ranks, c.faulty);
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, MpipdScenario,
    ::testing::Values(
        Case{"invalid_source_irecv_3", "invalid_source_irecv", 3, "", false, Situation::Deadlock, {1, 2}},
        Case{"truncated_recv_3", "truncated_recv", 3, "", false, Situation::BufferOverflow, {0, 1}},
        Case{"early_exit_3", "early_exit", 3, "--finalize 0", false, Situation::CalculationFault, {2}},
        Case{"early_exit_finalize_3", "early_exit", 3, "--finalize 1", false, Situation::NonOccurredEvent, {0, 2}},
        Case{"bcast_extra_send_3", "bcast_extra_send", 3, "", false, Situation::Deadlock, {0, 1}},
        Case{"writer_nomination_4", "writer_nomination", 4, "", true, Situation::None, {}},
        Case{"writer_nomination_6", "writer_nomination", 6, "", false, Situation::Deadlock, {2, 5}},
        Case{"writer_nomination_twin_6", "writer_nomination", 6, "--distinct-tags 1", true, Situation::None, {}},
        // The spine's scenarios (scenarios/spine) for the two remaining situations' classics.
        Case{"deadlock_cycle_3", "deadlock_cycle", 3, "", false, Situation::Deadlock, {0, 1, 2}},
        Case{"crash_in_compute_4", "crash_in_compute", 4, "--crash-rank 1 --crash-iteration 3", false,
             Situation::CalculationFault, {1}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace scalefuzz::detectors::mpipd
