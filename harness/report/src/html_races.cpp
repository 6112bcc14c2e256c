#include "html_races.hpp"

#include <nlohmann/json.hpp>

#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

std::string esc(std::string_view s) { return text::xml_escape(s); }

std::string field(const nlohmann::json& details, const char* key) {
  if (!details.is_object() || !details.contains(key)) return "";
  const auto& v = details.at(key);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

std::string races_section(const ReportData& data) {
  std::string unintended, orders;
  std::size_t n_unintended = 0, n_orders = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const auto& f = data.findings[i];
    if (f.detector != "races") continue;
    const auto& d = f.details;
    if (f.kind == "unintended-match") {
      ++n_unintended;
      unintended += "<tr class=\"race\" data-noise=\"" + esc(field(d, "noise")) + "\"><td><code>" +
                    esc(field(d, "receive_routine")) + "</code></td><td><code>" + esc(field(d, "send_routine")) +
                    "</code></td><td class=\"num\">" + esc(field(d, "tag")) + "</td><td class=\"num\">" +
                    esc(d.contains("communicator_name") ? field(d, "communicator_name") : field(d, "communicator")) +
                    "</td><td class=\"num\">" + esc(field(d, "sending_rank")) +
                    " &#8594; " + esc(field(d, "receiving_rank")) + "</td><td>" + esc(field(d, "noise")) +
                    "</td><td class=\"num\">" + esc(field(d, "occurrences_in_run")) + "</td><td><a href=\"#finding-" +
                    std::to_string(i + 1) + "\"><code>" + esc(f.run_id) + "</code></a></td></tr>\n";
    } else if (f.kind == "nondeterministic-matching") {
      ++n_orders;
      orders += "<li>" + esc(field(d, "campaign_point")) + ": " + esc(field(d, "distinct_order_hashes")) +
                " matching orders in " + esc(field(d, "runs")) + " runs (" + esc(field(d, "quiet_runs")) +
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
  if (n_orders > 0) out += "<h3>Nondeterministic matching order</h3>\n<ul class=\"orders\">\n" + orders + "</ul>\n";
  return out + "</section>\n";
}

}  // namespace scalefuzz::harness::html
