// MPI-PreDebugger on the plug-in contract (detectors/api): every run
// that hung, crashed, aborted or failed is localized (failure situation,
// faulty processes, timeline) with the code location of the first faulty
// process's failure event.
#pragma once

#include <memory>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::mpipd {

std::unique_ptr<analysis::Detector> make_mpipd_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(mpipd)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::mpipd
