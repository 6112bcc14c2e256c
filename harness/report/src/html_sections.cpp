#include "html_sections.hpp"

#include <algorithm>
#include <set>

#include "html_dmtracker.hpp"
#include "html_kcca.hpp"
#include "html_localize.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using text::esc;

// MPI usage errors: one row per finding (what, where, ranks, run); the
// details stay in the finding's card.
std::string usage_section(const ReportData& data, const HtmlOptions&) {
  std::string rows;
  std::size_t serious = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const auto& f = data.findings[i];
    if (f.detector != "usage") continue;
    serious += f.severity != detectors::Severity::Info;
    rows += "<tr class=\"sev-" + std::string(detectors::to_string(f.severity)) + "\" data-kind=\"" + esc(f.kind) +
            "\"><td><a href=\"#finding-" + std::to_string(i + 1) + "\">" + esc(f.kind) + "</a></td><td><code>" +
            esc(f.location) + "</code></td><td class=\"ranks\">" + esc(detectors::rank_ranges(f.ranks)) +
            "</td><td><code>" + esc(f.run_id) + "</code></td><td>" + esc(f.title) + "</td></tr>\n";
  }
  return "<section id=\"usage\"><h2>MPI usage: " + std::to_string(serious) + " error" + (serious == 1 ? "" : "s") +
         " or warning" + (serious == 1 ? "" : "s") +
         "</h2>\n<table class=\"usage\" id=\"usage-table\">\n<thead><tr><th>kind</th><th>where</th><th>ranks</th>"
         "<th>run</th><th>what</th></tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n</section>\n";
}

}  // namespace

const std::vector<ReportSection>& report_sections() {
  static const std::vector<ReportSection> table = [] {
    std::vector<ReportSection> t = {
      {"scale-models", "Scale models", [](const ReportData& d, const HtmlOptions&) { return kcca_section(d); }},
      {"dmtracker", "Data movement", [](const ReportData& d, const HtmlOptions&) { return dmtracker_section(d); }},
      {"hangs", "Hangs and crashes",
       [](const ReportData& d, const HtmlOptions& o) { return localize_section(d, o.dot_program, o.dot_timeout); }},
      {"usage", "MPI usage", usage_section},
    };
    for (const auto& info : analysis::registry())
      if (info.section) t.push_back({info.section->id, info.section->nav, nullptr, info.section});
    return t;
  }();
  return table;
}

std::string draw(const ReportSection& section, const ReportData& data, const HtmlOptions& options) {
  if (!section.technique) return section.render(data, options);
  const std::vector<analysis::RunInfo> runs = analysis::run_infos(data.runs);
  return section.technique->render({data.findings, runs});
}

std::string technique_css() {
  std::string css;
  for (const auto& s : report_sections())
    if (s.technique) css += s.technique->css;
  return css;
}

const ReportSection* find_report_section(std::string_view id) {
  for (const auto& s : report_sections())
    if (id == s.id) return &s;
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

}  // namespace scalefuzz::harness::html
