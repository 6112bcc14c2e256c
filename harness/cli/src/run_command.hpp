// A run's launch as a line a person can paste into a shell (for --dry-run and
// replay instructions). Display only: launches always use argv vectors.
#pragma once

#include <string>

#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::cli {

// POSIX shell single-quoting where needed.
std::string shell_quote(const std::string& word);

// "env SCALEFUZZ_SEED=... SCALEFUZZ_NOISE_MODE=... mpiexec -n N -genv LD_PRELOAD lib app args":
// the launcher's own command (harness::launch_command) with the environment.
std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options);

}  // namespace scalefuzz::cli
