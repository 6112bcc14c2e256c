#include "html_sections.hpp"

#include <algorithm>
#include <set>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

// The section drawing the findings of `detector`, or nullptr.
const ReportSection* section_of(const std::string& detector) {
  const auto* info = analysis::find_detector(detector);
  return info ? find_report_section(info->report_section) : nullptr;
}

}  // namespace

const std::vector<const ReportSection*>& report_sections() {
  static const std::vector<const ReportSection*> table = [] {
    std::vector<const ReportSection*> t;
    for (const auto& info : analysis::registry())
      if (info.section && std::find(t.begin(), t.end(), info.section) == t.end()) t.push_back(info.section);
    return t;
  }();
  return table;
}

std::string draw(const ReportSection& section, const ReportData& data,
                 const std::function<html_kit::RenderedGraph(const std::string&)>& render_dot) {
  const std::vector<analysis::RunInfo> runs = analysis::run_infos(data.runs);
  analysis::ReportInput input{data.findings, runs};
  for (const auto& r : data.runs)
    if (r.outcome && !r.outcome->stacks.empty())
      for (const auto& s : r.outcome->stacks) input.stacks[r.spec.run_id].push_back({s.rank, s.text});
  input.render_dot = render_dot;
  return section.render(input);
}

std::string technique_css() {
  std::string css;
  for (const auto* s : report_sections()) css += s->css;
  return css;
}

const ReportSection* find_report_section(std::string_view id) {
  for (const auto* s : report_sections())
    if (id == s->id) return s;
  return nullptr;
}

std::vector<const ReportSection*> sections_for(const ReportData& data) {
  std::set<std::string> reporting;
  for (const auto& f : data.findings) reporting.insert(f.detector);
  std::vector<const ReportSection*> out;
  for (const auto& info : analysis::registry()) {
    if (!reporting.count(info.name)) continue;
    const ReportSection* section = find_report_section(info.report_section);
    if (section && std::find(out.begin(), out.end(), section) == out.end()) out.push_back(section);
  }
  return out;
}

std::string drawn_in_section(const detectors::Finding& finding, const detectors::Artifact& artifact) {
  const ReportSection* section = section_of(finding.detector);
  if (!section || !section->drawn_here) return "";
  const std::string link = section->drawn_here(finding, artifact);
  if (link.empty()) return "";
  return "<p class=\"muted\"><a href=\"#" + std::string(section->id) + "\">" + text::esc(link) + "</a></p>\n";
}

std::string technique_kind_label(const detectors::Finding& finding) {
  const auto* info = analysis::find_detector(finding.detector);
  if (!info || !info->kind_labels) return "";
  for (const auto* k = info->kind_labels; k->kind; ++k)
    if (finding.kind == k->kind) return k->label;
  return "";
}

}  // namespace scalefuzz::harness::html
