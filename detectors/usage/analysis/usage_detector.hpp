// The usage checks (detectors/usage) inside the analysis engine
// (harness/analysis): every run with traces, plus the rank-recorded fatal
// signals (ranks/N.signal) as findings at the crashing frame.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::usage {

std::unique_ptr<analysis::Detector> make_usage_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::usage
