// The "Data movement (DMTracker)" section of report.html: the broken and
// rare data-movement chains (FC-invariant violations) with where the data
// went astray, and per outlier process the paper's Distance^k per rank
// against the K x average line (§4.3.2, Eq. 5), drawn by Chart.js with the
// numbers in a table below.
#pragma once

#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="dmtracker">...</section>.
std::string dmtracker_section(const ReportData& data);

}  // namespace scalefuzz::harness::html
