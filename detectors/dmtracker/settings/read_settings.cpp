// The `dmtracker:` section of a campaign file (docs/campaign-file.md): the
// ranks compared by chain distribution and the stored known-good runs the
// invariants come from, read into Settings.
#include <algorithm>
#include <system_error>
#include <unordered_set>

#include "scalefuzz/detectors/api/settings_section.hpp"
#include "scalefuzz/detectors/dmtracker/settings.hpp"

namespace scalefuzz::detectors::dmtracker {

namespace {

settings::SectionRead read_settings(const settings::YamlReader& reader, const YAML::Node& node,
                                    const settings::SectionContext& context) {
  Settings spec;
  std::vector<settings::SectionCheck> checks;
  for (const auto& e : reader.map(node, "dmtracker", {"ranks", "reference"})) {
    if (e.key == "ranks") {
      std::unordered_set<int> listed;  // hashed: the list can be long
      for (const auto& item : reader.list(e.value, "dmtracker.ranks")) {
        int rank = static_cast<int>(reader.integer(item, "a rank in dmtracker.ranks", 0, 999999));
        if (!listed.insert(rank).second)
          reader.fail(item, "rank " + std::to_string(rank) + " appears twice in dmtracker.ranks");
        spec.ranks.push_back(rank);
        // Every rank compared exists at every scale.
        checks.push_back([rank, item](const settings::YamlReader& reader, const settings::CampaignShape& shape) {
          if (rank >= shape.smallest_scale)
            reader.fail(item, "rank " + std::to_string(rank) + " in dmtracker.ranks does not exist at the smallest scale " +
                                  std::to_string(shape.smallest_scale));
        });
      }
      if (spec.ranks.size() < 3)
        reader.fail(e.value, "dmtracker.ranks needs at least 3 ranks (a rank is compared with its k-th nearest peer)");
    } else if (e.key == "reference") {
      std::filesystem::path p = reader.non_empty_string(e.value, "dmtracker.reference");
      if (p.is_relative()) p = context.campaign_dir / p;
      p = p.lexically_normal();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(p / context.campaign_output_marker, ec))
        reader.fail(e.value, "dmtracker.reference is not a campaign output directory (no " +
                                 context.campaign_output_marker + "): " + p.string());
      spec.reference = p;
    }
  }
  return {spec, std::move(checks)};
}

}  // namespace

const settings::SettingsSection kSettingsSection{"dmtracker", read_settings};

}  // namespace scalefuzz::detectors::dmtracker
