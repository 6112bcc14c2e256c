// scalefuzz reproduce CAMPAIGN.yaml --until race|hang|crash|any: reruns one
// campaign point under escalating NINJA noise (reproduce_plan.hpp) until the
// target manifests, analyses that run and prints the command that replays it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/finish.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/workflows/reproduce_plan.hpp"
#include "scalefuzz/workflows/run_command.hpp"
#include "scalefuzz/workflows/stop_signals.hpp"
#include "scalefuzz/analysis/engine.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/engine/explore_runs.hpp"
#include "scalefuzz/engine/ninja_dependency.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_filter.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

namespace {

// The campaign point to reproduce: the first run (after --filter).
harness::RunSpec chosen_point(const harness::Campaign& campaign, const std::optional<std::string>& filter) {
  const auto runs = selected_runs(campaign, filter);
  if (runs.empty()) throw UsageError("no run matches --filter");
  return runs.front();
}

// The point's run for one attempt: same scale and parameters, the attempt's
// noise profile and a fresh seed (argv re-interpolated with it).
harness::RunSpec attempt_run(const harness::Campaign& campaign, const harness::RunSpec& point, int attempt) {
  harness::Campaign c = campaign;
  c.noise = {escalation_profile(attempt, campaign.noise)};
  c.repetitions = 1;
  c.seed = attempt_seed(campaign.seed, attempt);
  for (auto& r : harness::expand_campaign(c)) {
    if (r.nprocs != point.nprocs || r.params != point.params) continue;
    r.run_id += "-try" + std::to_string(attempt);
    return r;
  }
  throw InfraError("campaign point " + analysis::campaign_point(point) + " vanished from its own expansion");
}

bool has_race_finding(const std::vector<detectors::Finding>& findings, const std::string& run_id) {
  const harness::bugs::Roles roles = analysis::bug_roles();
  for (const auto& f : findings)
    if (f.run_id == run_id && roles.is_race(f)) return true;
  return false;
}


// The attempt that manifested the target.
struct Manifestation {
  harness::RunSpec run;
  harness::Outcome outcome;
  fs::path run_dir;
  std::string analysis_dir;  // the system-centric run an application-centric attempt read
  int attempt = 0;
};

// Analyses the store, writes the report and prints the run and its replay.
int report_manifestation(harness::RunStore& store, const harness::Campaign& campaign, ReproduceTarget target,
                         const Manifestation& hit, int max_runs, const fs::path& out,
                         const harness::LaunchOptions& launch) {
  store.set_meta("finished_at", harness::utc_timestamp_now());
  analyze_and_report(store, detector_set(campaign), campaign.settings);
  // One directory per replayed run: replays of different tries never overwrite each other.
  const fs::path replay_dir = fs::absolute(out / "replay" / hit.run.run_id);
  std::cout << "reproduced " << to_string(target) << " in try " << hit.attempt << " of " << max_runs << ": run "
            << hit.run.run_id << " (" << harness::to_string(hit.outcome.kind)
            << (hit.outcome.detail.empty() ? "" : ": " + terminal_safe(hit.outcome.detail)) << ")\n"
            << "run directory: " << fs::absolute(hit.run_dir).string() << "\n";
  if (!hit.analysis_dir.empty()) std::cout << "noise analysis (system-centric run): " << hit.analysis_dir << "\n";
  const std::string exact = joined_for_shell(engine::replay_argv(this_program(), fs::absolute(hit.run_dir)));
  if (!exact.empty()) std::cout << "replay (the recorded matches forced):\n  " << terminal_safe(exact) << "\n";
  std::cout << (exact.empty() ? "replay:\n  " : "or with its seed and noise:\n  ")
            << terminal_safe(joined_for_shell(replay_exec_argv(this_program(), hit.run, campaign.mpiexec,
                                                               harness::to_string(campaign.oversubscribe),
                                                               hit.analysis_dir, replay_dir.string(),
                                                               campaign.launcher, campaign.mpi)))
            << "\n  (" << replay_timing_note(hit.run.noise.mode == noise::Mode::None) << "; these lines are also in "
            << (fs::absolute(hit.run_dir) / "replay.txt").string() << ")\n";
  harness::LaunchOptions options = launch;
  if (!hit.analysis_dir.empty()) options.env[std::string(noise::kAnalysisEnv)] = hit.analysis_dir;
  options.run_dir = replay_dir;  // a replay must not overwrite the recorded run
  std::cout << "or without scalefuzz exec:\n  " << terminal_safe(display_command(hit.run, options)) << "\n";
  return kExitFindings;
}

// Forcing before noise (issue 30): the quiet attempt's wildcard receives
// are forced to their other possible senders (engine/explore_runs.hpp); a
// forced run that shows the target is the reproduction, replayed exactly by
// its decision log. nullopt: the run has no decision log or no forced run
// showed the target.
std::optional<int> explore_first(harness::RunStore& store, const harness::Campaign& campaign, const harness::RunSpec& run,
                                 const fs::path& run_dir, ReproduceTarget target, const harness::LaunchOptions& launch) {
  if (trace::read_decision_logs(run_dir).empty()) return std::nullopt;
  engine::ExploreRunOptions options;
  if (campaign.explore.enabled) {
    options.limits.depth = campaign.explore.depth;
    options.limits.budget = campaign.explore.budget;
  }
  // A reproduction is done at the first forced run that shows a changed
  // outcome; its shrinking is bounded tighter than a campaign's (a hang
  // costs a whole timeout per run).
  options.limits.stop_at_first_change = true;
  options.shrink_budget = 8;
  options.out_dir = store.out_dir();
  options.scalefuzz_program = this_program();
  options.launch = launch;
  exploration::MatchCoverage coverage;
  const auto record = engine::explore_point(analysis::campaign_point(run), {fs::absolute(run_dir)}, options, coverage);
  for (const auto& e : record.explored) {
    const auto kind = harness::outcome_from_string(e.outcome);
    if (!e.took_alternative || !exploration::changes_outcome(e) || !kind || !manifests(target, *kind, true))
      continue;
    store.set_meta("finished_at", harness::utc_timestamp_now());
    analyze_and_report(store, detector_set(campaign), campaign.settings);
    std::cout << "reproduced " << to_string(target) << " by forcing, in " << record.runs << " forced runs: run "
              << e.run_id << " (" << e.outcome << (e.outcome_detail.empty() ? "" : ": " + terminal_safe(e.outcome_detail))
              << "): rank " << e.receive.recv_rank << "'s wildcard receive took rank " << e.forced.send_rank
              << "'s send instead of rank " << e.receive.send_rank << "'s\n"
              << "replay:\n  " << terminal_safe(joined_for_shell(e.replay_argv)) << "\n";
    if (!e.minimal_schedule.empty()) {
      std::cout << "the failure needs only:\n";
      for (const auto& line : e.minimal_schedule) std::cout << "  " << terminal_safe(line) << "\n";
      std::cout << "replay of the shrunk schedule:\n  " << terminal_safe(joined_for_shell(e.minimal_replay_argv))
                << "\n";
    }
    return kExitFindings;
  }
  std::cerr << "  forcing: " << record.runs << " forced runs, " << coverage.potential_count() << " potential match tuples, "
            << coverage.seen_count() << " seen; none showed " << to_string(target) << ": escalating noise\n";
  return std::nullopt;
}

}  // namespace

int reproduce(const ReproduceOptions& options) {
  const auto target = std::optional<ReproduceTarget>(options.target);
  const int max_runs = options.max_runs;
  const fs::path campaign_file = options.campaign_file;
  const fs::path build_dir = options.build_dir.value_or(default_build_dir());
  harness::Campaign campaign = load_campaign_file(campaign_file, build_dir);
  const harness::RunSpec point = chosen_point(campaign, options.filter);

  harness::LaunchOptions launch = engine::campaign_launch_options(campaign, campaign_injector(campaign, {point}));
  launch.cancel = &stop_requested();  // Ctrl-C or SIGTERM kills the try in flight at once
  if (find_program(campaign.mpiexec.at(0)).empty())
    throw InfraError("launcher '" + campaign.mpiexec.at(0) + "' not found on PATH (install mpich: ci/setup.sh)");

  const fs::path out = options.out.value_or(fs::path("out") / (campaign.name + "-reproduce"));
  std::optional<harness::RunStore> store;
  store.emplace(open_campaign_store(out, campaign, campaign_file, build_dir, options.command_line));
  harness::become_subreaper();
  stop_on_signals();

  std::cerr << "reproduce: " << analysis::campaign_point(point) << " of " << campaign.name << ", until " << to_string(*target)
            << ", at most " << max_runs << " runs, into " << out.string() << "\n";
  const std::set<std::string> races_only = analysis::race_detectors();
  std::optional<fs::path> last_system_run;  // analysis for the next application-centric attempt
  std::optional<Manifestation> quiet_hit;   // the first attempt without noise that manifested
  for (int attempt = 0; attempt < max_runs; ++attempt) {
    if (stop_requested()) {
      std::cerr << "interrupted: " << store->finished_count() << " tries are stored in " << out.string()
                << "; run the same command again to resume\n";
      return kExitInterrupted;
    }
    harness::RunSpec run = attempt_run(campaign, point, attempt);
    fs::path run_dir;
    std::string analysis_dir;
    std::optional<fs::path> analysis;
    if (run.noise.mode == noise::Mode::Application) {
      if (!last_system_run) {
        std::cerr << "  try " << attempt << ": " << run.noise.label()
                  << " skipped: no system-centric run of this point wrote ninja/ (hung or crashed)\n";
        continue;
      }
      analysis_dir = last_system_run->string();
      analysis = *last_system_run;
    }
    harness::Outcome outcome;
    if (auto stored = store->run(run.run_id); stored && stored->finished()) {
      outcome = *stored->outcome;  // resumed: this attempt already ran into OUT
      run_dir = stored->dir;
    } else {
      try {
        outcome = engine::launch_and_store(*store, run, launch, analysis);
      } catch (const harness::LaunchCancelled&) {
        std::cerr << "interrupted: try " << attempt << " was killed; " << store->finished_count()
                  << " tries are stored in " << out.string() << "; run the same command again to resume\n";
        return kExitInterrupted;
      }
      run_dir = store->run_dir(run.run_id);
    }
    if (outcome.kind == harness::OutcomeKind::LaunchError) throw InfraError(run.run_id + ": " + outcome.detail);
    // Every try's directory carries its replay line (report.html, JUnit).
    write_replay_file(run_dir, joined_for_shell(engine::replay_argv(this_program(), fs::absolute(run_dir))),
                      replay_exec_argv(this_program(), run, campaign.mpiexec, harness::to_string(campaign.oversubscribe),
                                       analysis_dir, fs::absolute(out / "replay" / run.run_id).string(), campaign.launcher,
                                       campaign.mpi),
                      run.noise.mode == noise::Mode::None);
    if (run.noise.mode == noise::Mode::System && engine::has_ninja_analysis(run_dir, run.nprocs))
      last_system_run = fs::absolute(run_dir);

    // Races need the quiet baseline: the detector compares with the none attempt.
    analysis::AnalysisOptions race_options;
    race_options.detectors = races_only;
    const bool race = (*target == ReproduceTarget::Race || *target == ReproduceTarget::Any) &&
                      has_race_finding(analysis::analyze_runs(store->runs(), race_options), run.run_id);
    std::cerr << "  try " << attempt << ": " << run.noise.label() << " seed " << run.seed << " -> "
              << harness::to_string(outcome.kind) << (race ? " + race finding" : "") << " ("
              << outcome.wall_seconds << " s)\n";
    if (attempt == 0 && run.noise.mode == noise::Mode::None && !manifests(*target, outcome.kind, race))
      if (auto found = explore_first(*store, campaign, run, run_dir, *target, launch)) return *found;
    if (!manifests(*target, outcome.kind, race)) continue;
    Manifestation hit{run, outcome, run_dir, analysis_dir, attempt};
    if (run.noise.mode == noise::Mode::None) {
      // Without noise the seed decides nothing: the replay of a quiet hit
      // depends on timing alone. Look on for a noisy run whose replay the
      // seed drives; the quiet hit is the fallback.
      std::cerr << "  try " << attempt << " manifested without noise (timing alone, its replay may not reproduce it);"
                << " trying noise for a replayable run\n";
      if (!quiet_hit) quiet_hit = hit;
      continue;
    }
    return report_manifestation(*store, campaign, *target, hit, max_runs, out, launch);
  }
  if (quiet_hit) {
    std::cout << "only without noise: no noisy run manifested it, so the replay below depends on timing and may not "
                 "reproduce it\n";
    return report_manifestation(*store, campaign, *target, *quiet_hit, max_runs, out, launch);
  }
  store->set_meta("finished_at", harness::utc_timestamp_now());
  analyze_and_report(*store, detector_set(campaign), campaign.settings);
  std::cout << "not reproduced: no " << to_string(*target) << " in " << max_runs << " runs of "
            << analysis::campaign_point(point) << " (results in " << out.string() << ")\n";
  return kExitOk;
}

}  // namespace scalefuzz::workflows
