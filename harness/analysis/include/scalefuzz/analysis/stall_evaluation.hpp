// Stall fault injection, scored (AutomaDeD §5.2): for every run whose
// injected stall fired (OUT/runs/<id>/stall, written by injectors/stall), is
// the stalled rank among the PDG's least-progressed tasks (accuracy), and
// are no other ranks among them (precision)? Always on: a campaign that
// injects stalls is judged by this score, whichever detectors it lists.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/pdg.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::analysis {

// True when the run planned a stall, hung, and the stall fired: the hang
// was caused on purpose and its findings are informational.
bool expected_stall_hang(const harness::RunRecord& run);

// How many stalls were planned and fired; accuracy and precision (the pdg
// library's coverage(), §5.2.2) over those whose run hung.
struct StallScore {
  std::size_t injected = 0, fired = 0;
  detectors::pdg::Coverage coverage;
};

class StallEvaluation {
 public:
  // One finished run and the findings analysis produced for it.
  void add(const harness::RunRecord& run, const std::vector<detectors::Finding>& run_findings);
  // An Info "stall-evaluation" finding with the score and the runs, plus a
  // Warning per run whose LP tasks do not single out the stalled rank.
  std::vector<detectors::Finding> finish(std::ostream* log) const;
  StallScore score() const;

 private:
  struct Case {
    std::string run_id;
    int nprocs = 0;
    long call = 0;
    detectors::pdg::InjectionOutcome outcome;
  };
  std::size_t injected_ = 0, fired_ = 0;
  std::vector<Case> cases_;
  std::size_t not_hung_ = 0;  // fired, yet the run did not end in a hang
};

}  // namespace scalefuzz::analysis
