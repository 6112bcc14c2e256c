// The one-sided checks (detectors/rma) on the plug-in contract
// (detectors/api): every run with traces that has one-sided records.
#pragma once

#include <memory>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::rma {

std::unique_ptr<analysis::Detector> make_rma_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(rma)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::rma
