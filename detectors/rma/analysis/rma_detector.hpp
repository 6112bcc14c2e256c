// The one-sided checks (detectors/rma) inside the analysis engine
// (harness/analysis): every run with traces that has one-sided records.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::rma {

std::unique_ptr<analysis::Detector> make_rma_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::rma
