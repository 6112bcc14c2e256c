// What the campaign engine tells whoever follows a campaign while its runs
// go: the console progress, the replay writer and the streaming reporters
// (harness/report). It sits with the run model so that the engine and the
// reporters both depend on it without depending on each other.
#pragma once

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// Called from the scheduler's worker threads: implementations synchronize.
class RunListener {
 public:
  virtual ~RunListener() = default;
  virtual void run_started(const RunSpec&) {}
  // The run is stored (RunStore::record_finished) before this is called.
  virtual void run_finished(const RunSpec&, const Outcome&) {}
  // Launching is over (all runs done, or interrupted).
  virtual void end() {}
};

}  // namespace scalefuzz::harness
