// The "Scale models (Vrisha)" section of report.html: the trained KCCA model
// (scales, threshold, cross-validated false-positive rate), the test runs it
// flagged with their divergence point, and one correlation plot per test scale
// with the threshold line (the paper's Figure 5).
#pragma once

#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="scale-models">...</section>.
std::string kcca_section(const ReportData& data);

}  // namespace scalefuzz::harness::html
