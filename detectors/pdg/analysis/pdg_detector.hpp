// AutomaDeD's progress-dependence graph on the plug-in contract
// (detectors/api): every run that hung, crashed, aborted or failed gets
// its least-progressed tasks with their code location and source lines.
#pragma once

#include <memory>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::pdg {

std::unique_ptr<analysis::Detector> make_pdg_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(pdg)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::pdg
