// Reports of a campaign: one streaming Reporter interface (google/benchmark's
// BenchmarkReporter: ReportContext, ReportRuns, Finalize), one implementation
// per output format, and ReportFiles, which puts a set of report files in
// place together or not at all.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/bugs.hpp"
#include "scalefuzz/harness/run_listener.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::harness {

struct ReportData {
  std::string campaign;
  std::filesystem::path out_dir;
  std::vector<RunRecord> runs;                    // as RunStore::runs() returns them
  std::vector<detectors::Finding> findings;
  std::string command_line;                        // how the campaign was run
  std::string campaign_file;                       // absolute path of the campaign YAML; "" if unknown
  std::string started_at, finished_at;             // campaign wall clock, UTC; "" if unknown
  std::string generated_at;                        // "" -> now
};

// Collects runs, findings and the meta keys command_line / started_at /
// finished_at from a store.
ReportData report_data_from_store(const RunStore& store);

// Counts every reporter agrees on.
struct ReportSummary {
  std::size_t runs = 0, finished = 0, unfinished = 0;
  std::map<std::string, std::size_t> by_outcome;   // "ok", "hang", ... ("unfinished" too)
  std::size_t failed_runs = 0;                     // finished, not ok and not expected to fail
  // Finished runs whose bad outcome was expected (the hang of an injected
  // stall), by outcome label; also counted in by_outcome.
  std::map<std::string, std::size_t> expected_by_outcome;
  std::size_t findings = 0;
  std::size_t serious_findings = 0;                // severity warning or error
  std::map<std::string, std::size_t> findings_by_detector;
  // "findings" (a run not ok, or a warning/error finding), "incomplete"
  // (nothing wrong so far but runs are unfinished), else "clean" (info
  // findings alone keep a campaign clean).
  std::string verdict;
};
ReportSummary summarize(const ReportData& data);

// The findings grouped into bugs (harness/bugs), occurrences dated by the
// runs' finish times and campaign-wide findings by the campaign's.
std::vector<bugs::Bug> report_bugs(const ReportData& data);

// POSIX shell single-quoting where needed (commands shown, never run); a word
// holding control bytes or bytes that are not UTF-8 as bash's $'...' with \xNN
// escapes, so the line stays printable and a shell gives back the bytes.
std::string shell_quote(const std::string& word);

// The command that reruns exactly this run: the first command line of its
// replay.txt (written by run and reproduce), else (runs of stores written
// before, SLURM tasks) `scalefuzz run CAMPAIGN --filter id=RUN --out OUT/replay/RUN`.
std::string replay_command(const ReportData& data, const RunRecord& run);

// True when a run's findings mark its failed outcome as expected: an
// informational "outcome" finding (e.g. the hang of an injected stall).
bool outcome_expected(const std::vector<const detectors::Finding*>& run_findings);

// "ok", "hang", ... or "unfinished".
std::string outcome_label(const RunRecord& run);

class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Report files written as one set (issue 36): each is staged under a
// temporary name beside its target, and commit() renames them all into
// place only once every one was written. Uncommitted temporaries are
// removed by the destructor.
class ReportFiles {
 public:
  ReportFiles() = default;
  ReportFiles(const ReportFiles&) = delete;
  ReportFiles& operator=(const ReportFiles&) = delete;
  ~ReportFiles();
  // Writes `content` to a temporary sibling of `file` (creating its
  // directory). Throws ReportError naming `file`.
  void stage(const std::filesystem::path& file, const std::string& content);
  // Renames every staged file into place and returns the targets. When one
  // cannot be put in place, the targets already replaced are restored and
  // ReportError is thrown: either every report changed or none did.
  std::vector<std::filesystem::path> commit();

 private:
  struct Staged {
    std::filesystem::path file, temporary;
  };
  std::vector<Staged> staged_;
};

// One report format, driven through a campaign in three steps:
//   begin       before the first run: the campaign, every run known so far
//               (planned runs unfinished) and the findings stored so far;
//   report_run  after each finished run: `so_far` with that run's record;
//   finalize    after the analysis: everything, with this session's findings.
// Each step stages the reporter's file in `files` (the caller commits the
// set); a reporter whose file is costly to draw (report.html) stages it at
// finalize only.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin(const ReportData& context, ReportFiles& files);
  virtual void report_run(const ReportData& so_far, const RunRecord& run, ReportFiles& files);
  virtual void finalize(const ReportData& data, ReportFiles& files);
  // Whether begin and report_run rewrite the file (true for findings.json
  // and junit.xml: valid after every finished run).
  virtual bool streams() const { return true; }
  // The whole document for `data`.
  virtual std::string render(const ReportData& data) const = 0;
  // Where the file goes for this data.
  virtual std::filesystem::path output_path(const ReportData& data) const = 0;
  // render + an atomic write of this one file (tools and tests). Throws ReportError.
  void write(const ReportData& data);
};

// OUT/findings.json (docs/findings.schema.json): campaign, summary, runs
// with outcomes, findings with details and artifacts, and the bugs they
// form. Seeds are decimal strings (64-bit values do not survive JSON numbers
// in jq or JavaScript).
class JsonReporter : public Reporter {
 public:
  // 2: seeds are strings, findings carry scope and fingerprint, "bugs" added.
  static constexpr int kFindingsFormatVersion = 2;
  explicit JsonReporter(std::filesystem::path file = {}) : file_(std::move(file)) {}
  std::string render(const ReportData& data) const override;
  std::filesystem::path output_path(const ReportData& data) const override;

 private:
  std::filesystem::path file_;
};

// OUT/junit.xml, for CI test history: suite "points" has one testcase per
// campaign point (scale, parameters, noise; its repetitions are the runs),
// suite "bugs" one testcase per bug, named by its fingerprint. Names stay
// the same from night to night; classnames hold no dots from values.
// Testcases carry <properties> (seed, noise, replay command), one-line
// failure messages, and the details (runs, stacks, findings) in <system-out>.
class JunitReporter : public Reporter {
 public:
  explicit JunitReporter(std::filesystem::path file = {}) : file_(std::move(file)) {}
  std::string render(const ReportData& data) const override;
  std::filesystem::path output_path(const ReportData& data) const override;

 private:
  std::filesystem::path file_;
};

struct HtmlOptions {
  std::string dot_program = "dot";                 // Graphviz; missing -> the source is shown
  std::chrono::milliseconds dot_timeout{20000};
  // Chart.js (Debian's libjs-chart.js), inlined so the report works offline;
  // missing -> the charts are replaced by their tables.
  std::filesystem::path chartjs = "/usr/share/javascript/chart.js/chart.min.js";
  std::size_t tail_lines = 40;                     // of stderr/stdout per run
};

// OUT/report.html, self-contained and offline: inline CSS, SVG and scripts
// (Chart.js inlined, the copy buttons).
class HtmlReporter : public Reporter {
 public:
  explicit HtmlReporter(HtmlOptions options = {}, std::filesystem::path file = {})
      : options_(std::move(options)), file_(std::move(file)) {}
  // Drawing calls Graphviz per hang: the page is written at finalize only.
  bool streams() const override { return false; }
  std::string render(const ReportData& data) const override;
  std::filesystem::path output_path(const ReportData& data) const override;

 private:
  HtmlOptions options_;
  std::filesystem::path file_;
};

// JSON, JUnit and HTML reporters with default paths.
std::vector<std::unique_ptr<Reporter>> default_reporters();

// The reporters following a campaign while it runs (a RunListener of the
// engine): begin() when launching starts, report_run after every finished
// run, each step's files committed together (ReportFiles), so a campaign
// killed at any moment leaves findings.json and junit.xml that parse and
// list the runs finished so far. finalize stays with the caller, after the
// analysis (finalize_reports). Thread-safe.
class ReportStream : public RunListener {
 public:
  // A file that cannot be updated is said once on `log`, not thrown: the
  // runs go on and finalize_reports fails on it later.
  explicit ReportStream(const RunStore& store, std::vector<std::unique_ptr<Reporter>> reporters = default_reporters(),
                        std::ostream* log = nullptr);
  // The store's runs and the `planned` ones not stored yet (unfinished), and
  // the stored findings; the streaming reporters' files are written now.
  void begin(const std::vector<RunSpec>& planned);
  void run_finished(const RunSpec& spec, const Outcome& outcome) override;

 private:
  void stage_and_commit(const std::function<void(Reporter&, ReportFiles&)>& step);
  const RunStore& store_;
  std::vector<std::unique_ptr<Reporter>> reporters_;
  std::ostream* log_;
  std::mutex mutex_;
  ReportData data_;
  std::map<std::string, std::size_t> index_;  // run id -> data_.runs
  bool failed_ = false;
};

// finalize: every reporter's file for `data`, all put in place or none.
// `before_each` (if set) is told which file is drawn next, for a status
// line. Returns the files written; throws ReportError (no file changed).
std::vector<std::filesystem::path> finalize_reports(
    const ReportData& data, const std::vector<std::unique_ptr<Reporter>>& reporters,
    const std::function<void(const std::filesystem::path&)>& before_each = {});

}  // namespace scalefuzz::harness
