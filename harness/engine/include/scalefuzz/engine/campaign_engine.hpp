// The campaign pipeline shared by `scalefuzz run` and `reproduce`:
// plan (expand, filter, resume) -> schedule (phases: system-centric runs
// before the application-centric runs that read them) -> launch
// (harness::launch_local through the campaign's MpiLauncher) -> store ->
// analyze (harness/analysis); runs are streamed to RunListeners (the console
// progress, the streaming reporters of harness/report) as they finish.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/engine/scheduler.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_listener.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::engine {

// How every run of a campaign is launched: the campaign's launcher words,
// the injector and SCALEFUZZ_OVERSUBSCRIBE.
harness::LaunchOptions campaign_launch_options(const harness::Campaign& campaign,
                                               const std::filesystem::path& injector);

// The runs of `planned` that `store` has not finished yet.
std::vector<harness::RunSpec> unfinished_runs(const harness::RunStore& store,
                                              const std::vector<harness::RunSpec>& planned);

// Launches one run as every command does (`scalefuzz exec` too): an
// application-centric run reads `analysis`, the directory of a finished
// system-centric run, into which the potential races of that run's trace are
// written first (ninja_dependency.hpp).
harness::Outcome launch_run(const harness::RunSpec& run, harness::LaunchOptions options,
                            const std::optional<std::filesystem::path>& analysis);

// Launches one run into the store and records its outcome. An
// application-centric run reads `analysis` (a system-centric run's
// directory), or the one the store holds for its point when nullopt; with
// none it ends as a launch error naming what is missing.
harness::Outcome launch_and_store(harness::RunStore& store, const harness::RunSpec& run,
                                  const harness::LaunchOptions& launch,
                                  std::optional<std::filesystem::path> analysis = std::nullopt);

// Schedules and launches `runs` phase after phase (schedule_phases), each
// run stored as it ends and streamed to the listeners. Returns false when
// `stop` interrupted it (finished runs are stored; the rest never started).
bool execute_runs(harness::RunStore& store, const std::vector<harness::RunSpec>& runs,
                  const harness::LaunchOptions& launch, Scheduler& scheduler,
                  const std::vector<harness::RunListener*>& listeners, const std::atomic<bool>& stop);

// The detectors over the store's finished runs; findings saved in the store.
// The analysis notes go to `log`; `phase` (if set) is told which detector
// looks at which run (analysis::AnalysisOptions::phase), for a status line.
std::vector<detectors::Finding> analyze_store(harness::RunStore& store, const std::set<std::string>& detectors,
                                              const settings::TechniqueSettings& settings = {},
                                              std::ostream* log = &std::cerr,
                                              std::function<void(const std::string&)> phase = {});

}  // namespace scalefuzz::engine
