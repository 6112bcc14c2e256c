#include "analysis.hpp"
#include "analysis_kcca.hpp"
#include "analysis_localize.hpp"
#include "analysis_stall.hpp"

#include <map>
#include <optional>
#include <ostream>

#include "scalefuzz/detectors/races.hpp"
#include "scalefuzz/trace/model.hpp"
#include "site_names.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;
using detectors::Finding;
using harness::OutcomeKind;
using harness::RunRecord;

std::string campaign_point(const harness::RunSpec& spec) {
  std::string p = "np" + std::to_string(spec.nprocs);
  for (const auto& [k, v] : spec.params) p += " " + k + "=" + v;
  return p;
}

namespace {

bool has_traces(const RunRecord& run) { return fs::exists(run.dir / "ranks"); }

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
  for (const auto& s : o.stacks)
    if (s.rank >= 0) f.ranks.push_back(s.rank);
  // A hang the campaign caused on purpose is expected; whether it was
  // localized is judged by the stall evaluation.
  if (const auto at = planned_stall(run.spec); at && o.kind == OutcomeKind::Hang && stall_fired(run.dir)) {
    f.severity = detectors::Severity::Info;
    f.title += " (injected stall: rank " + std::to_string(at->rank) + " at its MPI call " + std::to_string(at->call) + ")";
    f.details["stalled_rank"] = at->rank;
    f.details["stalled_call"] = at->call;
  }
  return f;
}

// Per-run results the campaign-wide detectors need after every trace is dropped.
struct CampaignAccumulator {
  std::vector<detectors::races::RunMatchSummary> race_summaries;
  std::map<std::string, fs::path> run_dirs;
};

// Why a run's matching cannot be trusted for race errors: it crashed, or an
// MPI call failed (a truncated message, an invalid rank...). "" otherwise.
std::string died_reason(const harness::Outcome& outcome, const trace::RunTrace& trace) {
  if (outcome.kind == OutcomeKind::Crashed) return "crashed: " + outcome.detail;
  for (const auto& rank : trace.ranks)
    for (const auto& e : rank.events)
      if (e.error != 0)
        return "MPI error " + std::to_string(e.error) + " in " + trace::op_name(e.op) + " on rank " +
               std::to_string(rank.rank);
  return "";
}

void log(const AnalysisOptions& options, const std::string& line) {
  if (options.log) *options.log << line << "\n";
}

}  // namespace

std::vector<Finding> analyze_runs(const std::vector<RunRecord>& runs, const AnalysisOptions& options) {
  std::vector<Finding> findings;
  CampaignAccumulator acc;
  SiteNames names;
  const auto enabled = [&](const char* d) { return options.detectors.count(d) > 0; };
  std::optional<KccaAnalysis> kcca;
  if (enabled("kcca")) kcca.emplace(options.kcca, runs, options.out_dir);
  StallEvaluation stall;

  for (const auto& run : runs) {
    if (!run.finished()) continue;
    const harness::Outcome& outcome = *run.outcome;
    if (outcome.kind != OutcomeKind::Ok) findings.push_back(outcome_finding(run));
    if (!has_traces(run)) {
      stall.add(run, {});
      continue;
    }
    acc.run_dirs[run.spec.run_id] = run.dir;

    trace::RunTrace trace;
    try {
      trace = trace::read_run(run.dir);
    } catch (const std::exception& e) {
      Finding f;
      f.detector = "trace";
      f.kind = "unreadable-trace";
      f.severity = detectors::Severity::Warning;
      f.run_id = run.spec.run_id;
      f.title = run.spec.run_id + ": trace not analysed: " + e.what();
      findings.push_back(std::move(f));
      stall.add(run, {});
      continue;
    }

    auto localized = localize_run(run, trace, options.detectors);
    if (planned_stall(run.spec) && outcome.kind == OutcomeKind::Hang && stall_fired(run.dir))
      for (auto& f : localized) f.severity = detectors::Severity::Info;  // expected; the stall evaluation judges it
    stall.add(run, localized);
    for (auto& f : localized) findings.push_back(std::move(f));
    if (kcca) kcca->add(run, trace);

    if (enabled("races")) {
      trace::Matching matching = trace::match_messages(trace);
      auto summary = detectors::races::summarize_run(run.spec.run_id, campaign_point(run.spec), run.spec.noise.label(),
                                                     run.spec.noise.mode == "none", trace, matching);
      summary.outcome_ok = outcome.kind == OutcomeKind::Ok;
      summary.died = died_reason(outcome, trace);
      acc.race_summaries.push_back(std::move(summary));
    }
  }

  if (enabled("races") && !acc.race_summaries.empty()) {
    log(options, "analysis: races over " + std::to_string(acc.race_summaries.size()) + " runs");
    auto report = detectors::races::detect_races(acc.race_summaries);
    auto namer = [&](const std::string& run_id, int rank, std::uint32_t site) {
      return names.name(acc.run_dirs[run_id], rank, site);
    };
    for (auto& f : detectors::races::race_findings(report, namer)) findings.push_back(std::move(f));
  }
  if (kcca)
    for (auto& f : kcca->finish(options.log)) findings.push_back(std::move(f));
  for (auto& f : stall.finish(options.log)) findings.push_back(std::move(f));
  return findings;
}

}  // namespace scalefuzz::cli
