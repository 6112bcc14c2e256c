#include "stall_judge.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>
#include <string>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg {

namespace {

// "66.7 %": one decimal, as the stall-evaluation line has always read.
std::string percent(double v) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << 100 * v << " %";
  return text.str();
}

// The ranks of the run's LP-task findings, sorted.
std::vector<int> lp_tasks_of(const std::vector<Finding>& run_findings) {
  std::set<int> lp;
  for (const auto& f : run_findings)
    if (f.detector == "pdg" && f.kind == "lp-task") lp.insert(f.ranks.begin(), f.ranks.end());
  return {lp.begin(), lp.end()};
}

}  // namespace

std::vector<Finding> judge_stalls(const analysis::InjectedStalls& stalls, std::ostream* log) {
  std::vector<Finding> out;
  if (stalls.injected == 0) return out;
  std::vector<InjectionOutcome> outcomes;
  for (const auto& c : stalls.hung) {
    InjectionOutcome o;
    o.injected_rank = c.rank;
    o.lp_tasks = lp_tasks_of(c.findings);
    outcomes.push_back(std::move(o));
  }
  const Coverage cov = coverage(outcomes);
  const std::string n = std::to_string(cov.injections);
  const std::string line = std::to_string(stalls.injected) + " stalls injected, " + std::to_string(stalls.fired) +
                           " fired, " + n + " hung and localized: LP-task accuracy " + percent(cov.accuracy) + " (" +
                           std::to_string(cov.accurate) + " of " + n + "), precision " + percent(cov.precision) +
                           " (" + std::to_string(cov.precise) + " of " + n + ")";
  if (log) *log << "analysis: stall injection: " << line << "\n";
  Finding summary;
  summary.detector = "pdg";
  summary.kind = "stall-evaluation";
  summary.severity = Severity::Info;
  summary.title = "stall injection: " + line;
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < stalls.hung.size(); ++i) {
    const auto& c = stalls.hung[i];
    const int rank = outcomes[i].injected_rank;
    const auto& lp = outcomes[i].lp_tasks;
    const bool accurate = std::find(lp.begin(), lp.end(), rank) != lp.end();
    const bool precise = std::all_of(lp.begin(), lp.end(), [&](int r) { return r == rank; });
    runs.push_back({{"run_id", c.run_id}, {"nprocs", c.nprocs}, {"stalled_rank", rank}, {"stalled_call", c.call},
                    {"lp_tasks", lp}, {"accurate", accurate}, {"precise", precise}});
    if (accurate && precise) continue;
    Finding w;
    w.detector = "pdg";
    w.kind = accurate ? "stall-imprecise" : "stall-missed";
    w.severity = Severity::Warning;
    w.run_id = c.run_id;
    w.ranks = lp;
    w.title = (accurate ? "least-progressed tasks include others besides the stalled rank "
                        : "least-progressed tasks miss the stalled rank ") +
              std::to_string(rank) + " (stalled at its MPI call " + std::to_string(c.call) + "; LP tasks: " +
              (lp.empty() ? std::string("none") : rank_ranges(lp)) + ")";
    w.details = {{"stalled_rank", rank}, {"stalled_call", c.call}, {"lp_tasks", lp}};
    out.push_back(std::move(w));
  }
  summary.details = {{"injected", stalls.injected},
                     {"fired", stalls.fired},
                     {"fired_without_hang", stalls.fired_without_hang},
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

}  // namespace scalefuzz::detectors::pdg
