// A technique's settings as the harness carries them: each technique's
// campaign section, read by the technique's own reader (settings_section.hpp)
// into its own type, held by technique name and handed back to the technique
// (AnalysisContext::settings, DetectorInfo::campaign_problem). The harness
// never looks inside. No YAML here: the campaign model (harness/campaign
// campaign.hpp) holds these without seeing a reader.
#pragma once

#include <any>
#include <map>
#include <stdexcept>
#include <string>

namespace scalefuzz::settings {

// Each technique's settings (its campaign section, a typed value of the
// technique's own type) by technique name; settings_of reads one back.
using TechniqueSettings = std::map<std::string, std::any>;

// The settings of technique `name`, or a default T when the campaign gave
// none. A value of another type is a programming error (std::bad_any_cast).
template <class T>
T settings_of(const TechniqueSettings& settings, const std::string& name) {
  const auto it = settings.find(name);
  return it == settings.end() ? T{} : std::any_cast<const T&>(it->second);
}

// A problem in a settings file: what() is "FILE:LINE:COLUMN: message"
// (1-based) or "FILE: message" when no position applies. The campaign
// loader's CampaignError is this type, so a technique's reader fails the
// same way as the harness's own sections.
class SettingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace scalefuzz::settings
