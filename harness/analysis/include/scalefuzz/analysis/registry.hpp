// The one table of detectors: what a campaign's detectors: list may name, in
// the order the analysis runs them. Generated at configure time from the
// techniques' scalefuzz_register_detector calls (registered_detectors.cpp.in).
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"

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

}  // namespace scalefuzz::analysis
