// scalefuzz trace RUN_DIR: a run's recorded events and call sites, symbolized.
#include <filesystem>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/print.hpp"

namespace scalefuzz::cli {

int cmd_trace(const ParsedArgs& args) {
  if (args.positionals.size() != 1) throw UsageError("expected exactly one RUN_DIR");
  const std::filesystem::path dir = args.positionals[0];
  if (!std::filesystem::is_directory(harness::RunDir(dir).ranks_dir()))
    throw UsageError(dir.string() + ": not a run directory (no ranks/ inside; was the run recorded?)");
  trace::RunTrace run;
  try {
    if (auto r = args.integer("--rank")) {
      run.ranks.push_back(trace::read_rank(dir, static_cast<int>(*r)));
    } else {
      run = trace::read_run(dir);
    }
  } catch (const trace::TraceError& e) {
    throw UsageError(e.what());
  }
  const bool symbols = !args.has("--no-symbols");
  if (symbols)
    for (auto& r : run.ranks)
      if (r.rank >= 0) trace::symbolize(dir, r);
  trace::print_run(run, std::cout, symbols);
  return kExitOk;
}

}  // namespace scalefuzz::cli
