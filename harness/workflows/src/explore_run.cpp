// scalefuzz explore RUN_DIR [--depth N] [--budget N] [--out DIR]: forces the
// alternative matches of the run's wildcard receives (engine/explore_runs.hpp)
// and prints the verdicts and the replays, writes findings.json.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/workflows/run_command.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "scalefuzz/detectors/api/site_names.hpp"
#include "scalefuzz/engine/explore_runs.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/finding_json.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

int explore_recorded_run(const ExploreOptions& explore) {
  const fs::path run_dir = fs::absolute(explore.run_dir);
  const harness::RunDir dir(run_dir);
  if (!fs::is_regular_file(dir.spec_file()) || !fs::is_directory(dir.ranks_dir()))
    throw UsageError(run_dir.string() + ": not a recorded run directory (spec.json and ranks/ expected)");
  harness::RunSpec spec;
  try {
    std::ifstream in(dir.spec_file());
    spec = nlohmann::json::parse(in).get<harness::RunSpec>();
  } catch (const std::exception& e) {
    throw UsageError(dir.spec_file().string() + ": " + e.what());
  }
  engine::ExploreRunOptions options;
  options.limits.depth = explore.depth;
  options.limits.budget = explore.budget;
  options.out_dir = explore.out.value_or(fs::path("out") / (spec.run_id + "-explore"));
  options.scalefuzz_program = this_program();
  // The run's own launcher words, plug-in and MPI (launch.json), as
  // `scalefuzz replay` reads them, and the injector of that MPI.
  try {
    const engine::RecordedLaunch launch = engine::recorded_launch(run_dir);
    options.launch.mpiexec = launch.mpiexec;
    options.launch.launcher = launch.launcher;
    options.launch.mpi = launch.mpi;
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  options.launch.injector_lib =
      injector_for(spec.argv.at(0), *options.launch.launcher, options.launch.mpi, options.launch.mpiexec);
  options.launch.env["SCALEFUZZ_OVERSUBSCRIBE"] = "auto";
  if (find_program(options.launch.mpiexec.at(0)).empty())
    throw InfraError("launcher '" + options.launch.mpiexec.at(0) + "' (the run's, " + run_dir.string() +
                     "/launch.json) not found on PATH (MPICH, Open MPI: ci/setup.sh)");
  harness::become_subreaper();

  const std::string point = analysis::campaign_point(spec);
  exploration::MatchCoverage coverage;
  exploration::ExplorationRecord record;
  try {
    record = engine::explore_point(point, {run_dir}, options, coverage);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());  // not a base: no decision log, no trace, a log of another run
  }
  trace::Symbolizer symbols;
  analysis::SiteNames names(symbols);
  auto namer = [&](const std::string& run_id, int rank, std::uint32_t site) {
    const fs::path where = run_id == spec.run_id ? run_dir : exploration::forced_run_dir(options.out_dir, run_id);
    return names.name(where, rank, site);
  };
  // The verdicts are the technique's that analysed the schedules.
  const auto findings = engine::schedule_analysis().findings(record, coverage, namer);
  nlohmann::json out = nlohmann::json::array();
  std::size_t errors = 0;
  for (const auto& f : findings) {
    out.push_back(harness::finding_to_json(f));
    errors += f.severity == detectors::Severity::Error ? 1 : 0;
    std::cout << "[" << detectors::to_string(f.severity) << "] " << terminal_safe(f.title) << "\n";
    if (f.details.contains("replay")) std::cout << "    replay: " << terminal_safe(f.details["replay"].get<std::string>()) << "\n";
    if (f.details.contains("minimal_replay_argv"))
      std::cout << "    minimal schedule replay: "
                << terminal_safe(joined_for_shell(f.details["minimal_replay_argv"].get<std::vector<std::string>>()))
                << "\n";
  }
  std::cout << record.runs << " forced runs" << (record.budget_exhausted ? " (budget exhausted)" : "") << "; record in "
            << exploration::exploration_record_file(options.out_dir, point).string() << "\n";
  harness::write_file_atomic(options.out_dir / "findings.json", harness::dump_json(out) + "\n");
  return errors ? kExitFindings : kExitOk;
}

}  // namespace scalefuzz::workflows
