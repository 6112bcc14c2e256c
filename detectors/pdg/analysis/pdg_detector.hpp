// AutomaDeD's progress-dependence graph inside the analysis engine
// (harness/analysis): every run that hung, crashed, aborted or failed gets
// its least-progressed tasks with their code location and source lines.
#pragma once

#include <memory>

#include "scalefuzz/analysis/detector.hpp"

namespace scalefuzz::detectors::pdg {

std::unique_ptr<analysis::Detector> make_pdg_detector(const analysis::AnalysisContext& context);

}  // namespace scalefuzz::detectors::pdg
