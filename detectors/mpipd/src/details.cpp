#include "scalefuzz/detectors/mpipd_details.hpp"

namespace scalefuzz::detectors::mpipd {

void to_json(nlohmann::json& j, const SituationDetails& d) {
  j = {{"situation", d.situation}, {"faulty", d.faulty},       {"aborted", d.aborted},
       {"origins", d.origins},     {"failure_events", d.failure_events}, {"explanation", d.explanation}};
  if (!d.code.is_null()) j["code"] = d.code;
}

void from_json(const nlohmann::json& j, SituationDetails& d) {
  d.situation = j.value("situation", std::string());
  d.faulty = j.value("faulty", std::vector<int>());
  d.aborted = j.value("aborted", std::vector<int>());
  d.origins = j.value("origins", nlohmann::json::array());
  d.failure_events = j.value("failure_events", nlohmann::json::array());
  d.explanation = j.value("explanation", std::string());
  d.code = j.value("code", nlohmann::json());
}

}  // namespace scalefuzz::detectors::mpipd
