// The `kcca:` section of a campaign file (docs/campaign-file.md): Vrisha's
// model options and a stored model to reuse, read into Settings.
#include <system_error>

#include "scalefuzz/detectors/api/settings_section.hpp"
#include "scalefuzz/detectors/kcca/settings.hpp"

namespace scalefuzz::detectors::kcca {

namespace {

settings::SectionRead read_settings(const settings::YamlReader& reader, const YAML::Node& node,
                                    const settings::SectionContext& context) {
  Settings spec;
  const auto entries = reader.map(node, "kcca",
                                  {"model", "components", "gamma", "control_width", "observation_width", "volume",
                                   "chain_features", "library_sites"});
  for (const auto& e : entries) {
    if (e.key == "model") {
      std::filesystem::path p = reader.non_empty_string(e.value, "kcca.model");
      if (p.is_relative()) p = context.campaign_dir / p;
      p = p.lexically_normal();
      // Missing is fine: the first night trains the model and saves it there.
      std::error_code ec;
      if (std::filesystem::exists(p, ec) && !std::filesystem::is_regular_file(p, ec))
        reader.fail(e.value, "kcca.model is not a file: " + p.string());
      spec.model = p;
    } else if (e.key == "components") {
      spec.components = static_cast<int>(reader.integer(e.value, "kcca.components", 1, 64));
    } else if (e.key == "gamma") {
      spec.gamma = reader.positive_number(e.value, "kcca.gamma");
    } else if (e.key == "control_width") {
      spec.control_width = reader.positive_number(e.value, "kcca.control_width");
    } else if (e.key == "observation_width") {
      spec.observation_width = reader.positive_number(e.value, "kcca.observation_width");
    } else if (e.key == "chain_features") {
      spec.chain_features = reader.boolean(e.value, "kcca.chain_features");
    } else if (e.key == "library_sites") {
      spec.library_sites = reader.scalar(e.value, "kcca.library_sites");
      if (spec.library_sites != "entry" && spec.library_sites != "stack")
        reader.fail(e.value, "kcca.library_sites must be entry or stack, got '" + spec.library_sites + "'");
    } else if (e.key == "volume") {
      spec.volume = reader.scalar(e.value, "kcca.volume");
      if (spec.volume != "total" && spec.volume != "sent" && spec.volume != "sent-and-received")
        reader.fail(e.value, "kcca.volume must be total, sent or sent-and-received, got '" + spec.volume + "'");
    }
  }
  return {spec, {}};
}

}  // namespace

const settings::SettingsSection kSettingsSection{"kcca", read_settings};

}  // namespace scalefuzz::detectors::kcca
