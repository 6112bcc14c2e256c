#include <algorithm>
#include <cctype>
#include <regex>

#include "sections.hpp"
#include "template.hpp"

namespace scalefuzz::harness::detail {

namespace {

std::string compiled_regex(const YamlReader& reader, const YAML::Node& node, const std::string& what) {
  std::string pattern = reader.non_empty_string(node, what);
  if (pattern.size() > kMaxCheckRegexBytes)
    reader.fail(node, what + ": a regular expression of " + std::to_string(pattern.size()) +
                          " bytes is longer than the " + std::to_string(kMaxCheckRegexBytes) + " allowed");
  try {
    std::regex compiled(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    reader.fail(node, "invalid regular expression '" + pattern + "' for " + what + ": " + e.what());
  }
  return pattern;
}

ResultCheck read_check(const YamlReader& reader, const YAML::Node& node) {
  ResultCheck check;
  const char* forms = "exit-code, {stdout-regex|stderr-regex|output-regex: REGEX} or "
                      "{stdout-must-match|stderr-must-match|output-must-match: REGEX} (output = stdout and stderr)";
  if (node.IsScalar()) {
    if (node.Scalar() != "exit-code")
      reader.fail(node, std::string("app.check must be ") + forms + ", got '" + node.Scalar() + "'");
    return check;
  }
  auto entries = reader.map(node, "app.check",
                            {"stdout-regex", "stdout-must-match", "stderr-regex", "stderr-must-match", "output-regex",
                             "output-must-match"});
  if (entries.size() != 1) reader.fail(node, std::string("app.check needs exactly one of ") + forms);
  const MapEntry& entry = entries.front();
  const std::string& key = entry.key;
  check.kind = key.ends_with("-regex") ? ResultCheck::Kind::StdoutRegex : ResultCheck::Kind::StdoutMustMatch;
  check.stream = key.starts_with("stdout") ? ResultCheck::Stream::Stdout
                 : key.starts_with("stderr") ? ResultCheck::Stream::Stderr
                                             : ResultCheck::Stream::Both;
  check.pattern = compiled_regex(reader, entry.value, "app.check." + key);
  return check;
}

}  // namespace

const std::vector<std::string>& builtin_placeholders() {
  static const std::vector<std::string> names = {"build", "nprocs", "rep", "seed", "campaign_dir"};
  return names;
}

void check_template(const YamlReader& reader, const TemplateSite& site,
                    const std::vector<std::string>& allowed) {
  std::vector<std::string> names;
  try {
    names = template_placeholders(site.node.Scalar());
  } catch (const TemplateError& e) {
    reader.fail(site.node, std::string(e.what()) + " in " + site.what);
  }
  for (const auto& name : names) {
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    std::string hint = closest_name(name, allowed);
    reader.fail(site.node, "unknown placeholder {" + name + "} in " + site.what +
                               (hint.empty() ? "" : " (did you mean {" + hint + "}?)") +
                               "; known: {" + join(allowed, "}, {") + "}");
  }
}

AppSection read_app(const YamlReader& reader, const YAML::Node& node) {
  AppSection app;
  auto entries = reader.map(node, "app", {"command", "check", "env"});
  bool has_command = false;
  for (const auto& entry : entries) {
    if (entry.key == "command") {
      has_command = true;
      if (entry.value.IsScalar())
        reader.fail(entry.value, "app.command must be a list of arguments, e.g. [\"./app\", "
                                 "\"--n\", \"{count}\"] (commands never go through a shell)");
      auto items = reader.list(entry.value, "app.command");
      for (std::size_t i = 0; i < items.size(); ++i) {
        std::string what = "app.command[" + std::to_string(i) + "]";
        if (i == 0)
          app.command.push_back(reader.non_empty_string(items[i], "the program (" + what + ")"));
        else
          app.command.push_back(reader.scalar(items[i], what));
        app.templates.push_back({items[i], what});
      }
    } else if (entry.key == "check") {
      app.check = read_check(reader, entry.value);
    } else if (entry.key == "env") {
      for (const auto& var : reader.free_map(entry.value, "app.env")) {
        if (!is_identifier(var.key))
          reader.fail(var.key_node, "'" + var.key + "' is not a valid environment variable name");
        if (var.key.rfind("SCALEFUZZ_", 0) == 0)
          reader.fail(var.key_node, "app.env may not set " + var.key +
                                        ": SCALEFUZZ_* variables are set by the harness");
        std::string what = "app.env." + var.key;
        app.env.emplace_back(var.key, reader.scalar(var.value, what));
        app.templates.push_back({var.value, what});
      }
    }
  }
  if (!has_command) reader.fail(node, "app has no 'command' (the argv list to run under mpiexec)");
  return app;
}

}  // namespace scalefuzz::harness::detail
