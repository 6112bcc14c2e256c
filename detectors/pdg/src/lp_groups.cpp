// scalefuzz's extension of the §4.3 elimination step (see pdg.hpp).
#include <algorithm>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg {

void drop_lp_groups_waiting_on_lp(PdgResult& r) {
  if (r.lp_nodes.size() < 2) return;
  auto is_lp = [&](std::size_t n) { return std::find(r.lp_nodes.begin(), r.lp_nodes.end(), n) != r.lp_nodes.end(); };
  auto waits = [&](std::size_t a, std::size_t b) {
    for (const auto& e : r.edges)
      if (e.kind == EdgeKind::PointToPoint && e.from == a && e.to == b) return true;
    return false;
  };
  std::vector<std::size_t> kept;
  for (std::size_t a : r.lp_nodes) {
    bool drop = false;
    for (std::size_t b : r.lp_nodes)
      if (a != b && is_lp(b) && waits(a, b) && !waits(b, a)) drop = true;
    if (!drop) kept.push_back(a);
  }
  if (kept.empty() || kept.size() == r.lp_nodes.size()) return;
  std::vector<int> tasks;
  for (std::size_t a : r.lp_nodes) {
    auto& node = r.nodes[a];
    const bool keep = std::find(kept.begin(), kept.end(), a) != kept.end();
    node.lp = keep;
    for (int t : node.ranks) (keep ? tasks : r.eliminated_tasks).push_back(t);
  }
  std::sort(tasks.begin(), tasks.end());
  std::sort(r.eliminated_tasks.begin(), r.eliminated_tasks.end());
  r.lp_nodes = kept;
  r.lp_tasks = tasks;
  r.notes.push_back("LP groups waiting point-to-point on another LP group were dropped (scalefuzz extension)");
}

}  // namespace scalefuzz::detectors::pdg
