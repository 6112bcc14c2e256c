// The `dmtracker:` section: the ranks compared by chain distribution and the
// stored known-good runs the invariants come from.
#include <algorithm>
#include <system_error>
#include <unordered_set>

#include "scalefuzz/harness/run_store.hpp"
#include "sections.hpp"

namespace scalefuzz::harness::detail {

DmtrackerSection read_dmtracker(const YamlReader& reader, const YAML::Node& node,
                                const std::filesystem::path& campaign_dir) {
  DmtrackerSection section;
  for (const auto& e : reader.map(node, "dmtracker", {"ranks", "reference"})) {
    if (e.key == "ranks") {
      std::unordered_set<int> listed;  // hashed: the list can be long
      for (const auto& item : reader.list(e.value, "dmtracker.ranks")) {
        int rank = static_cast<int>(reader.integer(item, "a rank in dmtracker.ranks", 0, 999999));
        if (!listed.insert(rank).second)
          reader.fail(item, "rank " + std::to_string(rank) + " appears twice in dmtracker.ranks");
        section.spec.ranks.push_back(rank);
        section.rank_nodes.push_back(item);
      }
      if (section.spec.ranks.size() < 3)
        reader.fail(e.value, "dmtracker.ranks needs at least 3 ranks (a rank is compared with its k-th nearest peer)");
    } else if (e.key == "reference") {
      std::filesystem::path p = reader.non_empty_string(e.value, "dmtracker.reference");
      if (p.is_relative()) p = campaign_dir / p;
      p = p.lexically_normal();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(p / RunStore::kDbFileName, ec))
        reader.fail(e.value, "dmtracker.reference is not a campaign output directory (no " +
                                 std::string(RunStore::kDbFileName) + "): " + p.string());
      section.spec.reference = p;
    }
  }
  return section;
}

}  // namespace scalefuzz::harness::detail
