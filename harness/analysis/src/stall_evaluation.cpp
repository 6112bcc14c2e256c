#include "scalefuzz/analysis/stall_evaluation.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <set>

namespace scalefuzz::analysis {

namespace fs = std::filesystem;
using detectors::Finding;

namespace {

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * v);
  return buf;
}

}  // namespace

bool expected_stall_hang(const harness::RunRecord& run) {
  return run.spec.stall && run.finished() && run.outcome->kind == harness::OutcomeKind::Hang &&
         harness::RunDir(run.dir).stall_fired();
}

void StallEvaluation::add(const harness::RunRecord& run, const std::vector<Finding>& run_findings) {
  const auto& at = run.spec.stall;
  if (!at || !run.finished()) return;
  ++injected_;
  if (!harness::RunDir(run.dir).stall_fired()) return;  // the rank finished before its K-th call
  ++fired_;
  if (run.outcome->kind != harness::OutcomeKind::Hang) {
    ++not_hung_;
    return;
  }
  Case c;
  c.run_id = run.spec.run_id;
  c.nprocs = run.spec.nprocs;
  c.call = at->call;
  c.outcome.injected_rank = at->rank;
  std::set<int> lp;
  for (const auto& f : run_findings)
    if (f.detector == "pdg" && f.kind == "lp-task") lp.insert(f.ranks.begin(), f.ranks.end());
  c.outcome.lp_tasks.assign(lp.begin(), lp.end());
  cases_.push_back(std::move(c));
}

StallScore StallEvaluation::score() const {
  std::vector<detectors::pdg::InjectionOutcome> outcomes;
  for (const auto& c : cases_) outcomes.push_back(c.outcome);
  return {injected_, fired_, detectors::pdg::coverage(outcomes)};
}

std::vector<Finding> StallEvaluation::finish(std::ostream* log) const {
  std::vector<Finding> out;
  if (injected_ == 0) return out;
  const auto cov = score().coverage;
  const std::string n = std::to_string(cov.injections);
  const std::string line = std::to_string(injected_) + " stalls injected, " + std::to_string(fired_) + " fired, " +
                           n + " hung and localized: LP-task accuracy " + percent(cov.accuracy) + " (" +
                           std::to_string(cov.accurate) + " of " + n + "), precision " + percent(cov.precision) +
                           " (" + std::to_string(cov.precise) + " of " + n + ")";
  if (log) *log << "analysis: stall injection: " << line << "\n";
  Finding summary;
  summary.detector = "pdg";
  summary.kind = "stall-evaluation";
  summary.severity = detectors::Severity::Info;
  summary.title = "stall injection: " + line;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& c : cases_) {
    const int rank = c.outcome.injected_rank;
    const auto& lp = c.outcome.lp_tasks;
    const bool accurate = std::find(lp.begin(), lp.end(), rank) != lp.end();
    const bool precise = std::all_of(lp.begin(), lp.end(), [&](int r) { return r == rank; });
    runs.push_back({{"run_id", c.run_id}, {"nprocs", c.nprocs}, {"stalled_rank", rank}, {"stalled_call", c.call},
                    {"lp_tasks", lp}, {"accurate", accurate}, {"precise", precise}});
    if (accurate && precise) continue;
    Finding w;
    w.detector = "pdg";
    w.kind = accurate ? "stall-imprecise" : "stall-missed";
    w.severity = detectors::Severity::Warning;
    w.run_id = c.run_id;
    w.ranks = lp;
    w.title = (accurate ? "least-progressed tasks include others besides the stalled rank "
                        : "least-progressed tasks miss the stalled rank ") +
              std::to_string(rank) + " (stalled at its MPI call " + std::to_string(c.call) + "; LP tasks: " +
              (lp.empty() ? std::string("none") : detectors::rank_ranges(lp)) + ")";
    w.details = {{"stalled_rank", rank}, {"stalled_call", c.call}, {"lp_tasks", lp}};
    out.push_back(std::move(w));
  }
  summary.details = {{"injected", injected_},
                     {"fired", fired_},
                     {"fired_without_hang", not_hung_},
                     {"evaluated", cov.injections},
                     {"accurate", cov.accurate},
                     {"precise", cov.precise},
                     {"accuracy", cov.accuracy},
                     {"precision", cov.precision},
                     {"definition", "accuracy: the LP tasks include the stalled rank; precision: they include no "
                                    "other rank (AutomaDeD §5.2.2)"},
                     {"runs", std::move(runs)}};
  out.insert(out.begin(), std::move(summary));
  return out;
}

}  // namespace scalefuzz::analysis
