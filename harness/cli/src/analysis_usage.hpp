// Glue of the usage checks (detectors/usage) into the analysis step.
#pragma once

#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::cli {

// Usage findings of one finished run; symbolizes `trace` when there are any.
std::vector<detectors::Finding> usage_run(const harness::RunRecord& run, trace::RunTrace& trace);

// True when `findings` hold an MPI error the injector recorded: that error is
// the run's root cause, so hang/crash localization must not blame a deadlock.
bool has_recorded_mpi_error(const std::vector<detectors::Finding>& findings);

}  // namespace scalefuzz::cli
