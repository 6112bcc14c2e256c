// MPI-PreDebugger inside the analysis engine (harness/analysis): every run
// that hung, crashed, aborted or failed is localized (failure situation,
// faulty processes, timeline) with the code location of the first faulty
// process's failure event.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::mpipd {

std::unique_ptr<analysis::Detector> make_mpipd_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::mpipd
