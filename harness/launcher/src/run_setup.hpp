// What a run needs before it starts: its identity marker, its environment,
// and a check of everything that can be checked without launching.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::harness {

// Environment variable carrying the per-launch marker.
inline constexpr const char* kLaunchIdVar = "SCALEFUZZ_LAUNCH_ID";

std::string new_launch_id();

// The harness's environment without its SCALEFUZZ_* variables, then spec.env, then options.env, then the
// run's SCALEFUZZ_* identity (which nothing overrides).
std::map<std::string, std::string> run_environment(const RunSpec& spec, const LaunchOptions& options,
                                                   const std::string& launch_id);

// "SCALEFUZZ_NOISE_" + key upper-cased, other characters than [A-Z0-9] as '_'.
std::string noise_env_name(const std::string& key);

// The problem as one readable line, or nullopt; sets mpiexec_path when found.
std::optional<std::string> preflight(const RunSpec& spec, const LaunchOptions& options,
                                     const std::map<std::string, std::string>& env,
                                     std::filesystem::path& mpiexec_path);

}  // namespace scalefuzz::harness
