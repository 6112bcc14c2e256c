#include "run_command.hpp"

#include <cctype>

namespace scalefuzz::cli {

std::string shell_quote(const std::string& word) {
  bool safe = !word.empty();
  for (unsigned char c : word)
    if (!(std::isalnum(c) || std::string_view("@%+=:,./_-{}").find(static_cast<char>(c)) != std::string_view::npos))
      safe = false;
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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
