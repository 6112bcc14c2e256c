// The races detector's section of report.html (races_section.cpp),
// registered with the detector (DetectorInfo::section).
#pragma once

#include <string>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::races {

// A complete <section id="races">...</section>; says so when nothing raced.
std::string races_section(const analysis::ReportInput& input);
// The section with its id, navigation text and style rules (DetectorInfo::section).
extern const analysis::ReportSection kReportSection;

}  // namespace scalefuzz::detectors::races
