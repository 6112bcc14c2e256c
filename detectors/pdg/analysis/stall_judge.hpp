// Stall fault injection, scored (AutomaDeD §5.2): for every run whose
// injected stall fired and hung, is the stalled rank among the PDG's
// least-progressed tasks (accuracy), and are no other ranks among them
// (precision)? The harness counts the injections whatever the detectors
// (harness/analysis stall_evaluation.cpp) and calls this through
// DetectorInfo::judge_stalls.
#pragma once

#include <iosfwd>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::pdg {

// An Info "stall-evaluation" finding with the score and the runs, plus a
// Warning per run whose LP tasks do not single out the stalled rank; none
// when nothing was injected. Logs the score line to `log` (may be null).
std::vector<Finding> judge_stalls(const analysis::InjectedStalls& stalls, std::ostream* log);

}  // namespace scalefuzz::detectors::pdg
