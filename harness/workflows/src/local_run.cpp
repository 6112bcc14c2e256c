// scalefuzz run: expand a campaign, launch every run on the local pool, store,
// analyse, report (the replay.txt of every run written as it ends).
#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/diff.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/finish.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/workflows/reproduce_plan.hpp"
#include "scalefuzz/workflows/run_command.hpp"
#include "scalefuzz/workflows/stop_signals.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/engine/explore_runs.hpp"
#include "scalefuzz/engine/ninja_dependency.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/progress.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_filter.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

namespace {

// Leaves runs/<id>/replay.txt (write_stored_run_replay); the report shows
// it with a copy button.
class ReplayWriter : public harness::RunListener {
 public:
  ReplayWriter(const harness::RunStore& store, const harness::Campaign& campaign) : store_(store), campaign_(campaign) {}
  void run_started(const harness::RunSpec&) override {}
  void run_finished(const harness::RunSpec& r, const harness::Outcome&) override {
    write_stored_run_replay(store_, r, campaign_.mpiexec, harness::to_string(campaign_.oversubscribe), campaign_.launcher,
                            campaign_.mpi);
  }
  void end() override {}

 private:
  const harness::RunStore& store_;
  const harness::Campaign& campaign_;
};

}  // namespace

int run_campaign(const LocalRunOptions& options) {
  const fs::path campaign_file = options.campaign_file;
  const fs::path build_dir = options.build_dir.value_or(default_build_dir());
  harness::Campaign campaign = load_campaign_file(campaign_file, build_dir);
  if (campaign.scheduler.type != "local")
    throw UsageError((campaign.scheduler.type_origin.empty() ? campaign_file.string() : campaign.scheduler.type_origin) +
                     ": scheduler type '" + campaign.scheduler.type +
                     "' is for 'scalefuzz submit " + shell_quote(campaign_file.string()) +
                     "' (then 'scalefuzz collect OUT --wait'); 'scalefuzz run' launches locally "
                     "(for that, use scheduler: {type: local})");
  check_detectors(campaign);
  const int jobs = options.jobs.value_or(campaign.scheduler.jobs);
  std::vector<harness::RunSpec> runs = selected_runs(campaign, options.filter);
  if (runs.empty()) throw UsageError("no run matches --filter");

  const bool dry_run = options.dry_run;
  fs::path injector;
  {
    try {
      injector = campaign_injector(campaign, runs);
    } catch (const InfraError&) {
      if (!dry_run) throw;
      injector = "libscalefuzz_inject.so";
    }
  }
  harness::LaunchOptions launch = engine::campaign_launch_options(campaign, injector);
  launch.cancel = &stop_requested();  // Ctrl-C kills the runs in flight at once

  if (dry_run) {
    const std::size_t count = runs.size();
    for (const auto& phase : engine::schedule_phases(std::move(runs)))  // in the order they would start
      for (const auto& r : phase)
        std::cout << "# " << r.run_id << " (seed " << r.seed << ", timeout " << r.timeout.count() << " ms)\n"
                  << terminal_safe(display_command(r, launch)) << "\n";  // parameter values may hold control bytes
    std::cout << "# " << count << " runs; nothing was launched (--dry-run)\n";
    return kExitOk;
  }

  if (find_program(campaign.mpiexec.at(0)).empty())
    throw InfraError("launcher '" + campaign.mpiexec.at(0) + "' not found on PATH (install mpich: ci/setup.sh)");

  const fs::path out = options.out.value_or(fs::path("out") / campaign.name);
  std::optional<harness::RunStore> store;
  store.emplace(open_campaign_store(out, campaign, campaign_file, build_dir, options.command_line));

  harness::become_subreaper();
  stop_on_signals();

  const std::vector<harness::RunSpec> todo = engine::unfinished_runs(*store, runs);
  if (todo.size() < runs.size())
    std::cerr << "resuming: " << runs.size() - todo.size() << " of " << runs.size() << " runs already finished in "
              << out.string() << "\n";

  harness::ConsoleProgress progress(todo.size());
  engine::LocalPool scheduler(jobs);
  ReplayWriter replays(*store, campaign);
  // findings.json and junit.xml after every finished run: a killed campaign leaves readable reports.
  harness::ReportStream reports(*store, harness::default_reporters(), &progress.notes());
  reports.begin(runs);
  engine::execute_runs(*store, todo, launch, scheduler, {&progress, &replays, &reports}, stop_requested());
  default_signals();
  if (stop_requested()) {
    progress.finish();
    std::cerr << "interrupted: " << store->finished_count() << " runs are stored in " << out.string()
              << "; run the same command again to resume\n";
    return kExitInterrupted;
  }
  if (campaign.explore.enabled) engine::explore_campaign(*store, campaign, launch, this_program(), std::cerr);
  store->set_meta("finished_at", harness::utc_timestamp_now());
  const int found = analyze_and_report(*store, detector_set(campaign), campaign.settings, &progress);
  return options.baseline ? compare_outputs(*options.baseline, out, options.baseline_options) : found;
}

}  // namespace scalefuzz::workflows
