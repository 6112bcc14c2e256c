// Graphviz rendering of the PDG and the findings built from it.
#include "render.hpp"
#include "scalefuzz/detectors/pdg/details.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace scalefuzz::detectors::pdg {
namespace detail {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string fixed2(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string state_text(const ProgramState& s, const PdgOptions& options) {
  if (options.state_label) return options.state_label(s);
  if (s.is_start) return "start (before the first MPI call)";
  return "MPI call site " + hex64(s.stable_hash);
}

std::string render_dot(const PdgResult& r, const PdgOptions& options) {
  std::ostringstream o;
  o << "digraph pdg {\n"
    << "  label=\"progress-dependence graph (" << to_string(r.variant)
    << "); an edge A -> B: A waits for B; LP tasks highlighted\";\n"
    << "  graph [fontname=\"Helvetica\", fontsize=12, labelloc=t, nodesep=0.7, ranksep=0.9, forcelabels=true];\n"
    << "  node [shape=box, fontname=\"Helvetica\", fontsize=11];\n"
    << "  edge [fontname=\"Helvetica\", fontsize=10, labelfloat=false, decorate=false];\n";
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    const PdgNode& n = r.nodes[i];
    std::string label = "tasks " + n.ranks_text + "\n" + state_text(n.where, options);
    if (n.visits > 0) label += "\nentered " + std::to_string(n.visits) + " times";
    label += "\n" + std::to_string(n.ranks.size()) + (n.ranks.size() == 1 ? " task, " : " tasks, ") +
             std::to_string(n.in_call) + " inside the call";
    o << "  n" << i << " [label=\"" << escape(label) << "\"";
    if (n.aborted)
      o << ", style=\"filled,bold\", fillcolor=\"#e06666\", penwidth=3, xlabel=\"called MPI_Abort\"";
    else if (n.lp)
      o << ", style=\"filled,bold\", fillcolor=\"#f6b26b\", penwidth=3";
    o << "];\n";
  }
  for (const PdgEdge& e : r.edges) {
    o << "  n" << e.from << " -> n" << e.to << " [";
    switch (e.kind) {
      case EdgeKind::Progress: {
        std::string label;
        if (e.p_forward && e.p_backward) label = "P=" + fixed2(*e.p_forward) + "/" + fixed2(*e.p_backward);
        if (e.by_visit_counts) label = "visit counts";
        o << "label=\"" << label << "\"";
        break;
      }
      case EdgeKind::Undefined: o << "label=\"?\", dir=none, style=dashed, color=gray40"; break;
      case EdgeKind::PointToPoint:
        o << "xlabel=\"p2p x" << e.tasks << "\", style=dotted, color=blue, fontcolor=blue";
        break;
    }
    o << "];\n";
  }
  o << "}\n";
  return o.str();
}

}  // namespace detail

std::vector<Finding> pdg_findings(const PdgResult& r, const std::string& run_id) {
  std::vector<Finding> out;
  nlohmann::json graph_nodes = nlohmann::json::array();
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    const PdgNode& n = r.nodes[i];
    graph_nodes.push_back({{"node", i},
                           {"tasks", n.ranks_text},
                           {"task_count", n.ranks.size()},
                           {"in_call", n.in_call},
                           {"stable_hash", n.where.is_start ? "start" : hex64(n.where.stable_hash)},
                           {"lp", n.lp},
                           {"aborted", n.aborted}});
  }
  nlohmann::json graph_edges = nlohmann::json::array();
  for (const PdgEdge& e : r.edges) {
    nlohmann::json je = {{"from", e.from}, {"to", e.to}, {"kind", to_string(e.kind)}};
    if (e.p_forward) je["p_forward"] = *e.p_forward;
    if (e.p_backward) je["p_backward"] = *e.p_backward;
    if (e.by_visit_counts) je["by_visit_counts"] = true;
    if (e.kind == EdgeKind::PointToPoint) je["tasks"] = e.tasks;
    graph_edges.push_back(std::move(je));
  }
  const std::string dot = r.dot;
  const bool aborted = !r.aborted_nodes.empty();
  std::size_t others = 0;  // tasks the abort stopped
  for (const auto& n : r.nodes) others += n.ranks.size();
  others -= r.aborted_tasks.size();
  for (std::size_t ni : aborted ? r.aborted_nodes : r.lp_nodes) {
    const PdgNode& n = r.nodes[ni];
    std::vector<int> tasks;
    for (int rank : aborted ? r.aborted_tasks : r.lp_tasks) {
      if (std::binary_search(n.ranks.begin(), n.ranks.end(), rank)) tasks.push_back(rank);
    }
    Finding f;
    f.detector = "pdg";
    f.kind = aborted ? "aborted-task" : "lp-task";
    f.severity = Severity::Error;
    f.run_id = run_id;
    const std::string where = n.in_call == n.ranks.size() ? "blocked in"
                              : n.in_call == 0            ? "computing after"
                                                          : "in or after";
    if (aborted)
      f.title = "task" + std::string(tasks.size() == 1 ? " " : "s ") + rank_ranges(tasks) +
                " called MPI_Abort at MPI call site " + hex64(n.where.stable_hash) + " (its own verdict; " +
                std::to_string(others) + " other task" + (others == 1 ? " was" : "s were") + " stopped by the abort)";
    else
      f.title = "least-progressed task" + std::string(tasks.size() == 1 ? " " : "s ") + rank_ranges(tasks) + " " +
                (n.where.is_start ? std::string("before its first MPI call")
                                  : where + " MPI call site " + hex64(n.where.stable_hash)) +
                " (" + std::to_string(r.lp_nodes.size()) + " LP group" + (r.lp_nodes.size() == 1 ? "" : "s") + ", " +
                std::to_string(r.nodes.size()) + " groups)";
    f.ranks = tasks;
    nlohmann::json site = {{"rank", n.site_rank},
                           {"id", n.site_id == kNoSite ? nlohmann::json(nullptr) : nlohmann::json(n.site_id)},
                           {"stable_hash", hex64(n.where.stable_hash)},
                           {"op", n.where.op},
                           {"start", n.where.is_start}};
    f.details = TaskDetails{.variant = to_string(r.variant),
                            .lp_tasks = rank_ranges(aborted ? r.lp_tasks : tasks),
                            .aborted_tasks = rank_ranges(r.aborted_tasks),
                            .node = ni,
                            .site = site,
                            .tasks_in_call = n.in_call,
                            .eliminated_tasks = rank_ranges(r.eliminated_tasks),
                            .graph = {{"nodes", graph_nodes}, {"edges", graph_edges}},
                            .notes = r.notes,
                            .code = nullptr};
    f.artifacts.push_back({"pdg", "text/vnd.graphviz", dot});
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace scalefuzz::detectors::pdg
