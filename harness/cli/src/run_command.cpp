#include "run_command.hpp"

#include <cctype>

namespace scalefuzz::cli {

std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options) {
  std::string line = "env";
  auto add_env = [&](const std::string& k, const std::string& v) { line += " " + shell_quote(k + "=" + v); };
  for (const auto& [k, v] : spec.env) add_env(k, v);
  for (const auto& [k, v] : options.env) add_env(k, v);
  add_env("SCALEFUZZ_NOISE_MODE", spec.noise.mode);
  for (const auto& [k, v] : spec.noise.settings) {
    std::string name = "SCALEFUZZ_NOISE_";
    for (char c : k) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : '_';
    add_env(name, v);
  }
  add_env("SCALEFUZZ_SEED", std::to_string(spec.seed));
  add_env("SCALEFUZZ_RUN_ID", spec.run_id);
  if (!options.run_dir.empty()) add_env("SCALEFUZZ_RUN_DIR", options.run_dir.string());
  for (const auto& w : options.mpiexec) line += " " + shell_quote(w);
  line += " -n " + std::to_string(spec.nprocs);
  if (!options.injector_lib.empty()) line += " -genv LD_PRELOAD " + shell_quote(options.injector_lib.string());
  for (const auto& w : spec.argv) line += " " + shell_quote(w);
  return line;
}

}  // namespace scalefuzz::cli
