#include "scalefuzz/harness/finding_json.hpp"

#include <stdexcept>

namespace scalefuzz::harness {

using nlohmann::json;

std::optional<detectors::Severity> severity_from_string(const std::string& s) {
  return value_named(detectors::kSeverityNames, s);
}

json finding_to_json(const detectors::Finding& f) {
  json artifacts = json::array();
  for (const auto& a : f.artifacts)
    artifacts.push_back({{"name", a.name}, {"media_type", a.media_type}, {"content", a.content}});
  return json{{"detector", f.detector},
              {"kind", f.kind},
              {"severity", detectors::to_string(f.severity)},
              {"run_id", f.run_id},
              {"title", f.title},
              {"location", f.location},
              {"ranks", f.ranks},
              {"rank_ranges", detectors::rank_ranges(f.ranks)},
              {"details", f.details},
              {"artifacts", std::move(artifacts)}};
}

detectors::Finding finding_from_json(const json& j) {
  detectors::Finding f;
  j.at("detector").get_to(f.detector);
  j.at("kind").get_to(f.kind);
  const auto severity_text = j.at("severity").get<std::string>();
  const auto severity = severity_from_string(severity_text);
  if (!severity) throw std::invalid_argument("unknown finding severity '" + severity_text + "'");
  f.severity = *severity;
  f.run_id = j.value("run_id", std::string());
  j.at("title").get_to(f.title);
  f.location = j.value("location", std::string());
  f.ranks = j.value("ranks", std::vector<int>{});
  f.details = j.value("details", json::object());
  for (const auto& a : j.value("artifacts", json::array()))
    f.artifacts.push_back({a.at("name").get<std::string>(), a.at("media_type").get<std::string>(),
                           a.at("content").get<std::string>()});
  return f;
}

}  // namespace scalefuzz::harness
