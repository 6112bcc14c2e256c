// The usage detector's section of report.html (usage_section.cpp),
// registered with the detector (DetectorInfo::section); the RMA checks show
// their findings here too (their report_section is "usage").
#pragma once

#include <string>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::usage {

// A complete <section id="usage">...</section>: one row per usage finding.
std::string usage_section(const analysis::ReportInput& input);
// The section with its id, navigation text and style rules (DetectorInfo::section).
extern const analysis::ReportSection kReportSection;

}  // namespace scalefuzz::detectors::usage
