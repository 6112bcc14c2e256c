// Stall fault injection, counted (AutomaDeD §5.2): every run that planned a
// stall (RunSpec::stall), whether it fired (OUT/runs/<id>/stall, written by
// injectors/stall) and hung, with its findings. Always on: a campaign that
// injects stalls is judged, whichever detectors it lists, by the techniques
// that declare DetectorInfo::judge_stalls (the PDG: are the stalled ranks
// its least-progressed tasks?).
#pragma once

#include <iosfwd>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::analysis {

// True when the run planned a stall, hung, and the stall fired: the hang
// was caused on purpose and its findings are informational.
bool expected_stall_hang(const harness::RunRecord& run);

class StallEvaluation {
 public:
  // One finished run and the findings analysis produced for it.
  void add(const harness::RunRecord& run, const std::vector<detectors::Finding>& run_findings);
  // The registered stall judges' findings (registry order) over the
  // injections; none when no run planned a stall.
  std::vector<detectors::Finding> finish(std::ostream* log) const;
  const InjectedStalls& stalls() const { return stalls_; }

 private:
  InjectedStalls stalls_;
};

}  // namespace scalefuzz::analysis
