// The "Nights" section of report.html: the trend ci/nightly.sh writes next to
// a night's results (OUT/trend.json: bugs per night, new and gone against the
// night before) and tonight's comparison (OUT/diff.json from `scalefuzz diff`
// or `run --baseline`). Absent files: no section.
#pragma once

#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="nights">...</section>, or "" when the output
// directory has neither trend.json nor diff.json (or they are unreadable).
std::string trend_section(const ReportData& data);

}  // namespace scalefuzz::harness::html
