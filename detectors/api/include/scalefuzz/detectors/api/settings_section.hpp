// A technique's campaign section and its reader: the technique registers a
// SettingsSection (detectors/<name>/settings/read_settings.cpp, the constant
// scalefuzz::detectors::<name>::kSettingsSection, listed by
// scalefuzz_register_detector), and the campaign loader (harness/campaign)
// hands it its key's YAML node and keeps what it returns in
// Campaign::settings under the key. detectors/api/README.md says how to add one.
#pragma once

#include <yaml-cpp/yaml.h>

#include <any>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/settings.hpp"
#include "scalefuzz/detectors/api/yaml_reader.hpp"

namespace scalefuzz::settings {

// What a section's reader knows of the campaign besides its own section.
struct SectionContext {
  std::filesystem::path campaign_dir;  // absolute: a relative path in the section is relative to it
  // The file every campaign output directory holds (the run store's
  // database), for a section that names another campaign's results.
  std::string campaign_output_marker;
};

// What the other sections of the campaign say, for the checks a section
// cannot make alone.
struct CampaignShape {
  int smallest_scale = 0;  // fewest processes of any run (> 0)
};

// A check of a section against the rest of the campaign; fails through the
// reader (one error each, reported with the campaign's other errors).
using SectionCheck = std::function<void(const YamlReader& reader, const CampaignShape& shape)>;

// What a reader returns.
struct SectionRead {
  std::any settings;  // the technique's own settings type; settings_of<T> reads it back
  // Run once every section was read and the scales are known.
  std::vector<SectionCheck> checks;
};

// A technique's registration of its campaign section.
struct SettingsSection {
  const char* key;  // the campaign file's key, also the technique's name in TechniqueSettings
  // Reads the section's value (any YAML) or fails through `reader`
  // (SettingsError "FILE:LINE:COLUMN: message").
  SectionRead (*read)(const YamlReader& reader, const YAML::Node& node, const SectionContext& context);
};

}  // namespace scalefuzz::settings
