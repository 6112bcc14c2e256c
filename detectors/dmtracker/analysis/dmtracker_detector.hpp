// DMTracker on the plug-in contract (detectors/api): per run, the data
// movements become chains; FC-invariant violations and chain-distribution
// outliers of that run become findings.
#pragma once

#include <memory>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::dmtracker {

std::unique_ptr<analysis::Detector> make_dmtracker_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(dmtracker)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::dmtracker
