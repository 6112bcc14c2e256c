#include "races_detector.hpp"

#include <map>
#include <ostream>

#include "scalefuzz/analysis/site_names.hpp"
#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

namespace {

namespace fs = std::filesystem;

// Why a run's matching cannot be trusted for race errors: it crashed, or an
// MPI call failed (a truncated message, an invalid rank...). "" otherwise.
std::string died_reason(const harness::Outcome& outcome, const trace::RunTrace& trace) {
  if (outcome.kind == harness::OutcomeKind::Crashed) return "crashed: " + outcome.detail;
  for (const auto& rank : trace.ranks)
    for (const auto& e : rank.events)
      if (e.error != 0)
        return "MPI error " + std::to_string(e.error) + " in " + trace::op_name(e.op) + " on rank " +
               std::to_string(rank.rank);
  return "";
}

class RacesDetector : public analysis::Detector {
 public:
  explicit RacesDetector(const analysis::AnalysisContext& context) : context_(context) {}

  std::vector<Finding> observe(const analysis::RunView& run) override {
    const auto& spec = run.spec();
    trace::Matching matching = trace::match_messages(run.trace());
    auto summary = summarize_run(spec.run_id, analysis::campaign_point(spec), spec.noise.label(),
                                 spec.noise.mode == noise::Mode::None, run.trace(), matching);
    summary.outcome_ok = run.outcome().kind == harness::OutcomeKind::Ok;
    summary.died = died_reason(run.outcome(), run.trace());
    summaries_.push_back(std::move(summary));
    run_dirs_[spec.run_id] = run.record().dir;
    return {};
  }

  std::vector<Finding> finish() override {
    if (summaries_.empty()) return {};
    if (context_.log) *context_.log << "analysis: races over " << summaries_.size() << " runs\n";
    auto report = detect_races(summaries_);
    auto namer = [&](const std::string& run_id, int rank, std::uint32_t site) {
      return context_.site_names->name(run_dirs_[run_id], rank, site);
    };
    return race_findings(report, namer);
  }

 private:
  const analysis::AnalysisContext& context_;
  std::vector<RunMatchSummary> summaries_;
  std::map<std::string, fs::path> run_dirs_;
};

}  // namespace

std::unique_ptr<analysis::Detector> make_races_detector(const analysis::AnalysisContext& context) {
  return std::make_unique<RacesDetector>(context);
}

}  // namespace scalefuzz::detectors::races
