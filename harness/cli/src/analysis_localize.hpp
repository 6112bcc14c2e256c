// Hang and crash localization inside the analysis step: MPI-PreDebugger
// (faulty processes, failure situation) and AutomaDeD's progress-dependence
// graph (least-progressed tasks) over one failed run's traces, with the code
// location and the source lines around it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::cli {

// True for the outcomes that are localized: hang, crashed, mpi-abort, failed.
bool needs_localization(harness::OutcomeKind kind);

// Findings of "mpipd" and/or "pdg" (as enabled in `detectors`) for one
// finished run. `trace` is symbolized in place (the call sites only).
std::vector<detectors::Finding> localize_run(const harness::RunRecord& run, trace::RunTrace& trace,
                                             const std::set<std::string>& detectors);

// {file, line, function, location, rank, site, source} of a rank's call
// site (the innermost application frame), or null. Needs a symbolized trace.
nlohmann::json code_location(const trace::RunTrace& run, int rank, std::uint32_t site);

// The lines [line - context, line + context] of `file` as
// [{"line": n, "text": "..."}], empty when the file cannot be read.
nlohmann::json source_snippet(const std::string& file, int line, int context = 3);

// Extra lines for a terminal: MPI-PD's explanation, the code location of the
// finding and its source lines ("" for findings of other detectors).
std::string describe_localization(const detectors::Finding& finding);

}  // namespace scalefuzz::cli
