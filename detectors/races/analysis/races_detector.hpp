// The races detector inside the analysis engine (harness/analysis): each
// run's matching summarized while its trace is loaded, unintended matches
// reported over the whole campaign.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::races {

std::unique_ptr<analysis::Detector> make_races_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::races
