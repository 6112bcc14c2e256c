// The spine campaign files (configs/scenarios/*.yaml) end to end: each loads,
// expands, and its first quiet run launched for real gives the outcome the
// scenario's header promises.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "run_tree.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::harness {
namespace {

struct Expectation {
  const char* campaign;
  OutcomeKind kind;
  int signal;
};

// Readable test names in ctest instead of the parameter's bytes.
void PrintTo(const Expectation& e, std::ostream* os) { *os << e.campaign; }

class ScenarioCampaign : public ::testing::TestWithParam<Expectation> {};

TEST_P(ScenarioCampaign, FirstQuietRunHasTheDocumentedOutcome) {
  const Expectation& expected = GetParam();
  become_subreaper();
  LoadOptions load;
  load.build_dir = SCALEFUZZ_BUILD_DIR;
  load.detectors = scalefuzz::analysis::detector_names();
  Campaign campaign = load_campaign(std::filesystem::path(SCALEFUZZ_CONFIG_DIR) / "scenarios" /
                                        (std::string(expected.campaign) + ".yaml"),
                                    load);
  auto runs = expand_campaign(campaign);
  ASSERT_FALSE(runs.empty());
  RunSpec run = runs.front();
  EXPECT_EQ(run.noise.mode, noise::Mode::None);
  // Unique per test process: concurrent test jobs never share a run id.
  run.run_id += "-t" + std::to_string(getpid());
  if (expected.kind == OutcomeKind::Hang) run.timeout = std::chrono::seconds(3);

  LaunchOptions options;
  options.run_dir = std::filesystem::temp_directory_path() / ("sf-scenario-" + run.run_id);
  Outcome outcome = launch_local(run, options);
  EXPECT_EQ(outcome.kind, expected.kind) << run.run_id << ": " << outcome.detail;
  EXPECT_EQ(outcome.signal, expected.signal) << outcome.detail;
  if (expected.kind == OutcomeKind::Hang) {
    EXPECT_EQ(outcome.stacks.size(), static_cast<std::size_t>(run.nprocs));
  }
  auto left = testing::leftovers_of_run(run.run_id);
  EXPECT_TRUE(left.empty()) << left.front();
  if (!HasFailure()) std::filesystem::remove_all(options.run_dir);
}

INSTANTIATE_TEST_SUITE_P(Spine, ScenarioCampaign,
                         ::testing::Values(Expectation{"ring", OutcomeKind::Ok, 0},
                                           Expectation{"stencil2d", OutcomeKind::Ok, 0},
                                           Expectation{"deadlock_cycle", OutcomeKind::Hang, 0},
                                           Expectation{"crash_in_compute", OutcomeKind::Crashed, 11}),
                         [](const auto& info) { return std::string(info.param.campaign); });

}  // namespace
}  // namespace scalefuzz::harness
