#include "scalefuzz/analysis/engine.hpp"

#include <memory>
#include <set>
#include <optional>
#include <ostream>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "scalefuzz/detectors/api/site_names.hpp"
#include "scalefuzz/analysis/stall_evaluation.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::analysis {

using detectors::Finding;
using harness::OutcomeKind;
using harness::RunRecord;

namespace {

Finding outcome_finding(const RunRecord& run) {
  const harness::Outcome& o = *run.outcome;
  Finding f;
  f.detector = "outcome";
  f.kind = harness::to_string(o.kind);
  f.severity = detectors::Severity::Error;
  f.run_id = run.spec.run_id;
  f.title = run.spec.run_id + ": " + f.kind + (o.detail.empty() ? "" : " — " + o.detail);
  f.details = {{"exit_code", o.exit_code}, {"signal", o.signal}, {"detail", o.detail},
               {"nprocs", run.spec.nprocs}, {"noise", run.spec.noise.label()},
               {"seed", std::to_string(run.spec.seed)}, {"wall_seconds", o.wall_seconds}};
  if (o.crashed_rank) f.details["crashed_rank"] = *o.crashed_rank;
  for (const auto& s : o.stacks)
    if (s.rank >= 0) f.ranks.push_back(s.rank);
  // Cancelled or lost to a node failure: nothing about the application
  // (shown; `scalefuzz submit --resume` reruns it).
  if (harness::is_rerunnable(o.kind) || o.kind == OutcomeKind::Skipped) f.severity = detectors::Severity::Info;
  // A hang the campaign caused on purpose is expected; whether it was
  // localized is judged by the stall evaluation.
  if (expected_stall_hang(run)) {
    const auto& at = *run.spec.stall;
    f.severity = detectors::Severity::Info;
    f.title += " (injected stall: rank " + std::to_string(at.rank) + " at its MPI call " + std::to_string(at.call) + ")";
    f.details["stalled_rank"] = at.rank;
    f.details["stalled_call"] = at.call;
  }
  return f;
}

Finding unreadable_trace(const RunRecord& run, const std::string& why) {
  Finding f;
  f.detector = "trace";
  f.kind = "unreadable-trace";
  f.severity = detectors::Severity::Warning;
  f.run_id = run.spec.run_id;
  f.title = run.spec.run_id + ": trace not analysed: " + why;
  return f;
}

struct Enabled {
  const DetectorInfo* info;
  std::unique_ptr<Detector> detector;
};

bool shows(const Enabled& d, const RunView& view) {
  return d.info->needs.runs == Needs::Runs::All || view.failed();
}

}  // namespace

std::vector<Finding> analyze_runs(const std::vector<RunRecord>& runs, const AnalysisOptions& options) {
  trace::Symbolizer symbols;
  SiteNames names(symbols);
  const std::vector<RunInfo> infos = run_infos(runs);
  AnalysisContext context;
  context.runs = &infos;
  context.out_dir = options.out_dir;
  context.settings = options.settings;
  context.log = options.log;
  context.symbols = &symbols;
  context.site_names = &names;
  context.stored_runs = [](const std::filesystem::path& out_dir) {
    return run_infos(harness::RunStore::open_existing(out_dir, harness::StoreAccess::ReadOnly).runs());
  };

  std::vector<Enabled> enabled;
  for (const auto& info : registry())
    if (options.detectors.count(info.name)) enabled.push_back({&info, info.make(context)});

  std::vector<Finding> findings;
  std::set<std::string> skipped_points;
  StallEvaluation stall;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& run = runs[i];
    if (!run.finished()) continue;
    // A skipped run is said once per point (its detail names the point).
    if (run.outcome->kind != OutcomeKind::Ok &&
        (run.outcome->kind != OutcomeKind::Skipped || skipped_points.insert(run.outcome->detail).second))
      findings.push_back(outcome_finding(run));
    if (!harness::RunDir(run.dir).has_traces()) {
      stall.add(run, {});
      continue;
    }
    trace::RunTrace trace;
    try {
      trace = trace::read_run(run.dir);
    } catch (const std::exception& e) {
      findings.push_back(unreadable_trace(run, e.what()));
      stall.add(run, {});
      continue;
    }
    const RunView view(infos[i], trace, symbols);
    std::vector<Finding> of_run;
    for (auto& d : enabled) {
      if (!shows(d, view)) continue;
      if (options.phase) options.phase("analysing: " + std::string(d.info->name) + " on " + run.spec.run_id);
      try {
        for (auto& f : d.detector->observe(view)) of_run.push_back(std::move(f));
      } catch (const std::exception& e) {
        of_run.push_back(analysis_error(d.info->name, run.spec.run_id, e.what()));
      }
    }
    if (expected_stall_hang(run))
      for (auto& f : of_run) f.severity = detectors::Severity::Info;  // expected; the stall evaluation judges it
    stall.add(run, of_run);
    for (auto& f : of_run) findings.push_back(std::move(f));
  }
  for (auto& d : enabled) {
    if (options.phase) options.phase("analysing: " + std::string(d.info->name) + " over the campaign");
    for (auto& f : d.detector->finish()) findings.push_back(std::move(f));
  }
  for (auto& f : stall.finish(options.log)) findings.push_back(std::move(f));
  return findings;
}

std::string describe_localization(const Finding& f) {
  const DetectorInfo* d = find_detector(f.detector);
  if (d == nullptr || !d->roles.localizes_stops) return "";
  std::string out;
  if (d->roles.explain_stop != nullptr) out += d->roles.explain_stop(f);
  if (f.details.contains("code") && f.details["code"].contains("source"))
    for (const auto& l : f.details["code"]["source"])
      out += std::string(l["current"].get<bool>() ? "  > " : "    ") + std::to_string(l["line"].get<int>()) + " | " +
             l["text"].get<std::string>() + "\n";
  return out;
}

}  // namespace scalefuzz::analysis
