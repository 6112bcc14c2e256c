#include "scalefuzz/engine/campaign_engine.hpp"

#include <iostream>

#include "scalefuzz/analysis/engine.hpp"
#include "scalefuzz/engine/ninja_dependency.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::engine {

namespace fs = std::filesystem;

harness::LaunchOptions campaign_launch_options(const harness::Campaign& campaign, const fs::path& injector) {
  harness::LaunchOptions launch;
  launch.mpiexec = campaign.mpiexec;
  launch.launcher = campaign.launcher;
  launch.mpi = campaign.mpi;
  launch.injector_lib = injector;
  launch.env[injector::env_name(injector::Env::Oversubscribe)] = harness::to_string(campaign.oversubscribe);
  return launch;
}

std::vector<harness::RunSpec> unfinished_runs(const harness::RunStore& store,
                                              const std::vector<harness::RunSpec>& planned) {
  std::vector<harness::RunSpec> todo;
  for (const auto& r : planned)
    if (!store.is_finished(r.run_id)) todo.push_back(r);
  return todo;
}

harness::Outcome launch_run(const harness::RunSpec& run, harness::LaunchOptions options,
                            const std::optional<fs::path>& analysis) {
  if (analysis) {
    write_potential_unsafe(*analysis);
    options.env[std::string(noise::kAnalysisEnv)] = analysis->string();
  }
  // The launcher words, for `scalefuzz replay` (replay.hpp).
  if (!options.run_dir.empty()) {
    std::error_code ec;
    fs::create_directories(options.run_dir, ec);
    write_launcher_file(options.run_dir, run, options);
    if (!fs::exists(harness::RunDir(options.run_dir).spec_file()))  // exec: no store wrote it
      harness::write_file_atomic(harness::RunDir(options.run_dir).spec_file(), harness::dump_json(nlohmann::json(run)) + "\n");
  }
  return harness::launch_local(run, options);
}

harness::Outcome launch_and_store(harness::RunStore& store, const harness::RunSpec& run,
                                  const harness::LaunchOptions& launch, std::optional<fs::path> analysis) {
  harness::LaunchOptions options = launch;
  const bool application = run.noise.mode == noise::Mode::Application;
  if (application && !analysis) analysis = ninja_analysis_for(store, run);
  options.run_dir = store.prepare_run(run);
  harness::Outcome outcome;
  if (application && !analysis && system_run_did_not_finish_cleanly(run, store.runs())) {
    outcome.kind = harness::OutcomeKind::Skipped;
    outcome.detail = skipped_message(run);
  } else if (application && !analysis) {
    outcome.kind = harness::OutcomeKind::LaunchError;
    outcome.detail = missing_analysis_message(run);
    std::cerr << "error: " << outcome.detail << "\n";
  } else {
    outcome = launch_run(run, options, analysis);
  }
  store.record_finished(run, outcome);
  return outcome;
}

bool execute_runs(harness::RunStore& store, const std::vector<harness::RunSpec>& runs,
                  const harness::LaunchOptions& launch, Scheduler& scheduler,
                  const std::vector<harness::RunListener*>& listeners, const std::atomic<bool>& stop) {
  for (const auto& phase : schedule_phases(runs)) {
    if (stop) break;
    scheduler.run(
        phase.size(),
        [&](std::size_t i) {
          const harness::RunSpec& run = phase[i];
          for (auto* l : listeners) l->run_started(run);
          harness::Outcome outcome;
          try {
            outcome = launch_and_store(store, run, launch);
          } catch (const harness::LaunchCancelled&) {
            return;  // Ctrl-C (launch.cancel): not stored as finished, so a resume runs it again
          }
          for (auto* l : listeners) l->run_finished(run, outcome);
        },
        stop);
  }
  for (auto* l : listeners) l->end();
  return !stop;
}

std::vector<detectors::Finding> analyze_store(harness::RunStore& store, const std::set<std::string>& detectors,
                                              const settings::TechniqueSettings& settings, std::ostream* log, std::function<void(const std::string&)> phase) {
  analysis::AnalysisOptions options;
  options.detectors = detectors;
  options.settings = settings;
  options.out_dir = store.out_dir();
  options.log = log;
  options.phase = std::move(phase);
  auto findings = analysis::analyze_runs(store.runs(), options);
  store.save_findings(findings);
  return findings;
}

}  // namespace scalefuzz::engine
