// Look-ups in the one table of detectors (registry(), generated from the
// techniques' registrations: registered_detectors.cpp.in).
#include "scalefuzz/analysis/registry.hpp"

namespace scalefuzz::analysis {

std::vector<std::string> detector_names() {
  std::vector<std::string> names;
  for (const auto& d : registry()) names.emplace_back(d.name);
  return names;
}

const DetectorInfo* find_detector(const std::string& name) {
  for (const auto& d : registry())
    if (name == d.name) return &d;
  return nullptr;
}

const exploration::ScheduleAnalysis* schedule_analysis() {
  for (const auto& d : registry())
    if (d.schedule_analysis) return d.schedule_analysis;
  return nullptr;
}

const ModelEvaluation* find_evaluation(const std::string& command) {
  for (const auto& d : registry())
    if (d.evaluation && command == d.evaluation->command) return d.evaluation;
  return nullptr;
}

}  // namespace scalefuzz::analysis
