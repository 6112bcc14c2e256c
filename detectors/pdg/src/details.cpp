#include "scalefuzz/detectors/pdg/details.hpp"

namespace scalefuzz::detectors::pdg {

void to_json(nlohmann::json& j, const TaskDetails& d) {
  j = {{"variant", d.variant},
       {"lp_tasks", d.lp_tasks},
       {"aborted_tasks", d.aborted_tasks},
       {"node", d.node},
       {"site", d.site},
       {"tasks_in_call", d.tasks_in_call},
       {"eliminated_tasks", d.eliminated_tasks},
       {"graph", d.graph},
       {"notes", d.notes}};
  if (!d.code.is_null()) j["code"] = d.code;
}

void from_json(const nlohmann::json& j, TaskDetails& d) {
  d.variant = j.value("variant", std::string());
  d.lp_tasks = j.value("lp_tasks", std::string());
  d.aborted_tasks = j.value("aborted_tasks", std::string());
  d.node = j.value("node", std::size_t{0});
  d.site = j.value("site", nlohmann::json());
  d.tasks_in_call = j.value("tasks_in_call", std::size_t{0});
  d.eliminated_tasks = j.value("eliminated_tasks", std::string());
  d.graph = j.value("graph", nlohmann::json());
  d.notes = j.value("notes", std::vector<std::string>());
  d.code = j.value("code", nlohmann::json());
}

}  // namespace scalefuzz::detectors::pdg
