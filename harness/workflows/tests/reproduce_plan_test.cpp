// The escalation schedule, targets and replay argv of `scalefuzz reproduce`.
#include "scalefuzz/workflows/reproduce_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using scalefuzz::workflows::ReproduceTarget;
using scalefuzz::harness::NoiseSpec;
using scalefuzz::harness::OutcomeKind;

TEST(ReproducePlan, EscalatesNoneThenSystemAndApplicationWithGrowingScales) {
  std::vector<NoiseSpec> campaign(1);
  campaign[0].mode = scalefuzz::noise::Mode::System;
  campaign[0].settings = {{"threshold", "4"}, {"scale", "9"}};
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"none", ""}, {"system", "1"}, {"application", "1.2"}, {"system", "2"}, {"application", "2.4"},
      {"system", "4"}, {"application", "4.8"}};
  for (int i = 0; i < static_cast<int>(expected.size()); ++i) {
    NoiseSpec p = scalefuzz::workflows::escalation_profile(i, campaign);
    EXPECT_EQ(scalefuzz::noise::to_string(p.mode), expected[i].first) << i;
    if (p.mode == scalefuzz::noise::Mode::None) {
      EXPECT_TRUE(p.settings.empty());
      continue;
    }
    EXPECT_EQ(p.settings.at("scale"), expected[i].second) << i;
    // The campaign's other system knobs are kept; application has none given.
    EXPECT_EQ(p.settings.count("threshold"), p.mode == scalefuzz::noise::Mode::System ? 1u : 0u) << i;
  }
}

TEST(ReproducePlan, FreshSeedPerAttempt) {
  EXPECT_NE(scalefuzz::workflows::attempt_seed(42, 0), scalefuzz::workflows::attempt_seed(42, 1));
  EXPECT_EQ(scalefuzz::workflows::attempt_seed(42, 3), scalefuzz::workflows::attempt_seed(42, 3));
  EXPECT_NE(scalefuzz::workflows::attempt_seed(42, 3), scalefuzz::workflows::attempt_seed(43, 3));
}

TEST(ReproducePlan, TargetsAndTheOutcomesThatManifestThem) {
  using scalefuzz::workflows::manifests;
  EXPECT_TRUE(manifests(ReproduceTarget::Race, OutcomeKind::WrongResult, false));
  EXPECT_TRUE(manifests(ReproduceTarget::Race, OutcomeKind::Ok, true));
  EXPECT_FALSE(manifests(ReproduceTarget::Race, OutcomeKind::Hang, false));
  EXPECT_TRUE(manifests(ReproduceTarget::Hang, OutcomeKind::Hang, false));
  EXPECT_FALSE(manifests(ReproduceTarget::Hang, OutcomeKind::WrongResult, true));
  EXPECT_TRUE(manifests(ReproduceTarget::Crash, OutcomeKind::Crashed, false));
  EXPECT_TRUE(manifests(ReproduceTarget::Crash, OutcomeKind::MpiAbort, false));
  EXPECT_FALSE(manifests(ReproduceTarget::Crash, OutcomeKind::Ok, false));
  EXPECT_TRUE(manifests(ReproduceTarget::Any, OutcomeKind::Hang, false));
  EXPECT_FALSE(manifests(ReproduceTarget::Any, OutcomeKind::Ok, false));
  EXPECT_FALSE(scalefuzz::workflows::parse_reproduce_target("slow"));
  EXPECT_EQ(*scalefuzz::workflows::parse_reproduce_target("race"), ReproduceTarget::Race);
}

TEST(ReproducePlan, ReplayArgvNamesSeedNoiseAnalysisAndTheMpiexecCommand) {
  scalefuzz::harness::RunSpec spec;
  spec.nprocs = 4;
  spec.seed = 77;
  spec.noise.mode = scalefuzz::noise::Mode::Application;
  spec.noise.settings = {{"scale", "1.2"}};
  spec.argv = {"/b/app", "--x", "1"};
  spec.timeout = std::chrono::milliseconds(6000);
  spec.env = {{"OMP_NUM_THREADS", "1"}};
  auto argv = scalefuzz::workflows::replay_exec_argv("/b/scalefuzz", spec, {"mpiexec", "-launcher", "fork"}, "auto",
                                               "/sys/run", "/out/replay");
  const std::vector<std::string> expected = {
      "env", "OMP_NUM_THREADS=1", "/b/scalefuzz", "exec", "--noise", "application", "--noise-set", "scale=1.2",
      "--noise-set", "analysis=/sys/run", "--seed", "77", "--timeout", "6s", "--oversubscribe", "auto", "--out",
      "/out/replay", "--", "mpiexec", "-launcher", "fork", "-n", "4", "/b/app", "--x", "1"};
  EXPECT_EQ(argv, expected);
}

// The replay line names the launcher only when exec would not detect it
// from the command, and spells the process count as that launcher does.
TEST(ReproduceReplay, ExecCommandNamesALauncherTheCommandDoesNotTell) {
  scalefuzz::harness::RunSpec spec;
  spec.nprocs = 6;
  spec.argv = {"./ring"};
  spec.timeout = std::chrono::milliseconds(1500);
  const auto* srun = scalefuzz::harness::find_mpi_launcher("srun");
  ASSERT_NE(srun, nullptr);
  auto argv = scalefuzz::workflows::replay_exec_argv("scalefuzz", spec, {"/site/run-job"}, "auto", "", "out/x", srun);
  std::vector<std::string> tail = {"--timeout", "1500ms", "--oversubscribe", "auto", "--out", "out/x",
                                   "--launcher", "srun", "--", "/site/run-job", "-n", "6", "./ring"};
  ASSERT_GE(argv.size(), tail.size());
  EXPECT_EQ(std::vector<std::string>(argv.end() - static_cast<long>(tail.size()), argv.end()), tail);
  // srun detected from the program's name: no --launcher.
  argv = scalefuzz::workflows::replay_exec_argv("scalefuzz", spec, {"srun", "--mpi=pmi2"}, "auto", "", "out/x", srun);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--launcher"), 0);
}

TEST(StallReplay, ExecCommandCarriesTheStallAsAFlagNotAsEnvironment) {
  scalefuzz::harness::RunSpec spec;
  spec.nprocs = 8;
  spec.noise.mode = scalefuzz::noise::Mode::None;
  spec.argv = {"./ring"};
  spec.stall = scalefuzz::harness::StallPoint{5, 40};
  spec.env = {{"OMP_NUM_THREADS", "1"}};
  const auto argv = scalefuzz::workflows::replay_exec_argv("scalefuzz", spec, {"mpiexec"}, "auto", "", "out/x");
  const std::vector<std::string> head = {"env", "OMP_NUM_THREADS=1", "scalefuzz", "exec", "--noise", "none",
                                         "--stall", "5:40"};
  ASSERT_GE(argv.size(), head.size());
  EXPECT_EQ(std::vector<std::string>(argv.begin(), argv.begin() + static_cast<long>(head.size())), head);
}

}  // namespace
