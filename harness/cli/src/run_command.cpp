#include "run_command.hpp"

#include <cctype>
#include <filesystem>

namespace scalefuzz::cli {

std::string joined_for_shell(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& w : argv) line += (line.empty() ? "" : " ") + shell_quote(w);
  return line;
}

std::string this_program() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("scalefuzz") : self.string();
}

std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options) {
  std::string line = "env";
  auto add_env = [&](const std::string& k, const std::string& v) { line += " " + shell_quote(k + "=" + v); };
  for (const auto& [k, v] : spec.env) add_env(k, v);
  for (const auto& [k, v] : options.env) add_env(k, v);
  for (const auto& [k, v] : harness::injector_environment(spec, options.run_dir)) add_env(k, v);
  for (const auto& w : harness::launch_command(spec, options)) line += " " + shell_quote(w);
  return line;
}

}  // namespace scalefuzz::cli
