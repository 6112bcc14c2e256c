// The techniques' rooms in report.html. Each registered detector names its
// section (analysis::DetectorInfo::report_section); this table says how each
// section is drawn (html_<technique>.cpp). The page shows the sections of
// the detectors that reported something, in registry order, once each
// (MPI-PD and the PDG share "hangs"). A new detector names an existing
// section or adds one line here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

struct ReportSection {
  const char* id;   // DetectorInfo::report_section, the <section id>
  const char* nav;  // its link in the page's navigation
  std::string (*render)(const ReportData& data, const HtmlOptions& options);
};

const std::vector<ReportSection>& report_sections();
// nullptr when no section has that id.
const ReportSection* find_report_section(std::string_view id);
// The sections of the registered detectors with a finding in `data`.
std::vector<const ReportSection*> sections_for(const ReportData& data);

}  // namespace scalefuzz::harness::html
