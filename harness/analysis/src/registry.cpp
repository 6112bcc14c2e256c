// Look-ups in the one table of detectors (registry(), generated from the
// techniques' registrations: registered_detectors.cpp.in), and the roles
// the techniques declare there.
#include "scalefuzz/analysis/registry.hpp"

namespace scalefuzz::analysis {

namespace {

// {detector, kind} of every kind a nullptr-ended list of a registration names, registry order.
std::vector<harness::bugs::FindingKind> kinds_of(const char* const* Roles::*list) {
  std::vector<harness::bugs::FindingKind> out;
  for (const auto& d : registry())
    for (auto k = d.roles.*list; k != nullptr && *k != nullptr; ++k) out.push_back({d.name, *k});
  return out;
}

}  // namespace

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

std::vector<std::string> localizing_detectors() {
  std::vector<std::string> names;
  for (const auto& d : registry())
    if (d.roles.localizes_stops) names.emplace_back(d.name);
  return names;
}

std::set<std::string> replay_detectors() {
  std::set<std::string> names;
  for (const auto& d : registry())
    if (d.roles.analyses_replays) names.emplace(d.name);
  return names;
}

std::set<std::string> race_detectors() {
  std::set<std::string> names;
  for (const auto& k : kinds_of(&Roles::race_kinds)) names.insert(k.detector);
  return names;
}

harness::bugs::Roles bug_roles() {
  harness::bugs::Roles roles;
  roles.localizing = localizing_detectors();
  roles.root_causes = kinds_of(&Roles::root_cause_kinds);
  roles.races = kinds_of(&Roles::race_kinds);
  roles.potential_races = kinds_of(&Roles::potential_race_kinds);
  return roles;
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
