// A run's launch as a line a person can paste into a shell (for --dry-run and
// replay instructions). Display only: launches always use argv vectors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::workflows {

using harness::shell_quote;

// The words joined with spaces, each shell-quoted where needed.
std::string joined_for_shell(const std::vector<std::string>& argv);

// Why a seed-and-noise replay may not bring the outcome back.
std::string replay_timing_note(bool quiet_run);

// Writes RUN_DIR/replay.txt: the exact replay `exact_line` (scalefuzz replay;
// none when the run has no decision log), then the `scalefuzz exec` line
// `exec_argv` (same seed and noise), each under a comment, the second saying
// it is timing-dependent. report.html shows the file; JUnit's replay
// property is its first command line. Best effort: a run is stored without it.
void write_replay_file(const std::filesystem::path& run_dir, const std::string& exact_line,
                       const std::vector<std::string>& exec_argv, bool quiet_run);

// A stored run's replay.txt (write_replay_file), for `run` and SLURM's
// `collect`: `scalefuzz replay RUN_DIR` when the run has a decision log,
// then the seed-and-noise exec line into OUT/replay/<id> (an
// application-centric run's line names its system run's analysis).
void write_stored_run_replay(const harness::RunStore& store, const harness::RunSpec& run,
                             const std::vector<std::string>& mpiexec, const std::string& oversubscribe,
                             const harness::MpiLauncher* launcher,
                             std::optional<harness::MpiImplementation> mpi = std::nullopt);

// The path of this scalefuzz binary, so printed command lines run as shown.
std::string this_program();

// "env SCALEFUZZ_SEED=... SCALEFUZZ_NOISE_MODE=... mpiexec -n N -genv LD_PRELOAD lib app args":
// the launcher's own command (harness::launch_command) with the environment.
std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options);

}  // namespace scalefuzz::workflows
