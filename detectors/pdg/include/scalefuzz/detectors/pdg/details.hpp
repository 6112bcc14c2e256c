// Typed details of a PDG finding (kinds "lp-task", "aborted-task"): written
// once by pdg_findings (to_json, into Finding::details) and read back typed
// by the "hangs" report section (report/hangs_section.cpp). Missing keys read
// as their defaults (a hand-written or older finding).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalefuzz::detectors::pdg {

struct TaskDetails {
  std::string variant;
  std::string lp_tasks;        // rank ranges
  std::string aborted_tasks;
  std::size_t node = 0;        // the group's index in graph.nodes
  nlohmann::json site;         // {rank, id (null: none), stable_hash, op, start}
  std::size_t tasks_in_call = 0;
  std::string eliminated_tasks;
  nlohmann::json graph;        // {nodes, edges}
  std::vector<std::string> notes;
  // The site's code location (analysis::CodeLocation, added by the glue from
  // the run's symbols); null: none, no key.
  nlohmann::json code;
};
void to_json(nlohmann::json& j, const TaskDetails& d);
void from_json(const nlohmann::json& j, TaskDetails& d);

}  // namespace scalefuzz::detectors::pdg
