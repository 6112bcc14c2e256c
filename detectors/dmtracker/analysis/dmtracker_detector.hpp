// DMTracker inside the analysis engine (harness/analysis): per run, the data
// movements become chains; FC-invariant violations and chain-distribution
// outliers of that run become findings.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::dmtracker {

std::unique_ptr<analysis::Detector> make_dmtracker_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::dmtracker
