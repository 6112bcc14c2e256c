// The techniques' rooms in report.html. Each registered detector names its
// section (analysis::DetectorInfo::report_section), drawn by the technique
// that owns it (DetectorInfo::section, detectors/<name>/report/). The page
// shows the sections of the detectors that reported something, in registry
// order, once each (several techniques may share one).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

using analysis::ReportSection;

// Every technique's own section, in registry order.
const std::vector<const ReportSection*>& report_sections();
// nullptr when no section has that id.
const ReportSection* find_report_section(std::string_view id);
// The sections of the registered detectors with a finding in `data`.
std::vector<const ReportSection*> sections_for(const ReportData& data);
// The section's HTML; its graphs rendered by `render_dot`.
std::string draw(const ReportSection& section, const ReportData& data,
                 const std::function<html_kit::RenderedGraph(const std::string&)>& render_dot);
// The style rules of the techniques' own sections.
std::string technique_css();
// When the section of the finding's detector draws this artifact itself: the
// card's link to it ("" = the card draws the artifact).
std::string drawn_in_section(const detectors::Finding& finding, const detectors::Artifact& artifact);
// The kind of finding as its technique names it in the bug headline
// (DetectorInfo::kind_labels), or "" when it names none.
std::string technique_kind_label(const detectors::Finding& finding);

}  // namespace scalefuzz::harness::html
