#include "scalefuzz/detectors/pdg/markov_chain.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz::detectors::pdg {

constexpr EnumName<PathClass> kPathClassNames[] = {
    {PathClass::Zero, "0"}, {PathClass::Partial, "0<P<1"}, {PathClass::One, "1"}};

const char* to_string(PathClass c) { return name_of(kPathClassNames, c); }

void merge_transitions(std::vector<Transition>& transitions) {
  std::sort(transitions.begin(), transitions.end(), [](const Transition& a, const Transition& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  std::size_t w = 0;
  for (std::size_t r = 0; r < transitions.size(); ++r) {
    if (w > 0 && transitions[w - 1].from == transitions[r].from && transitions[w - 1].to == transitions[r].to) {
      transitions[w - 1].count += transitions[r].count;
    } else {
      transitions[w++] = transitions[r];
    }
  }
  transitions.resize(w);
}

MarkovChain::MarkovChain(std::size_t states, std::span<const Transition> transitions) {
  std::vector<Transition> edges;
  edges.reserve(transitions.size());
  for (const Transition& t : transitions) {
    if (t.from >= states || t.to >= states) {
      throw std::invalid_argument("MarkovChain: transition " + std::to_string(t.from) + " -> " +
                                  std::to_string(t.to) + " names a state outside 0.." +
                                  std::to_string(states) + ")");
    }
    if (t.count > 0) edges.push_back(t);
  }
  merge_transitions(edges);

  out_offset_.assign(states + 1, 0);
  in_offset_.assign(states + 1, 0);
  for (const Transition& t : edges) {
    ++out_offset_[t.from + 1];
    ++in_offset_[t.to + 1];
  }
  for (std::size_t s = 0; s < states; ++s) {
    out_offset_[s + 1] += out_offset_[s];
    in_offset_[s + 1] += in_offset_[s];
  }
  out_to_.resize(edges.size());
  out_p_.resize(edges.size());
  in_from_.resize(edges.size());
  std::vector<std::uint64_t> row_total(states, 0);
  for (const Transition& t : edges) row_total[t.from] += t.count;
  std::vector<std::uint32_t> in_fill(in_offset_.begin(), in_offset_.end() - 1);
  for (std::size_t e = 0; e < edges.size(); ++e) {  // edges are sorted by from: CSR order
    const Transition& t = edges[e];
    out_to_[e] = t.to;
    out_p_[e] = static_cast<double>(t.count) / static_cast<double>(row_total[t.from]);
    in_from_[in_fill[t.to]++] = t.from;
  }
}

double MarkovChain::probability(std::uint32_t from, std::uint32_t to) const {
  if (from >= size() || to >= size()) return 0.0;
  for (std::uint32_t e = out_offset_[from]; e < out_offset_[from + 1]; ++e) {
    if (out_to_[e] == to) return out_p_[e];
  }
  return 0.0;
}

Hitting MarkovChain::hitting(std::uint32_t dest) const {
  const std::size_t n = size();
  if (dest >= n) throw std::out_of_range("MarkovChain::hitting: no state " + std::to_string(dest));

  // States that can reach dest (reverse search from dest).
  std::vector<char> reaches(n, 0);
  std::vector<std::uint32_t> stack{dest};
  reaches[dest] = 1;
  while (!stack.empty()) {
    const std::uint32_t s = stack.back();
    stack.pop_back();
    for (std::uint32_t e = in_offset_[s]; e < in_offset_[s + 1]; ++e) {
      const std::uint32_t p = in_from_[e];
      if (!reaches[p]) {
        reaches[p] = 1;
        stack.push_back(p);
      }
    }
  }

  // States with a path, not through dest, into a state that cannot reach
  // dest: their hitting probability is below one.
  std::vector<char> leaks(n, 0);
  for (std::uint32_t s = 0; s < n; ++s) {
    if (!reaches[s]) {
      leaks[s] = 1;
      stack.push_back(s);
    }
  }
  while (!stack.empty()) {
    const std::uint32_t s = stack.back();
    stack.pop_back();
    for (std::uint32_t e = in_offset_[s]; e < in_offset_[s + 1]; ++e) {
      const std::uint32_t p = in_from_[e];
      if (p != dest && !leaks[p]) {
        leaks[p] = 1;
        stack.push_back(p);
      }
    }
  }

  Hitting h;
  h.probability.assign(n, 0.0);
  h.cls.assign(n, PathClass::Zero);
  h.probability[dest] = 1.0;
  h.cls[dest] = PathClass::One;

  // Unknowns: states that reach dest and may miss it.
  std::vector<std::int32_t> index(n, -1);
  std::vector<std::uint32_t> unknowns;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (s == dest || !reaches[s]) continue;
    if (leaks[s]) {
      index[s] = static_cast<std::int32_t>(unknowns.size());
      unknowns.push_back(s);
    } else {
      h.probability[s] = 1.0;
      h.cls[s] = PathClass::One;
    }
  }
  if (unknowns.empty()) return h;

  // h_i = sum_k P(i,k) h_k with h_dest = 1, h = 1 on the One states and 0 on
  // the states that cannot reach dest: (I - Q) x = b.
  const auto m = static_cast<Eigen::Index>(unknowns.size());
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::VectorXd b = Eigen::VectorXd::Zero(m);
  for (Eigen::Index r = 0; r < m; ++r) {
    const std::uint32_t s = unknowns[static_cast<std::size_t>(r)];
    triplets.emplace_back(r, r, 1.0);
    for (std::uint32_t e = out_offset_[s]; e < out_offset_[s + 1]; ++e) {
      const std::uint32_t k = out_to_[e];
      if (index[k] >= 0) {
        triplets.emplace_back(r, index[k], -out_p_[e]);
      } else if (h.cls[k] == PathClass::One) {  // dest or a state sure to reach it
        b[r] += out_p_[e];
      }
    }
  }
  Eigen::SparseMatrix<double> a(m, m);
  a.setFromTriplets(triplets.begin(), triplets.end());  // sums duplicate diagonal entries (self loops)
  a.makeCompressed();
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  lu.compute(a);
  if (lu.info() != Eigen::Success) {
    throw std::runtime_error("MarkovChain::hitting: singular system for destination " +
                             std::to_string(dest) + ": " + lu.lastErrorMessage());
  }
  const Eigen::VectorXd x = lu.solve(b);
  for (Eigen::Index r = 0; r < m; ++r) {
    const std::uint32_t s = unknowns[static_cast<std::size_t>(r)];
    // Reaches dest but leaks: strictly between 0 and 1; clamp rounding only.
    h.probability[s] = std::clamp(x[r], 0.0, 1.0);
    h.cls[s] = PathClass::Partial;
  }
  return h;
}

}  // namespace scalefuzz::detectors::pdg
