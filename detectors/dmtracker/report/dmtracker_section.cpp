// The "Data movement (DMTracker)" section of report.html: the broken or rare
// chains (chain violations) and, per outlier process, its Distance^k chart.
#include "dmtracker_section.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/api/html_kit.hpp"
#include "scalefuzz/detectors/dmtracker_details.hpp"

namespace scalefuzz::detectors::dmtracker {

namespace {

using html_kit::chart_figure;
using html_kit::esc;
using html_kit::fixed3;
using nlohmann::json;

// Distance^k of every rank (details.distance_k_per_rank, keyed by rank) as
// a bar chart, the outlier ranks red, with the line a rank must pass to be
// an outlier (factor x average).
std::string distance_chart(const Finding& f, std::size_t index) {
  if (!f.details.is_object()) return "";
  const auto d = html_kit::details_as<OutlierProcessDetails>(f.details);
  std::map<int, double> by_rank;
  for (const auto& [rank, value] : d.distance_k_per_rank) by_rank[std::stoi(rank)] = value;
  if (by_rank.empty()) return "";
  const std::set<int> outliers(f.ranks.begin(), f.ranks.end());
  const double limit = d.factor * d.average;
  const std::string k = std::to_string(d.k);
  json labels = json::array(), values = json::array(), colours = json::array(), line = json::array();
  std::string rows;
  for (const auto& [rank, value] : by_rank) {
    labels.push_back("rank " + std::to_string(rank));
    values.push_back(std::round(value * 1e4) / 1e4);
    colours.push_back(outliers.count(rank) ? "#b30000" : "#5b8def");
    line.push_back(std::round(limit * 1e4) / 1e4);
    rows += "<tr" + std::string(outliers.count(rank) ? " class=\"outlier\"" : "") + "><td class=\"num\">" +
            std::to_string(rank) + "</td><td class=\"num\">" + fixed3(value) + "</td></tr>";
  }
  json datasets = json::array();
  datasets.push_back({{"type", "line"}, {"label", "outlier above: " + fixed3(d.factor) + " x average"},
                      {"data", line}, {"borderColor", "#d62728"}, {"borderDash", {6, 4}}, {"pointRadius", 0},
                      {"borderWidth", 2}});
  datasets.push_back({{"type", "bar"}, {"label", "Distance^" + k + " (red: outlier)"}, {"data", values},
                      {"backgroundColor", colours}});
  const json config = {
      {"type", "bar"},
      {"data", {{"labels", labels}, {"datasets", datasets}}},
      {"options",
       {{"plugins", {{"legend", {{"position", "bottom"}}}}},
        {"scales",
         {{"x", {{"title", {{"display", true}, {"text", "rank"}}}}},
          {"y", {{"beginAtZero", true},
                 {"title", {{"display", true}, {"text", "distance to the " + k + "-th nearest rank"}}}}}}}}}};
  const std::string id = "chart-dmtracker-" + std::to_string(index + 1);
  return "<div class=\"dmtracker-plot\" data-run=\"" + esc(f.run_id) + "\">" +
         chart_figure(id, f.run_id + ": Distance^" + k + " per rank (" + d.phase + ")",
                      config, 260) +
         "<details><summary>the numbers</summary><table class=\"dmtracker-distances\"><thead><tr><th>rank</th>"
         "<th>Distance^" + esc(k) + "</th></tr></thead><tbody>" + rows + "</tbody></table></details></div>\n";
}

std::string violation_row(const Finding& f, std::size_t index) {
  return "<tr data-kind=\"" + esc(f.kind) + "\"><td><a href=\"#finding-" + std::to_string(index + 1) + "\">" +
         esc(f.kind) + "</a></td><td><code>" + esc(f.location) + "</code></td><td class=\"ranks\">" +
         esc(rank_ranges(f.ranks)) + "</td><td><code>" + esc(f.run_id) + "</code></td><td>" + esc(f.title) +
         "</td></tr>\n";
}

// The Distance^k SVG of an outlier is drawn by Chart.js here; its card links here.
std::string artifact_drawn_here(const Finding&, const detectors::Artifact& a) {
  return a.name == "dmtracker-distance-k" ? "Distance^k chart: Data movement" : "";
}

}  // namespace

std::string dmtracker_section(const analysis::ReportInput& data) {
  std::string summary, rows, plots;
  std::size_t violations = 0, outliers = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const Finding& f = data.findings[i];
    if (f.detector != "dmtracker") continue;
    if (f.kind == "summary") summary += "<p class=\"model-summary\">" + esc(f.title) + "</p>\n";
    else if (f.kind == "outlier-process") {
      ++outliers;
      plots += distance_chart(f, i);
    } else {
      ++violations;
      rows += violation_row(f, i);
    }
  }
  std::string out = "<section id=\"dmtracker\"><h2>Data movement (DMTracker): " + std::to_string(violations) +
                    " chain violation" + (violations == 1 ? "" : "s") + ", " + std::to_string(outliers) +
                    " outlier process" + (outliers == 1 ? "" : "es") + "</h2>\n";
  out += "<p class=\"muted\">Data movements (sends, receives, copies between heap blocks) form chains; the chain "
         "shapes most runs share are invariants. A chain that starts like an invariant and moves the data elsewhere "
         "is broken; a process whose mix of chains is far from every peer's (its distance to the k-th nearest rank "
         "above K times the average) is an outlier.</p>\n";
  out += summary;
  if (rows.empty()) out += "<p class=\"none\">No broken or rare chain.</p>\n";
  else
    out += "<table class=\"dmtracker\" id=\"dmtracker-table\">\n<thead><tr><th>kind</th><th>where</th><th>ranks</th>"
           "<th>run</th><th>what</th></tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n";
  if (!plots.empty()) out += "<h3>Outlier processes</h3>\n" + plots;
  return out + "</section>\n";
}

const analysis::ReportSection kReportSection{"dmtracker", "Data movement", dmtracker_section, "",
                                             artifact_drawn_here};

}  // namespace scalefuzz::detectors::dmtracker
