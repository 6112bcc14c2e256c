// STAT's stack prefix tree for a hung run: the ranks' stacks (taken by
// eu-stack while every rank was frozen) merged into one tree whose nodes
// carry the set of ranks whose stack passes through them, and the ranks
// grouped into equivalence classes (same stack). Arnold et al., "Stack Trace
// Analysis for Large Scale Debugging", IPDPS 2007, §3 (the 2D-trace/space
// prefix tree). Pure library: no MPI, no process access.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace scalefuzz::detectors::stacktree {

struct Frame {
  std::string function;  // "" when unknown: the address is kept
  std::string address;   // "0x..." as eu-stack printed it
  std::string file;      // full path from the debug info, "" if none
  int line = 0;
  // "function:line" (file's base name and line when known), the node label.
  std::string label() const;
};

// One rank's stack, outermost frame (main) first, as it matters to a reader:
// only the main thread (TID == PID; the tool's and MPI's helper threads are
// dropped), and the tool's own frames removed — the preloaded injector's
// frames (source under injectors/, or functions of the scalefuzz namespace)
// are cut (and the C runtime's _start/__libc_start_* above main), the
// intercepted MPI call stays as the innermost frame (MPI_Recv),
// and what the MPI library does below it is left out.
std::vector<Frame> parse_eu_stack(const std::string& text);

struct Node {
  std::string label;
  std::set<int> ranks;
  std::vector<Node> children;  // in first-seen order
};

// The prefix tree of the stacks (rank -> frames outermost first). The root
// is a synthetic node holding every rank.
Node merge(const std::map<int, std::vector<Frame>>& stacks);

// Ranks with identical stacks (by frame labels), largest class first.
struct EquivalenceClass {
  std::set<int> ranks;
  std::vector<std::string> frames;  // labels, outermost first
};
std::vector<EquivalenceClass> equivalence_classes(const std::map<int, std::vector<Frame>>& stacks);

// Graphviz source of the tree: edges labelled with the rank sets ("0-2,5"
// and the count), nodes with function:line.
std::string to_dot(const Node& root, const std::string& title);

// "0-3,7" for {0,1,2,3,7}.
std::string rank_set_text(const std::set<int>& ranks);

}  // namespace scalefuzz::detectors::stacktree
