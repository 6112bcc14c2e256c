// DMTracker's section of report.html (dmtracker_section.cpp), registered
// with the detector (DetectorInfo::section).
#pragma once

#include <string>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::dmtracker {

// A complete <section id="dmtracker">...</section>: the broken or rare chains
// and a Distance^k chart per outlier process.
std::string dmtracker_section(const analysis::ReportInput& input);
// The section with its id, navigation text and style rules (DetectorInfo::section).
extern const analysis::ReportSection kReportSection;

}  // namespace scalefuzz::detectors::dmtracker
