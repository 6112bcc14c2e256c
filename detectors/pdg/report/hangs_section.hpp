// The "Hangs and crashes" section of report.html (hangs_section.cpp), owned
// by the PDG and shared with MPI-PD (its report_section is "hangs").
#pragma once

#include <string>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::detectors::pdg {

// A complete <section id="hangs">...</section>.
std::string hangs_section(const analysis::ReportInput& input);
// The section with its id, navigation text and style rules (DetectorInfo::section).
extern const analysis::ReportSection kReportSection;

}  // namespace scalefuzz::detectors::pdg
