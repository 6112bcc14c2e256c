// The dmtracker: campaign section (docs/campaign-file.md), as the detector
// reads it from AnalysisContext::settings (detectors/dmtracker/README.md).
#pragma once

#include <filesystem>
#include <vector>

namespace scalefuzz::settings {
struct SettingsSection;  // settings_section.hpp
}

namespace scalefuzz::detectors::dmtracker {

struct Settings {
  // Ranks whose chain distributions are compared (CD-invariants, §4.5), e.g.
  // the workers of a master/worker program. Empty = every rank with chains.
  std::vector<int> ranks;
  // A stored campaign output directory (`scalefuzz run --out`) whose runs
  // that ended ok are the known-good runs: FC-invariants and Distance^k
  // baselines come from them. Absolute; empty = from the analysed run itself.
  std::filesystem::path reference;
};

// The `dmtracker:` section's reader (read_settings.cpp), registered with the
// campaign loader by scalefuzz_register_detector(dmtracker).
extern const settings::SettingsSection kSettingsSection;

}  // namespace scalefuzz::detectors::dmtracker
