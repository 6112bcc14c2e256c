// The "Bugs" headline of report.html: one line per bug (harness/bugs'
// fingerprints), first thing on the
// page — what, where (function, file:line linked to its source snippet),
// which ranks, in how many runs and under which noise, the replay command
// (copy button) and links to the run directory's files.
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// The finding a bug's headline shows: for a failed run's outcome that a
// technique localized, the first localizer (it says what and where);
// otherwise the bug's first occurrence.
const detectors::Finding& representative(const ReportData& data, const bugs::Bug& bug);

// Human name of a finding kind: its technique's label (DetectorInfo::kind_labels,
// "message race"), the harness's own for how a run ended ("crash"), else the
// kind with '-' as ' '.
std::string bug_kind_label(const detectors::Finding& f);

// The <section id="bugs"> headline list: the serious bugs of `bugs`
// (report_bugs(data), the grouping findings.json and junit.xml use), in
// their order. A finding's card in the page is #finding-N, N its 1-based
// index in data.findings.
std::string headline_section(const ReportData& data, const std::vector<bugs::Bug>& bugs);

// Links to the files of a run directory that exist (spec.json, stdout.txt,
// stderr.txt, outcome.json, ranks/, stacks/), relative to report.html.
std::string run_file_links(const ReportData& data, const RunRecord& run);

// The replay command stored with a run (runs/<id>/replay.txt, written by
// `scalefuzz run`), or "" when it has none.
std::string replay_command(const RunRecord& run);

// A <div class="replay"> with the command and a copy button ("" if none).
std::string replay_block(const std::string& command);

}  // namespace scalefuzz::harness::html
