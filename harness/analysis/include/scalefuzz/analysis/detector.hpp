// The analysis engine's contract with a technique: a Detector observes every
// finished run through a RunView (the run's record and its trace, read once
// and symbolized at most once, shared by every detector) and returns its
// findings when the campaign is done. harness/analysis/README.md says how to
// add one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::analysis {

class SiteNames;

// What a detector needs from a run. The engine reads a run's trace when a
// detector that sees the run needs it, and shows a detector only the runs it
// asks for.
struct Needs {
  enum class Runs { All, Failed };  // Failed: hang, crashed, mpi-abort, failed
  Runs runs = Runs::All;
  bool trace = true;  // runs without a readable trace are not shown to it
};

// The campaign point of a run: what stays equal across noise and repetitions.
std::string campaign_point(const harness::RunSpec& spec);

// True for the outcomes that are localized: hang, crashed, mpi-abort, failed.
bool is_failure(harness::OutcomeKind kind);

// One finished run as every detector sees it.
class RunView {
 public:
  RunView(const harness::RunRecord& run, trace::RunTrace& trace, trace::Symbolizer& symbols);

  const harness::RunRecord& record() const { return run_; }
  const harness::RunSpec& spec() const { return run_.spec; }
  const harness::Outcome& outcome() const { return *run_.outcome; }
  harness::RunDir dir() const { return harness::RunDir(run_.dir); }
  bool failed() const { return is_failure(outcome().kind); }

  // The trace as read: call sites carry addresses, not yet names.
  const trace::RunTrace& trace() const { return trace_; }
  // The same trace with every rank's call sites symbolized (done on the
  // first call, through the campaign's Symbolizer; problems leave sites
  // unsymbolized, the findings then name ranks and site ids).
  const trace::RunTrace& symbolized() const;
  // {file, line, function, location, rank, site, source} of a rank's call
  // site (innermost application frame), or null. Symbolizes.
  nlohmann::json code_location(int rank, std::uint32_t site) const;

 private:
  const harness::RunRecord& run_;
  trace::RunTrace& trace_;
  trace::Symbolizer& symbols_;
  mutable bool symbolized_ = false;
};

// Shared by every detector of one analysis.
struct AnalysisContext {
  const std::vector<harness::RunRecord>* runs = nullptr;  // every run of the campaign, finished or not
  std::filesystem::path out_dir;                          // campaign output (models are stored here)
  harness::KccaSpec kcca;                                 // the campaign's kcca: section
  harness::DmtrackerSpec dmtracker;                       // the campaign's dmtracker: section
  std::ostream* log = nullptr;                            // progress notes; nullptr = quiet
  trace::Symbolizer* symbols = nullptr;                   // the campaign's symbolization cache
  SiteNames* site_names = nullptr;                        // names of call sites of any stored run
};

class Detector {
 public:
  virtual ~Detector() = default;
  // Findings about this run alone (may be none); the detector may keep what
  // it needs from the run for finish(), but not the trace itself.
  virtual std::vector<detectors::Finding> observe(const RunView& run) = 0;
  // Campaign-wide findings once every run was observed; none for a detector
  // that judges each run alone.
  virtual std::vector<detectors::Finding> finish() { return {}; }
};

// One line of the registry (registry.cpp): everything the engine, the
// campaign schema and the report need to know about a detector.
struct DetectorInfo {
  const char* name;            // as written in a campaign's detectors: list
  const char* summary;         // one line, for error messages and docs
  const char* report_section;  // id of the report.html section showing its findings
  Needs needs;
  std::unique_ptr<Detector> (*make)(const AnalysisContext& context);
  // Checked before any run starts ("" = fine; else what is wrong, e.g. an
  // unreadable kcca.model), so a campaign fails early, not after its runs.
  std::string (*campaign_problem)(const harness::Campaign& campaign) = nullptr;
};

// A finding of `detector` saying it failed on `run_id` (the analysis goes on).
detectors::Finding analysis_error(const std::string& detector, const std::string& run_id, const std::string& what);

// The lines [line - context, line + context] of `file` as
// [{"line": n, "text": "...", "current": bool}], empty when unreadable.
nlohmann::json source_snippet(const std::string& file, int line, int context = 3);

}  // namespace scalefuzz::analysis
