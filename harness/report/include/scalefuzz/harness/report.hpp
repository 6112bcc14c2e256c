// Reports of a campaign: one Reporter interface, one implementation per
// output format. Each reporter writes one file (atomically) into
// ReportData::out_dir unless given an explicit path.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/bugs.hpp"
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

// What the campaign engine tells the reporters while runs go (streaming):
// console progress is one listener, the file reporters are the others (they
// write their file once, at the end: Reporter::write).
class RunListener {
 public:
  virtual ~RunListener() = default;
  virtual void run_started(const RunSpec&) {}
  virtual void run_finished(const RunSpec&, const Outcome&) {}
  // Launching is over (all runs done, or interrupted).
  virtual void end() {}
};

class Reporter : public RunListener {
 public:
  // Throws ReportError when the file cannot be written.
  virtual void write(const ReportData& data) = 0;
  // Where write() puts its file for this data.
  virtual std::filesystem::path output_path(const ReportData& data) const = 0;
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
  void write(const ReportData& data) override;
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
  void write(const ReportData& data) override;
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
  void write(const ReportData& data) override;
  std::filesystem::path output_path(const ReportData& data) const override;
  // The document itself, for tests and for writing elsewhere.
  std::string render(const ReportData& data) const;

 private:
  HtmlOptions options_;
  std::filesystem::path file_;
};

// JSON, JUnit and HTML reporters with default paths.
std::vector<std::unique_ptr<Reporter>> default_reporters();

}  // namespace scalefuzz::harness
