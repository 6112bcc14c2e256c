// The command of a run comes from its launcher plug-in: Hydra preloads with
// -genv, srun with --export; the stall and noise reach the ranks through
// injector_environment, the same list the replay line prints. The registry
// names every plug-in, `auto` detects one from the command's program.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "scalefuzz/harness/application_mpi.hpp"
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
  EXPECT_EQ(launcher_of(o).name(), "hydra");
}

TEST(LaunchCommand, SrunPreloadsThroughExport) {
  LaunchOptions o;
  o.mpiexec = {"/usr/bin/srun", "--mpi=pmi2"};
  o.injector_lib = "/opt/lib/libscalefuzz_inject.so";
  EXPECT_EQ(launcher_of(o).name(), "srun");
  EXPECT_EQ(launch_command(four_ranks(), o),
            (std::vector<std::string>{"/usr/bin/srun", "--mpi=pmi2", "-n", "4",
                                      "--export=ALL,LD_PRELOAD=/opt/lib/libscalefuzz_inject.so", "./ring", "--count",
                                      "8"}));
}

TEST(LaunchCommand, AChosenLauncherWinsOverTheProgramName) {
  LaunchOptions o;
  o.mpiexec = {"/opt/site/bin/run-mpi"};  // a site wrapper: auto cannot tell
  o.injector_lib = "/opt/lib/libscalefuzz_inject.so";
  EXPECT_EQ(launcher_of(o).name(), "hydra") << "auto falls back to the first registered launcher";
  o.launcher = find_mpi_launcher("srun");
  EXPECT_EQ(launch_command(four_ranks(), o),
            (std::vector<std::string>{"/opt/site/bin/run-mpi", "-n", "4",
                                      "--export=ALL,LD_PRELOAD=/opt/lib/libscalefuzz_inject.so", "./ring", "--count",
                                      "8"}));
}

TEST(LauncherRegistry, NamesEveryPluginOnce) {
  std::vector<std::string> names;
  for (const auto* launcher : mpi_launchers()) names.emplace_back(launcher->name());
  EXPECT_EQ(names, (std::vector<std::string>{"hydra", "srun", "openmpi"}));
  EXPECT_EQ(mpi_launcher_choices(), (std::vector<std::string>{"auto", "hydra", "srun", "openmpi"}));
  EXPECT_EQ(find_mpi_launcher("srun"), mpi_launchers()[1]);
  EXPECT_EQ(find_mpi_launcher("mpiexec"), nullptr) << "the program is not the launcher's name";
  EXPECT_EQ(find_mpi_launcher("auto"), nullptr) << "auto is a choice, not a launcher";
  for (const auto* launcher : mpi_launchers()) {
    EXPECT_FALSE(launcher->description().empty()) << launcher->name();
    EXPECT_FALSE(launcher->default_command().empty()) << launcher->name();
    EXPECT_EQ(&detect_mpi_launcher(launcher->default_command()), launcher)
        << launcher->name() << ": its own default command is detected as itself";
  }
}

TEST(LauncherRegistry, AutoDetectsByTheProgramsFileName) {
  EXPECT_EQ(detect_mpi_launcher({"/usr/bin/mpiexec.hydra", "-launcher", "fork"}).name(), "hydra");
  EXPECT_EQ(detect_mpi_launcher({"mpiexec.mpich"}).name(), "hydra");
  EXPECT_EQ(detect_mpi_launcher({"/usr/local/bin/srun", "--mpi=pmi2"}).name(), "srun");
  EXPECT_EQ(detect_mpi_launcher({"srun-wrapper"}).name(), "hydra");
  EXPECT_EQ(detect_mpi_launcher({}).name(), "hydra");
  EXPECT_EQ(detect_mpi_launcher({"/usr/bin/mpirun.openmpi", "--bind-to", "none"}).name(), "openmpi");
  EXPECT_EQ(detect_mpi_launcher({"orterun"}).name(), "openmpi");
  // Plain mpirun as Debian's alternatives link it: the file it resolves to decides.
  const auto dir = std::filesystem::temp_directory_path() / ("sf-mpirun-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink(dir / "orterun", dir / "mpirun");
  std::filesystem::create_symlink(dir / "mpirun.mpich", dir / "mpirun-mpich");
  EXPECT_EQ(detect_mpi_launcher({(dir / "mpirun").string(), "-np", "2"}).name(), "openmpi");
  EXPECT_EQ(detect_mpi_launcher({(dir / "mpirun-mpich").string()}).name(), "hydra");
  std::filesystem::remove_all(dir);
}

// "index:words:nprocs" of where the launcher finds the process count, or "none".
std::string count_span(const MpiLauncher& launcher, const std::vector<std::string>& command) {
  const auto span = launcher.find_process_count(command);
  if (!span) return "none";
  return std::to_string(span->index) + ":" + std::to_string(span->words) + ":" + std::to_string(span->nprocs);
}

TEST(HydraLauncher, RankVariableCountSyntaxAndAllocation) {
  const MpiLauncher& hydra = *find_mpi_launcher("hydra");
  EXPECT_STREQ(hydra.rank_variable(), "PMI_RANK");
  EXPECT_EQ(hydra.process_count_args(12), (std::vector<std::string>{"-n", "12"}));
  EXPECT_EQ(count_span(hydra, {"mpiexec", "-launcher", "fork", "-np", "6", "./app", "-n", "3"}), "3:2:6");
  EXPECT_EQ(count_span(hydra, {"mpiexec", "-n", "four", "./app"}), "1:2:-1")
      << "a count that is not a number is found but marked bad";
  EXPECT_EQ(count_span(hydra, {"mpiexec", "./app"}), "none");
  EXPECT_EQ(count_span(hydra, {"-n", "4"}), "none") << "the program word is never the flag";
  EXPECT_EQ(hydra.allocation_environment(1), (std::map<std::string, std::string>{{"HYDRA_LAUNCHER", "fork"}}));
  EXPECT_TRUE(hydra.allocation_environment(2).empty());
}

TEST(HydraLauncher, ReadsItsOwnFailureLinesOnly) {
  const MpiLauncher& hydra = *find_mpi_launcher("hydra");
  FailureReport report;
  EXPECT_FALSE(hydra.scan_failure_line("Abort(7) on node 1: application called MPI_Abort(MPI_COMM_WORLD, 7) - process 1",
                                       report))
      << "MPICH's abort line is the library's, not the launcher's";
  EXPECT_TRUE(hydra.scan_failure_line("=   EXIT CODE: 139", report));
  hydra.finish_failure_report(report);
  EXPECT_EQ(report.signal, 11) << "older Hydra: 128 + signal";
  EXPECT_TRUE(hydra.scan_failure_line(
      "[proxy:0:0@vm] HYDU_create_process (utils/launch/launch.c:73): execvp error on file ./x (No such file or directory)",
      report));
  EXPECT_EQ(report.exec_error, "./x: No such file or directory");
  EXPECT_FALSE(hydra.unattributed_sigkill_hint().empty());
}

TEST(SrunLauncher, RankVariableCountSyntaxAndNoAllocationEnvironment) {
  const MpiLauncher& srun = *find_mpi_launcher("srun");
  EXPECT_STREQ(srun.rank_variable(), "SLURM_PROCID");
  EXPECT_EQ(srun.default_command(), (std::vector<std::string>{"srun", "--mpi=pmi2", "--quiet"}));
  EXPECT_EQ(count_span(srun, {"srun", "--mpi=pmi2", "--ntasks=8", "./app"}), "2:1:8");
  EXPECT_EQ(count_span(srun, {"srun", "--ntasks", "3", "./app"}), "1:2:3");
  EXPECT_EQ(count_span(srun, {"srun", "-np", "3", "./app"}), "none") << "-np is Hydra's, not srun's";
  EXPECT_TRUE(srun.allocation_environment(1).empty());
  FailureReport report;
  EXPECT_FALSE(srun.scan_failure_line("=   EXIT CODE: 139", report)) << "Hydra's banner means nothing under srun";
}

TEST(LaunchCommand, OpenMpiPreloadsAndNamesEveryRankVariableThroughX) {
  LaunchOptions o;
  o.mpiexec = {"mpirun.openmpi"};
  o.injector_lib = "/opt/lib/libscalefuzz_inject_openmpi.so";
  o.run_dir = "/out/runs/x";
  EXPECT_EQ(launcher_of(o).name(), "openmpi");
  const auto command = launch_command(four_ranks(), o);
  std::vector<std::string> head = {"mpirun.openmpi", "-np", "4", "--oversubscribe"};
  if (geteuid() == 0) head.push_back("--allow-run-as-root");
  head.insert(head.end(), {"-x", "LD_PRELOAD=/opt/lib/libscalefuzz_inject_openmpi.so"});
  ASSERT_GE(command.size(), head.size() + 3);
  EXPECT_EQ(std::vector<std::string>(command.begin(), command.begin() + static_cast<long>(head.size())), head);
  EXPECT_EQ(std::vector<std::string>(command.end() - 3, command.end()),
            (std::vector<std::string>{"./ring", "--count", "8"}));
  // Every variable of the run is named after an -x (values stay in mpirun's environment).
  std::vector<std::string> named;
  for (std::size_t i = head.size(); i + 1 < command.size() - 3; i += 2) {
    EXPECT_EQ(command[i], "-x");
    named.push_back(command[i + 1]);
  }
  for (const auto& [name, value] : injector_environment(four_ranks(), o.run_dir))
    EXPECT_NE(std::find(named.begin(), named.end(), name), named.end()) << name;
  EXPECT_NE(std::find(named.begin(), named.end(), "SCALEFUZZ_LAUNCH_ID"), named.end());
}

TEST(OpenMpiLauncher, RankVariableCountSyntaxAndImplementation) {
  const MpiLauncher& ompi = *find_mpi_launcher("openmpi");
  EXPECT_STREQ(ompi.rank_variable(), "OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(ompi.process_count_args(12), (std::vector<std::string>{"-np", "12"}));
  EXPECT_EQ(count_span(ompi, {"mpirun.openmpi", "--bind-to", "none", "-n", "6", "./app"}), "3:2:6");
  EXPECT_EQ(count_span(ompi, {"mpirun.openmpi", "-np", "2", "./app"}), "1:2:2");
  EXPECT_EQ(ompi.implementation(), MpiImplementation::OpenMpi);
  EXPECT_EQ(find_mpi_launcher("hydra")->implementation(), MpiImplementation::Mpich);
  EXPECT_EQ(find_mpi_launcher("srun")->implementation(), std::nullopt) << "srun starts either MPI";
}

// The lines of Open MPI 4.1.4's mpirun (Debian 12), copied from real runs.
TEST(OpenMpiLauncher, ReadsAbortSignalExitAndExecFailures) {
  const MpiLauncher& ompi = *find_mpi_launcher("openmpi");
  FailureReport abort;
  EXPECT_TRUE(ompi.scan_failure_line("MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD", abort));
  EXPECT_TRUE(ompi.scan_failure_line("with errorcode 7.", abort));
  EXPECT_TRUE(abort.mpi_abort);
  EXPECT_EQ(abort.abort_rank, 1);
  EXPECT_EQ(abort.abort_call, "MPI_Abort(MPI_COMM_WORLD, 7)");

  FailureReport segv;
  EXPECT_TRUE(ompi.scan_failure_line("[vm:16873] *** Process received signal ***", segv));
  EXPECT_FALSE(ompi.scan_failure_line("[vm:16873] Signal: Segmentation fault (11)", segv));
  EXPECT_TRUE(ompi.scan_failure_line(
      "mpirun.openmpi noticed that process rank 1 with PID 0 on node vm exited on signal 11 (Segmentation fault).", segv));
  EXPECT_EQ(segv.signal, 11);
  EXPECT_EQ(segv.signalled_pid, 16873);
  EXPECT_FALSE(segv.mpi_abort);

  FailureReport exited;
  EXPECT_TRUE(ompi.scan_failure_line("  Exit code:    3", exited));
  EXPECT_EQ(exited.banner_exit_code, 3);
  EXPECT_EQ(exited.signal, 0) << "an early exit is no signal (Hydra reports it as SIGKILL)";

  FailureReport missing;
  EXPECT_TRUE(ompi.scan_failure_line(
      "mpirun.openmpi was unable to launch the specified application as it could not access", missing));
  EXPECT_TRUE(ompi.scan_failure_line("Executable: ./nope", missing));
  EXPECT_EQ(missing.exec_error, "./nope: could not be accessed or executed");
  FailureReport hydra_line;
  EXPECT_FALSE(ompi.scan_failure_line("=   EXIT CODE: 139", hydra_line)) << "Hydra's banner means nothing here";
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

// The injector's MPI when the binary names none (this test links no MPI; a
// script is no ELF file): the launcher's, else MPICH. The two MPIs' binaries
// and the mismatch error: tests/openmpi (OpenMpiSpine).
TEST(ApplicationMpi, WithoutAnMpiInDtNeededTheLauncherDecides) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  EXPECT_EQ(application_mpi(self), std::nullopt);
  EXPECT_EQ(application_mpi("/nonexistent/app"), std::nullopt);
  const auto script = std::filesystem::temp_directory_path() / ("sf-app-mpi-" + std::to_string(getpid()) + ".sh");
  { std::ofstream(script) << "#!/bin/sh\nexec ./app \"$@\"\n"; }
  EXPECT_EQ(application_mpi(script), std::nullopt);
  std::filesystem::remove(script);
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("openmpi")), MpiImplementation::OpenMpi);
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("hydra")), MpiImplementation::Mpich);
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("srun")), MpiImplementation::Mpich);
  EXPECT_EQ(to_string(MpiImplementation::OpenMpi), "Open MPI");
}

// The campaign's `mpi:` decides where the binary cannot tell (srun starts
// either MPI) and must agree with the launcher's MPI, naming both when not.
TEST(ApplicationMpi, DeclaredMpiDecidesAndMustAgreeWithTheLauncher) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("srun"), MpiImplementation::OpenMpi), MpiImplementation::OpenMpi);
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("openmpi"), MpiImplementation::OpenMpi), MpiImplementation::OpenMpi);
  EXPECT_EQ(run_mpi(self, *find_mpi_launcher("hydra"), MpiImplementation::Mpich), MpiImplementation::Mpich);
  try {
    run_mpi(self, *find_mpi_launcher("hydra"), MpiImplementation::OpenMpi);
    ADD_FAILURE() << "mpi: openmpi under Hydra was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mpi: openmpi (Open MPI) but the launcher is MPICH's (hydra)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(run_mpi(self, *find_mpi_launcher("openmpi"), MpiImplementation::Mpich), std::invalid_argument);
  EXPECT_EQ(mpi_named("openmpi"), MpiImplementation::OpenMpi);
  EXPECT_EQ(mpi_named("mpich"), MpiImplementation::Mpich);
  EXPECT_EQ(mpi_named("auto"), std::nullopt);
  EXPECT_EQ(key_word(MpiImplementation::OpenMpi), "openmpi");
}

// srun starts Open MPI's ranks through PMIx only (Debian's Open MPI 4.1):
// --mpi=pmi2 (the srun launcher's default) is refused for them, naming the fix.
TEST(ApplicationMpi, SrunRefusesOpenMpiWithoutPmix) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const MpiLauncher& srun = *find_mpi_launcher("srun");
  try {
    run_mpi(self, srun, MpiImplementation::OpenMpi, {"srun", "--mpi=pmi2", "--quiet"});
    ADD_FAILURE() << "Open MPI under srun --mpi=pmi2 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("use srun --mpi=pmix"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_mpi(self, srun, MpiImplementation::OpenMpi, {"srun", "--mpi", "none"}), std::invalid_argument);
  EXPECT_EQ(run_mpi(self, srun, MpiImplementation::OpenMpi, {"srun", "--mpi=pmix", "--quiet"}), MpiImplementation::OpenMpi);
  EXPECT_EQ(run_mpi(self, srun, MpiImplementation::OpenMpi, {"srun", "--mpi=pmix_v4"}), MpiImplementation::OpenMpi);
  EXPECT_EQ(run_mpi(self, srun, MpiImplementation::OpenMpi, {"srun"}), MpiImplementation::OpenMpi) << "the site's MpiDefault";
  EXPECT_EQ(run_mpi(self, srun, MpiImplementation::Mpich, {"srun", "--mpi=pmi2"}), MpiImplementation::Mpich);
}
