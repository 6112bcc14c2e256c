#include "html_localize.hpp"

#include <map>
#include <sstream>

#include "graphviz.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using detectors::Finding;
std::string esc(std::string_view s) { return text::xml_escape(s); }

bool is_localize(const Finding& f) { return f.detector == "mpipd" || f.detector == "pdg"; }

const detectors::Artifact* find_artifact(const Finding& f, const std::string& name) {
  for (const auto& a : f.artifacts)
    if (a.name == name) return &a;
  return nullptr;
}

void code_block(std::ostringstream& out, const nlohmann::json& details) {
  if (!details.contains("code") || !details["code"].is_object()) return;
  const auto& code = details["code"];
  out << "<p class=\"code-location\">at <code>" << esc(code.value("location", std::string())) << "</code></p>\n";
  if (!code.contains("source")) return;
  out << "<pre class=\"source-snippet\">";
  for (const auto& l : code["source"]) {
    const bool current = l.value("current", false);
    out << (current ? "<b>&gt; " : "  ") << l.value("line", 0) << " | " << esc(l.value("text", std::string()))
        << (current ? "</b>" : "") << "\n";
  }
  out << "</pre>\n";
}

}  // namespace

bool has_localize_findings(const ReportData& data) {
  for (const auto& f : data.findings)
    if (is_localize(f)) return true;
  return false;
}

std::string localize_section(const ReportData& data, const std::string& dot_program,
                             std::chrono::milliseconds dot_timeout) {
  std::map<std::string, std::vector<const Finding*>> by_run;  // run id order
  for (const auto& f : data.findings)
    if (is_localize(f)) by_run[f.run_id].push_back(&f);
  std::ostringstream out;
  out << "<section id=\"hangs\"><h2>Hangs and crashes (" << by_run.size() << " runs localized)</h2>\n";
  if (by_run.empty()) out << "<p class=\"none\">No hung or crashed run was localized.</p>\n";
  for (const auto& [run_id, findings] : by_run) {
    out << "<article class=\"localized-run\" data-run=\"" << esc(run_id) << "\"><h3>" << esc(run_id) << "</h3>\n";
    for (const Finding* f : findings) {
      if (f->detector == "mpipd") {
        out << "<h4>MPI-PreDebugger</h4>\n<p>situation <b class=\"situation\">" << esc(f->kind)
            << "</b>, faulty processes <b class=\"faulty\">" << esc(detectors::rank_ranges(f->ranks)) << "</b></p>\n";
        if (f->details.contains("explanation"))
          out << "<p>" << esc(f->details["explanation"].get<std::string>()) << "</p>\n";
        code_block(out, f->details);
        if (const auto* t = find_artifact(*f, "mpipd-timeline")) {
          const auto svg = svg_element(t->content);
          if (!svg.empty()) out << "<div class=\"svg-wrap timeline\">" << svg << "</div>\n";
        }
      } else if (f->kind == "lp-task") {
        out << "<h4>Progress-dependence graph</h4>\n<p>least-progressed task(s) <b class=\"lp-tasks\">"
            << esc(detectors::rank_ranges(f->ranks)) << "</b>: " << esc(f->title) << "</p>\n";
        code_block(out, f->details);
        if (const auto* g = find_artifact(*f, "pdg")) {
          DotRender r = render_dot(g->content, dot_program, dot_timeout);
          if (r.ok) out << "<div class=\"svg-wrap graph\">" << r.svg << "</div>\n";
          else out << "<p class=\"warn\">PDG not rendered: " << esc(r.error) << "</p><pre>" << esc(g->content) << "</pre>\n";
        }
      } else {
        out << "<p class=\"warn\">" << esc(f->title) << "</p>\n";
      }
    }
    out << "</article>\n";
  }
  out << "</section>\n";
  return out.str();
}

}  // namespace scalefuzz::harness::html
