// The "MPI usage" section of report.html: one row per finding (what, where,
// ranks, run); the details stay in the finding's card.
#include "usage_section.hpp"

#include "scalefuzz/detectors/api/html_kit.hpp"

namespace scalefuzz::detectors::usage {

using html_kit::esc;

std::string usage_section(const analysis::ReportInput& data) {
  std::string rows;
  std::size_t serious = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const auto& f = data.findings[i];
    if (f.detector != "usage") continue;
    serious += f.severity != Severity::Info;
    rows += "<tr class=\"sev-" + std::string(to_string(f.severity)) + "\" data-kind=\"" + esc(f.kind) +
            "\"><td><a href=\"#finding-" + std::to_string(i + 1) + "\">" + esc(f.kind) + "</a></td><td><code>" +
            esc(f.location) + "</code></td><td class=\"ranks\">" + esc(rank_ranges(f.ranks)) + "</td><td><code>" +
            esc(f.run_id) + "</code></td><td>" + esc(f.title) + "</td></tr>\n";
  }
  return "<section id=\"usage\"><h2>MPI usage: " + std::to_string(serious) + " error" + (serious == 1 ? "" : "s") +
         " or warning" + (serious == 1 ? "" : "s") +
         "</h2>\n<table class=\"usage\" id=\"usage-table\">\n<thead><tr><th>kind</th><th>where</th><th>ranks</th>"
         "<th>run</th><th>what</th></tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n</section>\n";
}

const analysis::ReportSection kReportSection{"usage", "MPI usage", usage_section, ""};

}  // namespace scalefuzz::detectors::usage
