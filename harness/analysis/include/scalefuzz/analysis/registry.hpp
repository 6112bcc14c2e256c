// The one table of detectors (src/registry.cpp): what a campaign's
// detectors: list may name, in the order the analysis runs them.
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::analysis {

const std::vector<DetectorInfo>& registry();
// Their names, registry order; what the campaign loader accepts.
std::vector<std::string> detector_names();
// nullptr when `name` is not registered.
const DetectorInfo* find_detector(const std::string& name);

}  // namespace scalefuzz::analysis
