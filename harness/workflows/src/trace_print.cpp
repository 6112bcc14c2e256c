// scalefuzz trace RUN_DIR: a run's recorded events and call sites, symbolized.
#include <filesystem>
#include <iostream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/print.hpp"

namespace scalefuzz::workflows {

int print_trace(const TraceOptions& options) {
  const auto& [dir, rank, symbols] = options;
  if (!std::filesystem::is_directory(harness::RunDir(dir).ranks_dir()))
    throw UsageError(dir.string() + ": not a run directory (no ranks/ inside; was the run recorded?)");
  trace::RunTrace run;
  try {
    if (rank) {
      run.ranks.push_back(trace::read_rank(dir, *rank));
    } else {
      run = trace::read_run(dir);
    }
  } catch (const trace::TraceError& e) {
    throw UsageError(e.what());
  }
  if (symbols)
    for (auto& r : run.ranks)
      if (r.rank >= 0) trace::symbolize(dir, r);
  trace::print_run(run, std::cout, symbols);
  return kExitOk;
}

}  // namespace scalefuzz::workflows
