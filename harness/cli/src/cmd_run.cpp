// scalefuzz run: expand a campaign, launch every run locally, store, analyse, report.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <fstream>
#include <optional>
#include <sstream>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "args.hpp"
#include "campaign_io.hpp"
#include "commands.hpp"
#include "finish.hpp"
#include "ninja_analysis.hpp"
#include "paths.hpp"
#include "progress.hpp"
#include "run_command.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_filter.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scheduler.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_interrupt(int) { g_stop = true; }

std::vector<harness::RunSpec> selected_runs(const harness::Campaign& campaign, const ParsedArgs& args) {
  auto runs = harness::expand_campaign(campaign);
  if (auto expr = args.value("--filter")) {
    try {
      runs = harness::filter_runs(runs, *expr);
    } catch (const harness::FilterError& e) {
      throw UsageError(std::string("--filter: ") + e.what());
    }
  }
  return runs;
}

}  // namespace

int cmd_run(const ParsedArgs& args) {
  if (args.positionals.size() != 1) throw UsageError("expected exactly one CAMPAIGN.yaml");
  const fs::path campaign_file = args.positionals[0];
  const fs::path build_dir = args.value("--build") ? fs::path(*args.value("--build")) : default_build_dir();
  harness::Campaign campaign = load_campaign_or_usage_error(campaign_file, build_dir);
  if (campaign.scheduler.type != "local")
    throw UsageError(campaign_file.string() + ": scheduler type '" + campaign.scheduler.type +
                     "' cannot be run by 'scalefuzz run', which launches locally; use scheduler: {type: local}");
  check_kcca_model(campaign);
  int jobs = campaign.scheduler.jobs;
  if (auto j = args.integer("--jobs")) jobs = static_cast<int>(*j);
  std::vector<harness::RunSpec> runs = selected_runs(campaign, args);
  if (runs.empty()) throw UsageError("no run matches --filter");
  order_for_ninja(runs);  // system-centric runs write what application-centric ones read

  const bool dry_run = args.has("--dry-run");
  fs::path injector;
  {
    try {
      injector = injector_library();
    } catch (const InfraError&) {
      if (!dry_run) throw;
      injector = "libscalefuzz_inject.so";
    }
  }
  harness::LaunchOptions launch;
  launch.mpiexec = campaign.mpiexec;
  launch.injector_lib = injector;
  launch.env["SCALEFUZZ_OVERSUBSCRIBE"] = harness::to_string(campaign.oversubscribe);

  if (dry_run) {
    for (const auto& r : runs) {
      std::cout << "# " << r.run_id << " (seed " << r.seed << ", timeout " << r.timeout.count() << " ms)\n"
                << display_command(r, launch) << "\n";
    }
    std::cout << "# " << runs.size() << " runs; nothing was launched (--dry-run)\n";
    return kExitOk;
  }

  if (find_program(campaign.mpiexec.at(0)).empty())
    throw InfraError("launcher '" + campaign.mpiexec.at(0) + "' not found on PATH (install mpich: ci/setup.sh)");

  const fs::path out = args.value("--out") ? fs::path(*args.value("--out")) : fs::path("out") / campaign.name;
  std::string command_line = "scalefuzz run";
  for (const auto& a : args.raw) command_line += " " + a;
  std::optional<harness::RunStore> store;
  store.emplace(open_campaign_store(out, campaign, campaign_file, build_dir, command_line));

  harness::become_subreaper();
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);

  std::vector<harness::RunSpec> todo;
  for (const auto& r : runs)
    if (!store->is_finished(r.run_id)) todo.push_back(r);
  if (todo.size() < runs.size())
    std::cerr << "resuming: " << runs.size() - todo.size() << " of " << runs.size() << " runs already finished in "
              << out.string() << "\n";

  Progress progress(todo.size(), std::cerr);
  auto launch_one = [&](const harness::RunSpec& r) {
    harness::LaunchOptions options = launch;
    std::optional<fs::path> analysis;
    if (r.noise.mode == noise::Mode::Application) analysis = ninja_analysis_for(*store, r);
    options.run_dir = store->prepare_run(r);
    progress.started(r);
    harness::Outcome outcome;
    if (r.noise.mode == noise::Mode::Application && !analysis) {
      outcome.kind = harness::OutcomeKind::LaunchError;
      outcome.detail = missing_analysis_message(r);
      std::cerr << "error: " << outcome.detail << "\n";
    } else {
      if (analysis) {
        write_potential_unsafe(*analysis);
        options.env[std::string(noise::kAnalysisEnv)] = analysis->string();
      }
      outcome = harness::launch_local(r, options);
    }
    store->record_finished(r, outcome);
    progress.finished(r, outcome);
  };
  // Two phases: every application-centric run starts after the system-centric
  // runs it reads have finished (order_for_ninja put them last).
  auto first_app = std::find_if(todo.begin(), todo.end(), [](const harness::RunSpec& r) { return r.noise.mode == noise::Mode::Application; });
  std::size_t split = static_cast<std::size_t>(first_app - todo.begin());
  run_parallel(split, jobs, [&](std::size_t i) { launch_one(todo[i]); }, g_stop);
  if (!g_stop) run_parallel(todo.size() - split, jobs, [&](std::size_t i) { launch_one(todo[split + i]); }, g_stop);
  progress.done();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (g_stop) {
    std::cerr << "interrupted: " << store->finished_count() << " runs are stored in " << out.string()
              << "; run the same command again to resume\n";
    return kExitInterrupted;
  }
  store->set_meta("finished_at", harness::utc_timestamp_now());
  analyze_store(*store, detector_set(campaign), campaign.kcca);
  return write_reports(*store);
}

}  // namespace scalefuzz::cli
