// The "Hangs and crashes" section of report.html, shared by MPI-PD and the
// PDG (MPI-PD's report_section names it): per run they analysed, the failure
// situation, the faulty processes, the timeline, the progress-dependence
// graph and the least-progressed task(s) with their code location and source
// lines, and STAT's merged stack tree of a hung run. Graphs are rendered by
// the harness (ReportInput::render_dot).
#include "hangs_section.hpp"

#include <map>
#include <sstream>

#include "scalefuzz/detectors/api/code_location.hpp"
#include "scalefuzz/detectors/api/html_kit.hpp"
#include "scalefuzz/detectors/mpipd_details.hpp"
#include "scalefuzz/detectors/pdg/details.hpp"
#include "scalefuzz/detectors/stacktree.hpp"

namespace scalefuzz::detectors::pdg {

namespace {

using html_kit::esc;

bool is_localize(const Finding& f) { return f.detector == "mpipd" || f.detector == "pdg"; }

const detectors::Artifact* find_artifact(const Finding& f, const std::string& name) {
  for (const auto& a : f.artifacts)
    if (a.name == name) return &a;
  return nullptr;
}

// The code location the glue added to a finding (details.code), with its source lines.
void code_block(std::ostringstream& out, const nlohmann::json& code_json) {
  if (!code_json.is_object()) return;
  const auto code = code_json.get<analysis::CodeLocation>();
  out << "<p class=\"code-location\">at <code>" << esc(code.location) << "</code></p>\n";
  if (!code_json.contains("source")) return;
  out << "<pre class=\"source-snippet\">";
  for (const auto& l : code.source)
    out << (l.current ? "<b>&gt; " : "  ") << l.line << " | " << esc(l.text) << (l.current ? "</b>" : "") << "\n";
  out << "</pre>\n";
}

html_kit::RenderedGraph render(const analysis::ReportInput& data, const std::string& dot) {
  if (data.render_dot) return data.render_dot(dot);
  return {false, "", "no graph renderer"};
}

// STAT's merged stack tree of a hung run and its equivalence classes.
void stack_tree(std::ostringstream& out, const analysis::ReportInput& data, const std::string& run_id) {
  namespace st = detectors::stacktree;
  const auto it = data.stacks.find(run_id);
  if (it == data.stacks.end() || it->second.empty()) return;
  std::map<int, std::vector<st::Frame>> stacks;
  for (const auto& s : it->second)
    if (s.rank >= 0) {
      auto frames = st::parse_eu_stack(s.text);
      if (!frames.empty()) stacks[s.rank] = std::move(frames);
    }
  if (stacks.empty()) return;
  const auto classes = st::equivalence_classes(stacks);
  out << "<h4>Merged stacks at the hang</h4>\n<p class=\"muted\">The " << stacks.size()
      << " ranks' main-thread stacks merged into one prefix tree (STAT); edges carry the ranks that pass through, "
         "the scalefuzz injector's frames, helper threads and MPI's internals are left out. "
      << classes.size() << " equivalence class" << (classes.size() == 1 ? "" : "es") << ".</p>\n";
  const auto r = render(data, st::to_dot(st::merge(stacks), "stacks of " + run_id));
  if (r.ok) out << "<div class=\"svg-wrap graph stack-tree\">" << r.svg << "</div>\n";
  else out << "<p class=\"warn\">stack tree not rendered: " << esc(r.error) << "</p>\n";
  out << "<table class=\"classes\"><thead><tr><th>ranks</th><th>stack (outermost first)</th></tr></thead><tbody>\n";
  for (const auto& c : classes) {
    std::string frames;
    for (const auto& f : c.frames) frames += (frames.empty() ? "" : " \u2192 ") + f;
    out << "<tr class=\"class\" data-ranks=\"" << esc(st::rank_set_text(c.ranks)) << "\"><td class=\"num\">"
        << esc(st::rank_set_text(c.ranks)) << " <span class=\"muted\">(" << c.ranks.size() << ")</span></td><td><code>"
        << esc(frames) << "</code></td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

std::string hangs_section(const analysis::ReportInput& data) {
  std::map<std::string, std::vector<const Finding*>> by_run;  // run id order
  std::vector<const Finding*> campaign_notes;                 // about no single run (e.g. stall accuracy)
  for (const auto& f : data.findings)
    if (is_localize(f)) (f.run_id.empty() ? campaign_notes.push_back(&f) : by_run[f.run_id].push_back(&f));
  std::ostringstream out;
  out << "<section id=\"hangs\"><h2>Hangs and crashes (" << by_run.size() << " run" << (by_run.size() == 1 ? "" : "s")
      << " localized)</h2>\n";
  for (const Finding* f : campaign_notes)
    out << "<p class=\"campaign-note\"><b>campaign:</b> " << esc(f->title) << "</p>\n";
  if (by_run.empty()) out << "<p class=\"none\">No hung or crashed run was localized.</p>\n";
  for (const auto& [run_id, findings] : by_run) {
    out << "<article class=\"localized-run\" data-run=\"" << esc(run_id) << "\"><h3>" << esc(run_id) << "</h3>\n";
    for (const Finding* f : findings) {
      if (f->detector == "mpipd") {
        out << "<h4>MPI-PreDebugger</h4>\n<p>situation <b class=\"situation\">" << esc(f->kind)
            << "</b>, faulty processes <b class=\"faulty\">" << esc(rank_ranges(f->ranks)) << "</b></p>\n";
        const auto d = html_kit::details_as<mpipd::SituationDetails>(f->details);
        if (f->details.contains("explanation")) out << "<p>" << esc(d.explanation) << "</p>\n";
        code_block(out, d.code);
        if (const auto* t = find_artifact(*f, "mpipd-timeline")) {
          const auto svg = html_kit::svg_element(t->content);
          if (!svg.empty()) out << "<div class=\"svg-wrap timeline\">" << svg << "</div>\n";
        }
      } else if (f->kind == "lp-task" || f->kind == "aborted-task") {
        out << "<h4>Progress-dependence graph</h4>\n<p>"
            << (f->kind == "lp-task" ? "least-progressed task(s) <b class=\"lp-tasks\">"
                                     : "task(s) that called MPI_Abort <b class=\"aborted-tasks\">")
            << esc(rank_ranges(f->ranks)) << "</b>: " << esc(f->title) << "</p>\n";
        code_block(out, html_kit::details_as<TaskDetails>(f->details).code);
        if (const auto* g = find_artifact(*f, "pdg")) {
          const auto r = render(data, g->content);
          if (r.ok) out << "<div class=\"svg-wrap graph\">" << r.svg << "</div>\n";
          else out << "<p class=\"warn\">PDG not rendered: " << esc(r.error) << "</p><pre>" << esc(g->content) << "</pre>\n";
        }
      } else {
        out << "<p class=\"warn\">" << esc(f->title) << "</p>\n";
      }
    }
    stack_tree(out, data, run_id);
    out << "</article>\n";
  }
  out << "</section>\n";
  return out.str();
}

const analysis::ReportSection kReportSection{
    "hangs", "Hangs and crashes", hangs_section,
    ".svg-wrap.timeline { overflow-x: auto; overflow-y: hidden; max-width: 100%; }\n"
    ".svg-wrap.timeline svg { max-width: none; height: auto; }\n"
    "table.classes { font-size: 13px; margin: 6px 0; width: 100%; } table.classes code { overflow-wrap: anywhere; }\n"
    ".campaign-note { background: #eef3f8; border-left: 4px solid #24527a; padding: 6px 10px; }\n"};

}  // namespace scalefuzz::detectors::pdg
