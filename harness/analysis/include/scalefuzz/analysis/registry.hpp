// The one table of detectors: what a campaign's detectors: list may name, in
// the order the analysis runs them. Generated at configure time from the
// techniques' scalefuzz_register_detector calls (registered_detectors.cpp.in).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/bugs.hpp"

namespace scalefuzz::analysis {

const std::vector<DetectorInfo>& registry();
// Their names, registry order; what the campaign loader accepts.
std::vector<std::string> detector_names();
// nullptr when `name` is not registered.
const DetectorInfo* find_detector(const std::string& name);
// The schedule analysis of the first registered technique that has one
// (DetectorInfo::schedule_analysis): what the engine's exploration asks of
// a trace. nullptr when no technique analyses schedules.
const exploration::ScheduleAnalysis* schedule_analysis();
// The model evaluation whose CLI command is `command` (DetectorInfo::
// evaluation), or nullptr.
const ModelEvaluation* find_evaluation(const std::string& command);

// --- the techniques' roles (DetectorInfo::roles), so that the harness names none ---
// Detectors whose findings localize a failed run, registry order (MPI-PD, PDG).
std::vector<std::string> localizing_detectors();
// Detectors a single run is analysed with (`scalefuzz analyze RUN_DIR`, a replay's bugs).
std::set<std::string> replay_detectors();
// Detectors that declare race kinds: what `scalefuzz reproduce --until race` analyses with.
std::set<std::string> race_detectors();
// The roles as harness/bugs groups findings by them; also what a finding is
// (Roles::is_race: a race struck in its run, Roles::is_root_cause, ...).
harness::bugs::Roles bug_roles();

}  // namespace scalefuzz::analysis
