#include <algorithm>

#include "scalefuzz/detectors/usage.hpp"

namespace scalefuzz::detectors::usage {

std::vector<Finding> usage_findings(const std::vector<Issue>& issues, const trace::RunTrace& run,
                                    const std::string& run_id, const Locator& locate,
                                    const StackLocator& locate_stack) {
  std::vector<Finding> out;
  for (const auto& is : issues) {
    Finding f;
    f.detector = "usage";
    f.kind = is.kind;
    f.severity = is.severity;
    f.run_id = run_id;
    f.details["rule"] = is.rule;
    f.details["mpi_section"] = is.section;
    f.details["message"] = is.message;
    if (!is.stack.empty() && locate_stack) {
      // An access outside MPI: where the program went wrong, so first.
      nlohmann::json at = locate_stack(is.stack_rank, is.stack);
      if (at.is_object() && at.contains("code")) {
        f.details["code"] = at["code"];
        f.details["code"]["rank"] = is.stack_rank;
        if (at["code"].contains("location")) f.location = at["code"]["location"].get<std::string>();
      }
      if (at.is_object() && at.contains("stack")) f.details["stack"] = at["stack"];
    }
    nlohmann::json sides = nlohmann::json::array();
    for (const auto& s : is.sides) {
      nlohmann::json j = {{"rank", s.rank}, {"role", s.role}};
      if (s.rank >= 0 && static_cast<std::size_t>(s.rank) < run.ranks.size() &&
          s.event < run.ranks[static_cast<std::size_t>(s.rank)].events.size()) {
        const auto& e = run.ranks[static_cast<std::size_t>(s.rank)].events[s.event];
        j["call"] = trace::op_name(e.op);
        j["seq"] = e.seq;
        nlohmann::json loc = locate ? locate(s.rank, s.event) : nlohmann::json();
        if (!loc.is_null()) {
          j["code"] = loc;
          if (f.location.empty() && loc.contains("location")) f.location = loc["location"].get<std::string>();
        }
      }
      if (std::find(f.ranks.begin(), f.ranks.end(), s.rank) == f.ranks.end()) f.ranks.push_back(s.rank);
      sides.push_back(std::move(j));
    }
    f.details["sides"] = std::move(sides);
    f.title = run_id + ": " + is.kind + " — " + is.message + " (" + is.section + ")";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace scalefuzz::detectors::usage
