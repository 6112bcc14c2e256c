#include "analysis_stall.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <set>

namespace scalefuzz::cli {

namespace fs = std::filesystem;
using detectors::Finding;

namespace {

std::optional<long> env_number(const harness::RunSpec& spec, const char* name) {
  const auto it = spec.env.find(name);
  if (it == spec.env.end()) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v < 0) return std::nullopt;
  return v;
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * v);
  return buf;
}

}  // namespace

std::optional<harness::StallPoint> planned_stall(const harness::RunSpec& spec) {
  const auto rank = env_number(spec, "SCALEFUZZ_STALL_RANK");
  const auto call = env_number(spec, "SCALEFUZZ_STALL_CALL");
  if (!rank || !call) return std::nullopt;
  return harness::StallPoint{static_cast<int>(*rank), *call};
}

bool stall_fired(const fs::path& run_dir) {
  std::error_code ec;
  return fs::is_regular_file(run_dir / "stall", ec);
}

void StallEvaluation::add(const harness::RunRecord& run, const std::vector<Finding>& run_findings) {
  const auto at = planned_stall(run.spec);
  if (!at || !run.finished()) return;
  ++score_.injected;
  if (!stall_fired(run.dir)) return;  // the rank finished before its K-th call
  ++score_.fired;
  if (run.outcome->kind != harness::OutcomeKind::Hang) {
    ++not_hung_;
    return;
  }
  Case c;
  c.run_id = run.spec.run_id;
  c.nprocs = run.spec.nprocs;
  c.at = *at;
  std::set<int> lp;
  for (const auto& f : run_findings)
    if (f.detector == "pdg" && f.kind == "lp-task") lp.insert(f.ranks.begin(), f.ranks.end());
  c.lp_tasks.assign(lp.begin(), lp.end());
  c.accurate = lp.count(at->rank) > 0;
  c.precise = c.accurate && lp.size() == 1;
  ++score_.evaluated;
  score_.accurate += c.accurate;
  score_.precise += c.precise;
  cases_.push_back(std::move(c));
}

std::vector<Finding> StallEvaluation::finish(std::ostream* log) const {
  std::vector<Finding> out;
  if (score_.injected == 0) return out;
  const std::string line = std::to_string(score_.injected) + " stalls injected, " + std::to_string(score_.fired) +
                           " fired, " + std::to_string(score_.evaluated) + " hung and localized: LP-task accuracy " +
                           percent(score_.accuracy()) + " (" + std::to_string(score_.accurate) + " of " +
                           std::to_string(score_.evaluated) + "), precision " + percent(score_.precision()) + " (" +
                           std::to_string(score_.precise) + " of " + std::to_string(score_.evaluated) + ")";
  if (log) *log << "analysis: stall injection: " << line << "\n";
  Finding summary;
  summary.detector = "pdg";
  summary.kind = "stall-evaluation";
  summary.severity = detectors::Severity::Info;
  summary.title = "stall injection: " + line;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& c : cases_) {
    runs.push_back({{"run_id", c.run_id}, {"nprocs", c.nprocs}, {"stalled_rank", c.at.rank}, {"stalled_call", c.at.call},
                    {"lp_tasks", c.lp_tasks}, {"accurate", c.accurate}, {"precise", c.precise}});
    if (c.precise) continue;
    Finding w;
    w.detector = "pdg";
    w.kind = c.accurate ? "stall-imprecise" : "stall-missed";
    w.severity = detectors::Severity::Warning;
    w.run_id = c.run_id;
    w.ranks = c.lp_tasks;
    w.title = (c.accurate ? "least-progressed tasks include others besides the stalled rank "
                          : "least-progressed tasks miss the stalled rank ") +
              std::to_string(c.at.rank) + " (stalled at its MPI call " + std::to_string(c.at.call) + "; LP tasks: " +
              (c.lp_tasks.empty() ? std::string("none") : detectors::rank_ranges(c.lp_tasks)) + ")";
    w.details = {{"stalled_rank", c.at.rank}, {"stalled_call", c.at.call}, {"lp_tasks", c.lp_tasks}};
    out.push_back(std::move(w));
  }
  summary.details = {{"injected", score_.injected},
                     {"fired", score_.fired},
                     {"fired_without_hang", not_hung_},
                     {"evaluated", score_.evaluated},
                     {"accurate", score_.accurate},
                     {"precise", score_.precise},
                     {"accuracy", score_.accuracy()},
                     {"precision", score_.precision()},
                     {"definition", "accuracy: the LP tasks include the stalled rank; precision: they include no "
                                    "other rank (AutomaDeD §5.2)"},
                     {"runs", std::move(runs)}};
  out.insert(out.begin(), std::move(summary));
  return out;
}

}  // namespace scalefuzz::cli
