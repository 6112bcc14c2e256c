// A run's launch as a line a person can paste into a shell (for --dry-run and
// replay instructions). Display only: launches always use argv vectors.
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::cli {

using harness::shell_quote;

// The words joined with spaces, each shell-quoted where needed.
std::string joined_for_shell(const std::vector<std::string>& argv);

// The path of this scalefuzz binary, so printed command lines run as shown.
std::string this_program();

// "env SCALEFUZZ_SEED=... SCALEFUZZ_NOISE_MODE=... mpiexec -n N -genv LD_PRELOAD lib app args":
// the launcher's own command (harness::launch_command) with the environment.
std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options);

}  // namespace scalefuzz::cli
