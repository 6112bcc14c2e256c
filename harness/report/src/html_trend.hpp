// The "Nights" section of report.html: the trend ci/nightly.sh writes next to
// a night's results (OUT/trend.json: bugs per night, new and gone against the
// night before) and tonight's comparison (OUT/diff.json from `scalefuzz diff`
// or `run --baseline`). Absent files: no section.
#pragma once

#include <optional>
#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="nights">...</section>, or "" when the output
// directory has neither trend.json nor diff.json (or they are unreadable).
std::string trend_section(const ReportData& data);

// Tonight's job verdict from OUT/diff.json (`scalefuzz diff` or `run
// --baseline`): whether the job fails under its --fail-on, and why. The
// banner shows it: a night whose bugs are all old passes (issue 34).
struct JobVerdict {
  bool fails = false;
  std::string fail_on;          // "new", "any", "never"
  long long new_bugs = 0;
  long long still_there = 0;
};
std::optional<JobVerdict> job_verdict(const ReportData& data);

}  // namespace scalefuzz::harness::html
