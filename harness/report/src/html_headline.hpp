// The "Bugs" headline of report.html: one line per bug, first thing on the
// page — what, where (function, file:line linked to its source snippet),
// which ranks, in how many runs and under which noise, the replay command
// (copy button) and links to the run directory's files.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// One bug: the findings that describe the same defect.
struct Bug {
  std::string what;                               // "deadlock", "message race", ...
  std::string detector, kind, location;           // of the representative finding
  std::vector<std::string> detectors;             // every detector that reported it
  detectors::Severity severity = detectors::Severity::Error;
  std::vector<const detectors::Finding*> findings;  // representative first
  std::vector<std::string> runs;                  // distinct run ids, in finding order
  std::set<int> ranks;
  std::set<std::string> noises;                   // noise labels of those runs
};

// Findings grouped into bugs, most serious first. Until the nightly
// fingerprints land this is one bug per distinct (detector, kind, location);
// informational findings are not bugs, and a run's generic outcome finding
// ("hang", "crashed") folds into a localizing finding of the same run.
// Swap this function for the fingerprint grouping when it exists.
std::vector<Bug> group_into_bugs(const ReportData& data);

// Human name of a finding kind: "deadlock", "message race", "scale anomaly".
std::string bug_kind_label(const detectors::Finding& f);

// The <section id="bugs"> headline list. A finding's card in the page is
// #finding-N, N its 1-based index in data.findings.
std::string headline_section(const ReportData& data, const std::vector<Bug>& bugs);

// Links to the files of a run directory that exist (spec.json, stdout.txt,
// stderr.txt, outcome.json, ranks/, stacks/), relative to report.html.
std::string run_file_links(const ReportData& data, const RunRecord& run);

// The replay command stored with a run (runs/<id>/replay.txt, written by
// `scalefuzz run`), or "" when it has none.
std::string replay_command(const RunRecord& run);

// A <div class="replay"> with the command and a copy button ("" if none).
std::string replay_block(const std::string& command);

}  // namespace scalefuzz::harness::html
