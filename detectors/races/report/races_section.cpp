// The "Races" section of report.html: every unintended match the races
// detector reported (the two routines, tag, communicator, ranks, the noise
// that exposed it, the run), runs exposing a race per noise mode, and the
// campaign points whose matching order changed between runs.
#include "races_section.hpp"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/api/html_kit.hpp"
#include "scalefuzz/detectors/race_details.hpp"

namespace scalefuzz::detectors::races {

namespace {

using html_kit::chart_figure;
using html_kit::esc;

// Per noise mode: how many runs showed at least one unintended match.
std::string exposure_chart(const analysis::ReportInput& data) {
  std::vector<std::string> noises;
  std::map<std::string, std::size_t> runs_of, exposed_of;
  std::map<std::string, std::string> noise_of_run;
  for (const auto& r : data.runs) {
    const auto& n = r.noise;
    if (!runs_of.count(n)) noises.push_back(n);
    ++runs_of[n];
    noise_of_run[r.id] = n;
  }
  std::set<std::string> exposed_runs;
  for (const auto& f : data.findings)
    if (f.detector == "races" && f.kind == "unintended-match" && exposed_runs.insert(f.run_id).second)
      if (auto it = noise_of_run.find(f.run_id); it != noise_of_run.end()) ++exposed_of[it->second];
  if (noises.empty()) return "";
  nlohmann::json exposed = nlohmann::json::array(), quiet = nlohmann::json::array();
  std::string rows;
  for (const auto& n : noises) {
    exposed.push_back(exposed_of[n]);
    quiet.push_back(runs_of[n] - exposed_of[n]);
    rows += "<tr data-noise=\"" + esc(n) + "\"><td>" + esc(n) + "</td><td class=\"num\">" +
            std::to_string(exposed_of[n]) + " of " + std::to_string(runs_of[n]) + "</td></tr>";
  }
  const nlohmann::json config = {
      {"type", "bar"},
      {"data",
       {{"labels", noises},
        {"datasets",
         {{{"label", "runs with an unintended match"}, {"data", exposed}, {"backgroundColor", "#b71c1c"}},
          {{"label", "runs without"}, {"data", quiet}, {"backgroundColor", "#9ecae1"}}}}}},
      {"options",
       {{"indexAxis", "y"},
        {"scales",
         {{"x", {{"stacked", true}, {"ticks", {{"precision", 0}}}, {"title", {{"display", true}, {"text", "runs"}}}}},
          {"y", {{"stacked", true}, {"title", {{"display", true}, {"text", "noise"}}}}}}}}}};
  return chart_figure("chart-race-exposure", "Race exposure per noise mode", config,
                      120 + 36 * static_cast<int>(noises.size())) +
         "<table class=\"exposure\" id=\"race-exposure\"><thead><tr><th>noise</th><th>runs exposing a race</th></tr>"
         "</thead><tbody>" + rows + "</tbody></table>\n";
}

}  // namespace

std::string races_section(const analysis::ReportInput& data) {
  std::string unintended, orders;
  std::size_t n_unintended = 0, n_orders = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const auto& f = data.findings[i];
    if (f.detector != "races") continue;
    if (f.kind == "unintended-match") {
      ++n_unintended;
      const auto d = f.details.get<UnintendedMatchDetails>();
      unintended += "<tr class=\"race\" data-noise=\"" + esc(d.noise) + "\"><td><code>" + esc(d.receive_routine) +
                    "</code></td><td><code>" + esc(d.send_routine) + "</code></td><td class=\"num\">" +
                    std::to_string(d.tag) + "</td><td class=\"num\">" +
                    esc(d.communicator_name.empty() ? std::to_string(d.communicator) : d.communicator_name) +
                    "</td><td class=\"num\">" + std::to_string(d.sending_rank) + " &#8594; " +
                    std::to_string(d.receiving_rank) + "</td><td>" + esc(d.noise) + "</td><td class=\"num\">" +
                    std::to_string(d.occurrences_in_run) + "</td><td><a href=\"#finding-" + std::to_string(i + 1) +
                    "\"><code>" + esc(f.run_id) + "</code></a></td></tr>\n";
    } else if (f.kind == "nondeterministic-matching") {
      ++n_orders;
      const auto d = f.details.get<NondeterministicMatchingDetails>();
      orders += "<li>" + esc(d.campaign_point) + ": " + std::to_string(d.distinct_order_hashes) +
                " matching orders in " + std::to_string(d.runs) + " runs (" + std::to_string(d.quiet_runs) +
                " quiet)</li>\n";
    }
  }
  std::string out = "<section id=\"races\"><h2>Races (" + std::to_string(n_unintended) + " unintended matches)</h2>\n";
  out += "<p class=\"muted\">A receive matched by a send from a call site it never matched in the quiet "
         "(noise: none) runs of the same campaign point. Without quiet runs nothing can be judged.</p>\n";
  if (n_unintended == 0) {
    out += "<p class=\"none\">No unintended message match.</p>\n";
  } else {
    out += "<table class=\"races\" id=\"races-table\">\n<thead><tr><th>receive (routine)</th><th>matched send "
           "(routine)</th><th>tag</th><th>comm</th><th>ranks send &#8594; recv</th><th>exposed by noise</th>"
           "<th>times in run</th><th>run</th></tr></thead>\n<tbody>\n" +
           unintended + "</tbody></table>\n";
  }
  out += exposure_chart(data);
  if (n_orders > 0) out += "<h3>Nondeterministic matching order</h3>\n<ul class=\"orders\">\n" + orders + "</ul>\n";
  return out + "</section>\n";
}

const analysis::ReportSection kReportSection{
    "races", "Races", races_section,
    "table.races { width: 100%; font-size: 13px; } table.races td code { overflow-wrap: anywhere; }\n"
    "table.exposure { font-size: 13px; margin: 6px 0; }\n"};

}  // namespace scalefuzz::detectors::races
