// KCCA's section of report.html (kcca_section.cpp), registered with the
// detector (DetectorInfo::section).
#pragma once

#include <string>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::kcca {

// A complete <section id="scale-models">...</section>.
std::string kcca_section(const analysis::ReportInput& input);
// The section with its id, navigation text and style rules (DetectorInfo::section).
extern const analysis::ReportSection kReportSection;

}  // namespace scalefuzz::detectors::kcca
