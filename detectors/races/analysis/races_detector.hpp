// The races detector on the plug-in contract (detectors/api): each
// run's matching summarized while its trace is loaded, unintended matches
// reported over the whole campaign.
#pragma once

#include <memory>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::races {

std::unique_ptr<analysis::Detector> make_races_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(races)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::races
