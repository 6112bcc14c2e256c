#include "run_setup.hpp"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <set>
#include <sstream>

#include "scalefuzz/harness/child_process.hpp"
#include "classify.hpp"
#include "scalefuzz/injector/env.hpp"

extern char** environ;

namespace scalefuzz::harness {

// Unique per launch, also across harness processes running concurrently:
// the marker that tells this run's processes from everyone else's.
std::string new_launch_id() {
  static std::atomic<unsigned long> counter{0};
  auto now = std::chrono::system_clock::now().time_since_epoch();
  std::ostringstream id;
  id << getpid() << "-" << counter.fetch_add(1) << "-"
     << std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
  return id.str();
}

std::string noise_env_name(const std::string& key) {
  std::string name = "SCALEFUZZ_NOISE_";
  for (char c : key) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : '_';
  return name;
}

std::map<std::string, std::string> run_environment(const RunSpec& spec, const LaunchOptions& options,
                                                   const std::string& launch_id) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    // SCALEFUZZ_* of the harness's own environment (e.g. a harness started
    // from inside another run) must not leak into this run's configuration.
    if (entry.rfind("SCALEFUZZ_", 0) == 0) continue;
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [k, v] : spec.env) env[k] = v;
  for (const auto& [k, v] : options.env) env[k] = v;
  // The run's identity comes last: nothing overrides it.
  for (auto& [k, v] : injector_environment(spec, std::filesystem::absolute(options.run_dir))) env[k] = v;
  env[kLaunchIdVar] = launch_id;
  return env;
}

const MpiLauncher& launcher_of(const LaunchOptions& options) {
  return options.launcher ? *options.launcher : detect_mpi_launcher(options.mpiexec);
}

std::vector<std::string> launch_command(const RunSpec& spec, const LaunchOptions& options) {
  std::vector<std::string> command = options.mpiexec;
  const std::filesystem::path injector =
      options.injector_lib.empty() ? std::filesystem::path() : std::filesystem::absolute(options.injector_lib);
  // Every variable the ranks must see beyond the launcher's inherited environment.
  std::set<std::string> rank_env{kLaunchIdVar};
  for (const auto& [k, v] : spec.env) rank_env.insert(k);
  for (const auto& [k, v] : options.env) rank_env.insert(k);
  for (const auto& [k, v] : injector_environment(spec, options.run_dir)) rank_env.insert(k);
  const auto args =
      launcher_of(options).job_args(spec, injector, std::vector<std::string>(rank_env.begin(), rank_env.end()));
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

std::vector<std::pair<std::string, std::string>> injector_environment(const RunSpec& spec,
                                                                      const std::filesystem::path& run_dir) {
  std::vector<std::pair<std::string, std::string>> env;
  env.emplace_back(noise::kModeEnv, noise::to_string(spec.noise.mode));
  for (const auto& [k, v] : spec.noise.settings) {
    const noise::KnobSpec* knob = noise::find_knob(k);
    env.emplace_back(knob ? std::string(knob->env) : noise_env_name(k), v);
  }
  using injector::Env;
  using injector::env_name;
  if (spec.stall) {  // read by injectors/stall
    env.emplace_back(env_name(Env::StallRank), std::to_string(spec.stall->rank));
    env.emplace_back(env_name(Env::StallCall), std::to_string(spec.stall->call));
  }
  env.emplace_back(env_name(Env::Seed), std::to_string(spec.seed));
  env.emplace_back(env_name(Env::RunId), spec.run_id);
  if (!run_dir.empty()) env.emplace_back(env_name(Env::RunDir), run_dir.string());
  return env;
}

// Checks everything that can be checked before starting anything; returns
// the problem as one readable line.
std::optional<std::string> preflight(const RunSpec& spec, const LaunchOptions& options,
                                     const std::map<std::string, std::string>& env,
                                     std::filesystem::path& mpiexec_path) {
  if (spec.nprocs < 1) return "invalid number of processes " + std::to_string(spec.nprocs);
  if (spec.timeout.count() <= 0) return "invalid timeout " + std::to_string(spec.timeout.count()) + " ms";
  if (options.mpiexec.empty() || options.mpiexec.front().empty()) return "no mpiexec command configured";
  auto path_it = env.find("PATH");
  std::string path = path_it == env.end() ? "" : path_it->second;
  auto mpiexec = find_executable(options.mpiexec.front(), path);
  if (!mpiexec)
    return "mpiexec not found: '" + options.mpiexec.front() + "' is not an executable file" +
           (options.mpiexec.front().find('/') == std::string::npos ? " on PATH" : "");
  mpiexec_path = *mpiexec;
  if (spec.argv.empty() || spec.argv.front().empty()) return "empty application command";
  if (!find_executable(spec.argv.front(), path))
    return "application binary not found: '" + spec.argv.front() + "' is not an executable file" +
           (spec.argv.front().find('/') == std::string::npos ? " on PATH" : "");
  if (!options.injector_lib.empty() && !std::filesystem::is_regular_file(options.injector_lib))
    return "injector library not found: " + options.injector_lib.string();
  if (auto problem = result_check_problem(spec)) return problem;
  return std::nullopt;
}

}  // namespace scalefuzz::harness
