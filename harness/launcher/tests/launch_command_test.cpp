// The command of a run comes from its MpiLauncher: Hydra preloads with
// -genv, srun with --export; the stall and noise reach the ranks through
// injector_environment, the same list the replay line prints.
#include <gtest/gtest.h>

#include "scalefuzz/harness/launcher.hpp"

namespace {

using namespace scalefuzz::harness;

RunSpec four_ranks() {
  RunSpec spec;
  spec.run_id = "np4-none-r0";
  spec.nprocs = 4;
  spec.argv = {"./ring", "--count", "8"};
  return spec;
}

TEST(LaunchCommand, HydraPreloadsThroughGenv) {
  LaunchOptions o;
  o.mpiexec = {"mpiexec", "-launcher", "fork"};
  o.injector_lib = "/opt/lib/libscalefuzz_inject.so";
  EXPECT_EQ(launch_command(four_ranks(), o),
            (std::vector<std::string>{"mpiexec", "-launcher", "fork", "-n", "4", "-genv", "LD_PRELOAD",
                                      "/opt/lib/libscalefuzz_inject.so", "./ring", "--count", "8"}));
  o.injector_lib.clear();
  EXPECT_EQ(launch_command(four_ranks(), o),
            (std::vector<std::string>{"mpiexec", "-launcher", "fork", "-n", "4", "./ring", "--count", "8"}));
  EXPECT_STREQ(mpi_launcher_for(o.mpiexec).name(), "mpich-hydra");
}

TEST(LaunchCommand, SrunPreloadsThroughExport) {
  LaunchOptions o;
  o.mpiexec = {"/usr/bin/srun", "--mpi=pmi2"};
  o.injector_lib = "/opt/lib/libscalefuzz_inject.so";
  EXPECT_STREQ(mpi_launcher_for(o.mpiexec).name(), "srun");
  EXPECT_EQ(launch_command(four_ranks(), o),
            (std::vector<std::string>{"/usr/bin/srun", "--mpi=pmi2", "-n", "4",
                                      "--export=ALL,LD_PRELOAD=/opt/lib/libscalefuzz_inject.so", "./ring", "--count",
                                      "8"}));
}

TEST(LaunchCommand, InjectorEnvironmentCarriesNoiseKnobsAndStall) {
  RunSpec spec = four_ranks();
  spec.noise.mode = scalefuzz::noise::Mode::System;
  spec.noise.settings = {{"packet_size", "1024"}, {"latency", "250"}};
  spec.stall = StallPoint{2, 40};
  spec.seed = 7;
  const auto env = injector_environment(spec, "/out/runs/x");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"SCALEFUZZ_NOISE_MODE", "system"}, {"SCALEFUZZ_NOISE_LATENCY", "250"},
      {"SCALEFUZZ_NOISE_PACKET_SIZE", "1024"}, {"SCALEFUZZ_STALL_RANK", "2"},
      {"SCALEFUZZ_STALL_CALL", "40"}, {"SCALEFUZZ_SEED", "7"},
      {"SCALEFUZZ_RUN_ID", "np4-none-r0"}, {"SCALEFUZZ_RUN_DIR", "/out/runs/x"}};
  EXPECT_EQ(env, expected);
}

}  // namespace
