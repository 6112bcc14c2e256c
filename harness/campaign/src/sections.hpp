// Readers for the harness's sections of a campaign file; each fills its part
// of the Campaign or throws CampaignError through the YamlReader. The
// techniques' sections are read by the techniques (settings_sections()).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "scalefuzz/detectors/api/settings_section.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "yaml_reader.hpp"

namespace scalefuzz::harness::detail {

// A template string and where it came from, checked once parameters are known.
struct TemplateSite {
  YAML::Node node;
  std::string what;  // "app.command[2]"
};

struct AppSection {
  std::vector<std::string> command;
  std::vector<std::pair<std::string, std::string>> env;
  ResultCheck check;
  std::vector<TemplateSite> templates;
};

AppSection read_app(const YamlReader& reader, const YAML::Node& node);
ScaleSet read_scales(const YamlReader& reader, const YAML::Node& node);
std::vector<Parameter> read_parameters(const YamlReader& reader, const YAML::Node& node);
SchedulerSpec read_scheduler(const YamlReader& reader, const YAML::Node& node);
// The techniques' campaign sections (their readers: detectors/<name>/settings/),
// in registration order; generated (settings_sections.cpp.in).
const std::vector<settings::SettingsSection>& settings_sections();

// Placeholder names every template may use besides the parameters.
const std::vector<std::string>& builtin_placeholders();

// Fails on a placeholder outside `allowed`, with a "did you mean" hint.
void check_template(const YamlReader& reader, const TemplateSite& site,
                    const std::vector<std::string>& allowed);

}  // namespace scalefuzz::harness::detail
