#include "races_detector.hpp"
#include "races_section.hpp"

#include <map>
#include <ostream>

#include "scalefuzz/detectors/api/site_names.hpp"
#include "scalefuzz/detectors/exploration.hpp"
#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

namespace {

namespace fs = std::filesystem;

// Why a run's matching cannot be trusted for race errors: it crashed, or an
// MPI call failed (a truncated message, an invalid rank...). "" otherwise.
std::string died_reason(const analysis::RunEnd& outcome, const trace::RunTrace& trace) {
  if (outcome.kind == OutcomeKind::Crashed) return "crashed: " + outcome.detail;
  for (const auto& rank : trace.ranks)
    for (const auto& e : rank.events)
      if (e.error != 0)
        return "MPI error " + std::to_string(e.error) + " in " + trace::op_name(e.op) + " on rank " +
               std::to_string(rank.rank);
  return "";
}

RunMatchSummary summary_of(const analysis::RunInfo& run, const trace::RunTrace& trace) {
  trace::Matching matching = trace::match_messages(trace);
  auto summary = summarize_run(run.id, run.point, run.noise, run.quiet, trace, matching);
  summary.outcome_ok = run.end->kind == OutcomeKind::Ok;
  summary.died = died_reason(*run.end, trace);
  return summary;
}

// A quiet run the engine will show this detector: it feeds its point's
// tables (the baseline when is_baseline holds, and the quiet runs' round
// counts of lock-step whatever its outcome), so the point's other runs are
// judged after it.
bool feeds_point_tables(const analysis::RunInfo& run) {
  return run.finished() && run.quiet;
}

// Memory stays bounded as campaigns grow: a run is summarized while its
// trace is loaded, added to its point's tables (RaceJudge) and judged at
// once when every quiet run of its point was seen; its matches are dropped.
// A run that comes before the last quiet run of its point (the store lists
// runs by noise label, "application" before "none") is remembered by its
// record only and read again once the baseline is complete.
class RacesDetector : public analysis::Detector {
 public:
  explicit RacesDetector(const analysis::AnalysisContext& context) : context_(context) {
    if (!context.runs) return;  // nothing known in advance: every judgement waits for finish()
    for (const auto& run : *context.runs) {
      if (!run.finished() || !run.has_traces) continue;  // never observed
      Point& p = points_[run.point];
      ++p.runs_to_see;
      if (feeds_point_tables(run)) ++p.quiet_to_see;
    }
  }

  std::vector<Finding> observe(const analysis::RunView& run) override {
    if (!context_.runs) run_dirs_[run.id()] = run.dir();
    auto summary = summary_of(run.info(), run.trace());
    judge_.add(summary);
    auto& coverage = coverage_[summary.point];
    coverage.add_seen(summary.run_id, summary.matches);
    coverage.add_seen(summary.run_id, summary.probe_matches);  // a probe's tuple is its own (potential_matches)
    coverage.add_potential(summary.run_id, summary.wildcards);
    auto it = points_.find(summary.point);
    if (it == points_.end()) {  // not announced by context.runs
      if (!is_baseline(summary)) unannounced_.push_back(run.info());
      return {};
    }
    Point& p = it->second;
    if (!is_baseline(summary)) {
      if (p.quiet_to_see > 0) p.deferred.push_back(run.info());
      else judge_.judge(summary);
    }
    if (feeds_point_tables(run.info()) && p.quiet_to_see > 0 && --p.quiet_to_see == 0) judge_deferred(p);
    if (p.runs_to_see > 0) --p.runs_to_see;
    if (p.runs_to_see == 0 && p.deferred.empty()) judge_.forget_baseline(it->first);
    return {};
  }

  std::vector<Finding> finish() override {
    for (auto& [name, p] : points_) judge_deferred(p);
    for (const auto& run : unannounced_) judge_again(run);
    unannounced_.clear();
    auto report = judge_.report();
    if (report.determinism.empty()) return std::move(problems_);
    if (context_.log) {
      std::size_t runs = 0;
      for (const auto& d : report.determinism) runs += d.runs;
      *context_.log << "analysis: races over " << runs << " runs\n";
    }
    if (context_.runs)
      for (const auto& run : *context_.runs) run_dirs_.emplace(run.id, run.dir);
    auto namer = [&](const std::string& run_id, int rank, std::uint32_t site) {
      return context_.site_names->name(run_dirs_[run_id], rank, site);
    };
    auto out = race_findings(report, namer);
    // What exploration forced (OUT/explore): verdicts by outcome, which
    // turn the races above at a benign receive into Info, and coverage.
    std::vector<ExploredAlternative> explored;
    try {
      for (auto& record : read_exploration_records(context_.out_dir)) {
        add_record(coverage_[record.point], record);
        for (auto& a : record.explored) {
          run_dirs_.emplace(a.run_id, forced_run_dir(context_.out_dir, a.run_id));
          explored.push_back(std::move(a));
        }
        for (const auto& [run_id, m] : record.forced_matches)
          run_dirs_.emplace(run_id, forced_run_dir(context_.out_dir, run_id));
      }
    } catch (const std::exception& e) {
      problems_.push_back(analysis::analysis_error("races", "", e.what()));
    }
    auto verdicts = exploration_findings(explored, namer);
    downgrade_benign(out, benign_sites(verdicts));
    for (auto& f : verdicts) out.push_back(std::move(f));
    for (const auto& [point, coverage] : coverage_)
      if (coverage.potential_count() > 0) out.push_back(coverage_finding(point, coverage, namer));
    for (auto& f : problems_) out.push_back(std::move(f));
    return out;
  }

 private:
  struct Point {
    std::size_t runs_to_see = 0;   // runs of the point not observed yet
    std::size_t quiet_to_see = 0;  // of them, quiet ones (baseline and lock-step round counts)
    std::vector<analysis::RunInfo> deferred;  // observed before the baseline was complete
  };

  void judge_deferred(Point& p) {
    for (const auto& run : p.deferred) judge_again(run);
    p.deferred.clear();
    p.deferred.shrink_to_fit();
  }

  // A run observed before its point's baseline was complete: its trace is
  // read and matched again (add() has counted it already).
  void judge_again(const analysis::RunInfo& run) {
    try {
      judge_.judge(summary_of(run, trace::read_run(run.dir)));
    } catch (const std::exception& e) {
      problems_.push_back(analysis::analysis_error("races", run.id, e.what()));
    }
  }

  const analysis::AnalysisContext& context_;
  RaceJudge judge_;
  std::map<std::string, Point> points_;           // by campaign point
  std::vector<analysis::RunInfo> unannounced_;  // runs missing from context.runs: judged in finish()
  std::vector<Finding> problems_;
  std::map<std::string, MatchCoverage> coverage_;  // by campaign point: wildcard match tuples
  std::map<std::string, fs::path> run_dirs_;  // filled at finish() (at observe() without context.runs)
};

}  // namespace

std::unique_ptr<analysis::Detector> make_races_detector(const analysis::AnalysisContext& context) {
  return std::make_unique<RacesDetector>(context);
}

constexpr analysis::KindLabel kKindLabels[] = {{"unintended-match", "message race"}, {nullptr, nullptr}};

// An unintended match is a race that struck: the hang or crash of its run
// blocked in the receive quiet runs deliver its message to is its
// consequence; a potential race at its receive is it seen before it struck.
constexpr const char* kStruck[] = {"unintended-match", nullptr};
constexpr const char* kPotential[] = {"potential-race", nullptr};

namespace {

// What each potential race of the run took (NINJA's unsafe envelopes).
std::vector<ObservedMatch> potential_race_receives(const trace::RunTrace& run, const trace::Matching& matching) {
  std::vector<ObservedMatch> out;
  for (const auto& race : potential_races(run, matching)) out.push_back(race.actual);
  return out;
}

// One exploration's verdicts per receive site, then its point's coverage.
std::vector<Finding> exploration_verdicts(const ExplorationRecord& record, const MatchCoverage& coverage,
                                          const SiteNamer& name_site) {
  auto findings = exploration_findings(record.explored, name_site);
  findings.push_back(coverage_finding(record.point, coverage, name_site));
  return findings;
}

// The engine's exploration reaches the potential-match analysis and the
// verdicts through this (DetectorInfo::schedule_analysis), not this library.
constexpr exploration::ScheduleAnalysis kScheduleAnalysis{potential_matches, potential_completions,
                                                          potential_race_receives, exploration_verdicts};

}  // namespace

const analysis::DetectorInfo kDetector{
    .name = "races",
    .summary = "message races: receives matched by a send never seen in the quiet runs (NINJA)",
    .report_section = "races",
    .needs = {analysis::Needs::Runs::All, true},
    .make = make_races_detector,
    .section = &kReportSection,
    .kind_labels = kKindLabels,
    .roles = {.root_cause_kinds = kStruck, .race_kinds = kStruck, .potential_race_kinds = kPotential, .analyses_replays = true},
    .schedule_analysis = &kScheduleAnalysis};

}  // namespace scalefuzz::detectors::races
