// The techniques' rooms in report.html. Each registered detector names its
// section (analysis::DetectorInfo::report_section): its own, drawn by the
// technique (DetectorInfo::section, detectors/<name>/report/), or one this
// table draws (html_<technique>.cpp; not yet moved to their techniques). The
// page shows the sections of the detectors that reported something, in
// registry order, once each (MPI-PD and the PDG share "hangs").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

struct ReportSection {
  const char* id;   // DetectorInfo::report_section, the <section id>
  const char* nav;  // its link in the page's navigation
  std::string (*render)(const ReportData& data, const HtmlOptions& options);  // null for a technique's own
  const analysis::ReportSection* technique = nullptr;                        // a technique's own section
};

const std::vector<ReportSection>& report_sections();
// nullptr when no section has that id.
const ReportSection* find_report_section(std::string_view id);
// The sections of the registered detectors with a finding in `data`.
std::vector<const ReportSection*> sections_for(const ReportData& data);
// The section's HTML.
std::string draw(const ReportSection& section, const ReportData& data, const HtmlOptions& options);
// The style rules of the techniques' own sections.
std::string technique_css();

}  // namespace scalefuzz::harness::html
