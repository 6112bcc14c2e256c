// Typed details of an MPI-PD finding (kind = the failure situation): written
// once by mpipd_findings (to_json, into Finding::details) and read back typed
// by the "hangs" report section (detectors/pdg/report/). Missing keys read as
// their defaults (a hand-written or older finding).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalefuzz::detectors::mpipd {

struct SituationDetails {
  std::string situation;  // situation_label
  std::vector<int> faulty;
  std::vector<int> aborted;
  nlohmann::json origins = nlohmann::json::array();         // [{situation, ranks}]: where Figure 3 stopped
  nlohmann::json failure_events = nlohmann::json::array();  // fe_p of each rank that has one
  std::string explanation;
  // The first faulty process's code location (analysis::CodeLocation, added
  // by the glue from the run's symbols); null: none, no key.
  nlohmann::json code;
};
void to_json(nlohmann::json& j, const SituationDetails& d);
void from_json(const nlohmann::json& j, SituationDetails& d);

}  // namespace scalefuzz::detectors::mpipd
