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
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::harness {

struct ReportData {
  std::string campaign;
  std::filesystem::path out_dir;
  std::vector<RunRecord> runs;                    // as RunStore::runs() returns them
  std::vector<detectors::Finding> findings;
  std::string command_line;                        // how the campaign was run
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
  std::size_t findings = 0;
  std::size_t serious_findings = 0;                // severity warning or error
  std::map<std::string, std::size_t> findings_by_detector;
  // "findings" (a run not ok, or a warning/error finding), "incomplete"
  // (nothing wrong so far but runs are unfinished), else "clean" (info
  // findings alone keep a campaign clean).
  std::string verdict;
};
ReportSummary summarize(const ReportData& data);

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

// OUT/findings.json: campaign, summary, runs with outcomes, findings with
// details and artifacts.
class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::filesystem::path file = {}) : file_(std::move(file)) {}
  void write(const ReportData& data) override;
  std::filesystem::path output_path(const ReportData& data) const override;

 private:
  std::filesystem::path file_;
};

// OUT/junit.xml: one testsuite per (scale, noise) group, one testcase per run;
// runs that did not end ok and findings about a run are failures of its
// testcase (with the captured stacks); campaign-wide findings are testcases
// of their own suite.
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
  std::size_t tail_lines = 40;                     // of stderr/stdout per run
};

// OUT/report.html, self-contained (inline CSS and SVG, no scripts).
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
