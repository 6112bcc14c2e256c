// Accuracy and precision of LP-task detection under fault injection (§5.2.2).
#include <algorithm>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg {

Coverage coverage(std::span<const InjectionOutcome> outcomes) {
  Coverage c;
  c.injections = outcomes.size();
  for (const InjectionOutcome& o : outcomes) {
    const bool found = std::find(o.lp_tasks.begin(), o.lp_tasks.end(), o.injected_rank) != o.lp_tasks.end();
    const bool others = std::any_of(o.lp_tasks.begin(), o.lp_tasks.end(), [&](int r) { return r != o.injected_rank; });
    if (found) ++c.accurate;
    if (!others) ++c.precise;
    if (!found && o.injected_isolated) ++c.isolated;
  }
  if (c.injections > 0) {
    c.accuracy = static_cast<double>(c.accurate) / static_cast<double>(c.injections);
    c.precision = static_cast<double>(c.precise) / static_cast<double>(c.injections);
  }
  return c;
}

bool is_isolated(const PdgResult& r, int rank) {
  for (const PdgNode& n : r.nodes) {
    if (std::binary_search(n.ranks.begin(), n.ranks.end(), rank)) return n.ranks.size() == 1;
  }
  return false;
}

}  // namespace scalefuzz::detectors::pdg
