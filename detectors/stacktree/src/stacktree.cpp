#include "scalefuzz/detectors/stacktree.hpp"

#include "scalefuzz/detectors/finding.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace scalefuzz::detectors::stacktree {

namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The injector's frames: its sources live under injectors/, its code is in
// the scalefuzz namespace.
bool tool_frame(const Frame& f) {
  return f.file.find("/injectors/") != std::string::npos || f.function.rfind("scalefuzz::", 0) == 0 ||
         f.function.find("scalefuzz_") == 0;
}

// The C runtime's frames above main say nothing about the program.
bool startup_frame(const Frame& f) {
  return f.function == "_start" || f.function.rfind("__libc_start_", 0) == 0;
}

bool mpi_call(const Frame& f) { return f.function.rfind("MPI_", 0) == 0 || f.function.rfind("PMPI_", 0) == 0; }

std::string escape_dot(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string Frame::label() const {
  const std::string name = function.empty() ? address : function;
  if (file.empty() || line <= 0) return name;
  return name + " " + base_name(file) + ":" + std::to_string(line);
}

std::vector<Frame> parse_eu_stack(const std::string& text) {
  static const std::regex kPid(R"(^PID (\d+))");
  static const std::regex kTid(R"(^TID (\d+):)");
  static const std::regex kFrame(R"(^#\d+\s+(0x[0-9a-fA-F]+)(?:\s+(?:- \d+\s+)?(.+?))?\s*$)");
  static const std::regex kSource(R"(^\s+(\S+?):(\d+)(?::\d+)?\s*$)");
  std::istringstream in(text);
  std::string line, pid;
  std::map<std::string, std::vector<Frame>> threads;  // tid -> innermost first
  std::vector<std::string> order;
  std::string tid;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, kPid)) {
      pid = m[1];
    } else if (std::regex_search(line, m, kTid)) {
      tid = m[1];
      order.push_back(tid);
    } else if (!tid.empty() && std::regex_match(line, m, kFrame)) {
      Frame f;
      f.address = m[1];
      f.function = m[2].matched ? std::string(m[2]) : std::string();
      threads[tid].push_back(f);
    } else if (!tid.empty() && !threads[tid].empty() && std::regex_match(line, m, kSource)) {
      threads[tid].back().file = m[1];
      threads[tid].back().line = std::stoi(m[2]);
    }
  }
  if (order.empty()) return {};
  // The main thread: TID == PID; else the first one printed.
  const std::string main_tid = threads.count(pid) ? pid : order.front();
  std::vector<Frame> inner_first = threads[main_tid];
  // Innermost MPI call made by the application: frames inside it (the tool's
  // wrapper internals, PMPI, MPICH's progress engine) are dropped.
  std::vector<Frame> out;
  std::size_t start = 0;
  for (std::size_t i = inner_first.size(); i-- > 0;)
    if (mpi_call(inner_first[i]) ) {
      start = i;
      break;
    }
  for (std::size_t i = inner_first.size(); i-- > start;) {
    Frame f = inner_first[i];
    if (i == start && mpi_call(f)) {
      f.file.clear();  // the wrapper's source is the tool's, not the application's
      f.line = 0;
      if (f.function.rfind("PMPI_", 0) == 0) f.function = f.function.substr(1);
      out.push_back(f);
      continue;
    }
    if (tool_frame(f) || startup_frame(f)) continue;
    out.push_back(f);
  }
  return out;
}

std::string rank_set_text(const std::set<int>& ranks) { return rank_ranges({ranks.begin(), ranks.end()}); }

Node merge(const std::map<int, std::vector<Frame>>& stacks) {
  Node root;
  root.label = "all ranks";
  for (const auto& [rank, frames] : stacks) {
    root.ranks.insert(rank);
    Node* at = &root;
    for (const auto& f : frames) {
      const auto label = f.label();
      auto child = std::find_if(at->children.begin(), at->children.end(), [&](const Node& n) { return n.label == label; });
      if (child == at->children.end()) {
        at->children.push_back(Node{label, {}, {}});
        child = std::prev(at->children.end());
      }
      child->ranks.insert(rank);
      at = &*child;
    }
  }
  return root;
}

std::vector<EquivalenceClass> equivalence_classes(const std::map<int, std::vector<Frame>>& stacks) {
  std::map<std::vector<std::string>, std::set<int>> by_stack;
  for (const auto& [rank, frames] : stacks) {
    std::vector<std::string> labels;
    for (const auto& f : frames) labels.push_back(f.label());
    by_stack[labels].insert(rank);
  }
  std::vector<EquivalenceClass> out;
  for (auto& [labels, ranks] : by_stack) out.push_back({ranks, labels});
  std::stable_sort(out.begin(), out.end(), [](const EquivalenceClass& a, const EquivalenceClass& b) {
    if (a.ranks.size() != b.ranks.size()) return a.ranks.size() > b.ranks.size();
    return *a.ranks.begin() < *b.ranks.begin();
  });
  return out;
}

std::string to_dot(const Node& root, const std::string& title) {
  std::ostringstream s;
  s << "digraph stack_tree {\n  graph [rankdir=TB, fontname=\"sans-serif\", labelloc=t, label=\"" << escape_dot(title)
    << "\", nodesep=0.3, ranksep=0.45];\n"
    << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3f8\", fontname=\"sans-serif\", fontsize=11];\n"
    << "  edge [fontname=\"sans-serif\", fontsize=10, color=\"#5f6670\"];\n";
  int next_id = 0;
  const std::size_t all = root.ranks.size();
  // Edges carry the rank sets (STAT's convention); a node's width grows with
  // how many ranks pass through it so the big classes stand out.
  auto emit = [&](auto&& self, const Node& n, int id) -> void {
    for (const auto& c : n.children) {
      const int cid = ++next_id;
      const bool minority = c.ranks.size() < all;
      s << "  n" << cid << " [label=\"" << escape_dot(c.label) << "\""
        << (c.children.empty() ? ", fillcolor=\"#fde2e2\"" : "") << "];\n";
      s << "  n" << id << " -> n" << cid << " [label=\" " << c.ranks.size() << ": " << rank_set_text(c.ranks)
        << " \", penwidth=" << (1.0 + 2.0 * static_cast<double>(c.ranks.size()) / static_cast<double>(std::max<std::size_t>(all, 1)))
        << (minority ? ", color=\"#b71c1c\", fontcolor=\"#b71c1c\"" : "") << "];\n";
      self(self, c, cid);
    }
  };
  s << "  n0 [label=\"" << escape_dot(root.label) << " (" << all << ")\", shape=ellipse, fillcolor=\"#ffffff\"];\n";
  emit(emit, root, 0);
  s << "}\n";
  return s.str();
}

}  // namespace scalefuzz::detectors::stacktree
