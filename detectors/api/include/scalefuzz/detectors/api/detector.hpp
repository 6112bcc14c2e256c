// The contract between the analysis engine (harness/analysis) and a
// technique (detectors/<name>/analysis/): a Detector observes every finished
// run through a RunView (what the run was, how it ended, its trace, read
// once and symbolized at most once, shared by every detector) and returns
// its findings when the campaign is done. It sits below both: a detector
// includes this and nothing of harness/ (test DetectorsIncludeNoHarness).
// detectors/api/README.md says how to add one.
#pragma once

#include <any>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/common/outcome_kind.hpp"
#include "scalefuzz/detectors/api/html_kit.hpp"
#include "scalefuzz/detectors/api/settings.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::exploration {
struct ScheduleAnalysis;  // exploration.hpp
}  // namespace scalefuzz::exploration

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

// How a finished run ended, as much as a detector reads of it.
struct RunEnd {
  OutcomeKind kind = OutcomeKind::Ok;
  int signal = 0;                   // signal that killed a rank, or 0
  std::optional<int> crashed_rank;  // the rank the signal killed, when known
  std::string detail;               // one line: "rank 2 SIGSEGV", "timeout after 10s"
};

// One run of the campaign as a detector sees it: a value the engine fills
// from the harness's run record (harness/analysis run_info.hpp).
struct RunInfo {
  std::string id;                            // the run id
  std::string point;                         // campaign point: what stays equal across noise and repetitions
  std::string noise;                         // noise label ("none", "random-...")
  bool quiet = true;                         // ran without noise
  std::string scale_role;                    // "train", "test" or "" (no scales: section)
  int nprocs = 0;
  std::vector<std::string> argv;             // argv.front(): the application binary
  std::map<std::string, std::string> params; // campaign parameter name -> value
  std::filesystem::path dir;                 // the run directory (traces in dir/ranks/)
  bool has_traces = false;                   // dir/ranks/ exists
  std::optional<RunEnd> end;                 // empty while the run has not finished
  bool finished() const { return end.has_value(); }
};

// One finished run as every detector sees it.
class RunView {
 public:
  RunView(const RunInfo& run, trace::RunTrace& trace, trace::Symbolizer& symbols);

  const RunInfo& info() const { return run_; }
  const std::string& id() const { return run_.id; }
  const RunEnd& end() const { return *run_.end; }
  const std::filesystem::path& dir() const { return run_.dir; }
  bool failed() const { return is_failure(end().kind); }

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
  const RunInfo& run_;
  trace::RunTrace& trace_;
  trace::Symbolizer& symbols_;
  mutable bool symbolized_ = false;
};

// Each technique's settings by technique name, and settings_of<T> to read
// one back (settings.hpp: the settings API, which the campaign model holds too).
using settings::settings_of;
using settings::TechniqueSettings;

// Shared by every detector of one analysis.
struct AnalysisContext {
  const std::vector<RunInfo>* runs = nullptr;  // every run of the campaign, finished or not; may be null
  std::filesystem::path out_dir;               // campaign output (models are stored here)
  TechniqueSettings settings;                  // each technique's campaign section
  std::ostream* log = nullptr;                 // progress notes; nullptr = quiet
  trace::Symbolizer* symbols = nullptr;        // the campaign's symbolization cache
  SiteNames* site_names = nullptr;             // names of call sites of any stored run
  // The runs of another stored campaign (its output directory), e.g. a
  // technique's known-good reference; throws when it is not a campaign output.
  std::function<std::vector<RunInfo>(const std::filesystem::path& out_dir)> stored_runs;
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

// A rank's stack as the harness captured it when a run timed out (eu-stack text).
struct RankStack {
  int rank = -1;  // world rank, -1 if unknown
  std::string text;
};

// A technique's own section of report.html (detectors/<name>/report/, on the
// HTML kit html_kit.hpp), drawn by harness/report among the sections of the
// detectors with findings, in registry order.
struct ReportInput {
  const std::vector<detectors::Finding>& findings;  // the campaign's, in report order: card i is #finding-<i+1>
  const std::vector<RunInfo>& runs;                 // every run of the campaign
  // Every rank's stack of the runs that hung, by run id (the harness's stack capture).
  std::map<std::string, std::vector<RankStack>> stacks = {};
  // Graphviz source -> inline SVG, supplied by the harness (its dot program
  // and spawner); empty: nothing renders graphs (the section says so).
  std::function<html_kit::RenderedGraph(const std::string& dot_source)> render_dot = {};
};
struct ReportSection {
  const char* id;   // the <section id>, also its navigation anchor
  const char* nav;  // its link text in the page's navigation
  std::string (*render)(const ReportInput& input);  // a complete <section id="...">...</section>
  const char* css;  // its style rules, joined to the page's stylesheet
  // The artifacts of its findings it draws itself: a finding's card links to
  // the section with this text instead of drawing the artifact again ("" =
  // the card draws it). nullptr: the cards draw every artifact.
  std::string (*drawn_here)(const detectors::Finding& finding, const detectors::Artifact& artifact) = nullptr;
};

// How the report's bug headline names a kind of finding ("unintended-match"
// -> "message race"); a kind without one reads as the kind, '-' as ' '.
struct KindLabel {
  const char* kind;
  const char* label;
};

// What the harness does with a technique's findings besides listing them:
// each technique declares its roles here, and the harness asks the registry
// (harness/analysis registry.hpp) instead of naming techniques (issue 28).
// Kind lists are ended by nullptr; nullptr: none.
struct Roles {
  // Its findings localize a failed run (where it stopped, who is to blame):
  // harness/bugs joins them to the bug of the run's outcome finding (which
  // takes the first localizer's location, in registry order, when it has
  // none), and
  // `scalefuzz analyze RUN_DIR` prints their explanation (explain_stop).
  bool localizes_stops = false;
  // Its finding kinds that can be the root cause of a failed run of the
  // same run (details.quiet_runs_deliver_it_to names the receive the run
  // blocked in): the failure is shown with that finding's bug, and its
  // bugs read before failures among bugs of one severity.
  const char* const* root_cause_kinds = nullptr;
  // Its finding kinds that say a race manifested in the run: what
  // `scalefuzz reproduce --until race` waits for (with only the detectors
  // declaring some), and a bug a potential race at the same campaign point
  // and receive joins.
  const char* const* race_kinds = nullptr;
  // Its finding kinds that say a race could happen (not seen to strike).
  const char* const* potential_race_kinds = nullptr;
  // Analyses a single run on its own: `scalefuzz analyze RUN_DIR` and the
  // bugs a replay is compared by.
  bool analyses_replays = false;
  // Lines ("    ...\n") explaining a localizing finding beyond its title,
  // printed by `scalefuzz analyze RUN_DIR` before the source lines; nullptr: none.
  std::string (*explain_stop)(const detectors::Finding& finding) = nullptr;
};

// A run of the campaign that injected a stall (the harness's RunSpec::stall:
// one rank stops at its K-th MPI call, injectors/stall), fired and hung.
struct HungStall {
  std::string run_id;
  int nprocs = 0;
  int rank = -1;   // the stalled rank
  long call = 0;   // at its K-th MPI call
  std::vector<detectors::Finding> findings;  // every detector's findings of the run
};
// The campaign's stall injections, counted by the harness whatever the
// detectors: planned and finished, fired (the rank reached its call),
// fired in a run that did not hang, and the runs that hung.
struct InjectedStalls {
  std::size_t injected = 0, fired = 0, fired_without_hang = 0;
  std::vector<HungStall> hung;
};

// A technique's own command on a stored campaign: its model's quality,
// printed (`scalefuzz kcca-eval DIR`). The CLI declares the command and its
// options; the workflow finds the technique by `command` in the registry.
struct ModelEvaluationOptions {
  int folds = 5;             // k of the k-fold cross-validation
  bool sensitivity = false;  // also how the model's parameters change it
};
struct ModelEvaluation {
  const char* command;  // the CLI command that runs it
  // Writes the evaluation of `runs` (a stored campaign's, with its
  // techniques' `settings`) to `out`; unreadable runs are noted on `err`.
  // Throws std::invalid_argument when there is nothing to evaluate.
  void (*evaluate)(const std::vector<RunInfo>& runs, const TechniqueSettings& settings,
                   const ModelEvaluationOptions& options, std::ostream& out, std::ostream& err);
};

// A technique's registration: everything the engine, the campaign schema and
// the report need to know about a detector. Its glue defines one as the
// constant scalefuzz::detectors::<name>::kDetector (constant-initialized:
// valid before any code runs) and registers it with
// scalefuzz_register_detector(<name>) in its CMakeLists.txt.
struct DetectorInfo {
  const char* name;            // as written in a campaign's detectors: list
  const char* summary;         // one line, for error messages and docs
  const char* report_section;  // id of the report.html section showing its findings (section->id when it has its own)
  Needs needs;
  std::unique_ptr<Detector> (*make)(const AnalysisContext& context);
  // Checked before any run starts ("" = fine; else what is wrong, e.g. an
  // unreadable kcca.model), so a campaign fails early, not after its runs.
  std::string (*campaign_problem)(const TechniqueSettings& settings) = nullptr;

  // --- report.html (issue 28 item 1: report sections) ---
  // Its own report section; nullptr: report_section names the section of
  // another technique (MPI-PD's findings show in PDG's "hangs").
  const ReportSection* section = nullptr;
  // Its finding kinds as the bug headline names them, ended by {nullptr,
  // nullptr}; nullptr: every kind reads as itself.
  const KindLabel* kind_labels = nullptr;

  // --- roles (issue 28 item 1: the harness names no technique) ---
  Roles roles = {};
  // Scores how well its findings localized the campaign's injected stalls
  // (AutomaDeD §5.2: the PDG's LP tasks): its findings, called once per
  // analysis of a campaign that injected any, whether or not the campaign
  // lists the technique; nullptr: it does not judge stalls.
  std::vector<detectors::Finding> (*judge_stalls)(const InjectedStalls& stalls, std::ostream* log) = nullptr;

  // --- schedule exploration and model evaluation (issue 28: the engine and the
  // workflows reach a technique's analyses through the registry) ---
  // What the engine's exploration and NINJA's unsafe messages need from a
  // trace (its wildcard receives' alternatives, potential races) and how
  // an exploration is judged (exploration.hpp); nullptr: the technique
  // analyses no schedules. The engine asks the first registered technique
  // that has one (analysis::schedule_analysis()).
  const exploration::ScheduleAnalysis* schedule_analysis = nullptr;
  // Its model's evaluation on a stored campaign, a CLI command of its own
  // (issue 28: the workflow names no technique); nullptr: none.
  const ModelEvaluation* evaluation = nullptr;
};

// A finding of `detector` saying it failed on `run_id` (the analysis goes on).
detectors::Finding analysis_error(const std::string& detector, const std::string& run_id, const std::string& what);

// The lines [line - context, line + context] of `file` as
// [{"line": n, "text": "...", "current": bool}], empty when unreadable.
nlohmann::json source_snippet(const std::string& file, int line, int context = 3);

}  // namespace scalefuzz::analysis
