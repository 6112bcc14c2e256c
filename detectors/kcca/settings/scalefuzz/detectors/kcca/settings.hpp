// The kcca: campaign section (docs/campaign-file.md), as the detector reads
// it from AnalysisContext::settings. Defaults as in detectors/kcca/README.md.
#pragma once

#include <filesystem>
#include <string>

namespace scalefuzz::settings {
struct SettingsSection;  // settings_section.hpp
}

namespace scalefuzz::detectors::kcca {

struct Settings {
  // A model trained by an earlier campaign (OUT/kcca-model.json) to score this
  // campaign's test runs with, instead of training on its train runs.
  // Absolute (resolved against {campaign_dir}); empty = train.
  std::filesystem::path model;
  int components = 2;                // N_comps
  double gamma = 1e-3;               // regularization γ
  double control_width = 256.0;      // kernel width factor of the control vectors (σ_y)
  double observation_width = 256.0;  // kernel width factor of the observation vectors (σ_x)
  std::string volume = "total";      // total | sent | sent-and-received
  // DMTracker's chain distribution as extra observation features: per rank,
  // the bytes starting chains of each chain type (detectors/dmtracker).
  bool chain_features = false;
  // How a call site whose MPI call is made inside a library becomes a
  // feature (issue 37; detectors/kcca/README.md): "entry" keys it by the
  // application's call into the library, "stack" by its whole stack (Vrisha).
  std::string library_sites = "entry";
};

// The `kcca:` section's reader (read_settings.cpp), registered with the
// campaign loader by scalefuzz_register_detector(kcca).
extern const settings::SettingsSection kSettingsSection;

}  // namespace scalefuzz::detectors::kcca
