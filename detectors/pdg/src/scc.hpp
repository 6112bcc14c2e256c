// Strongly connected components of a graph in CSR form (iterative Tarjan, so
// a million vertices do not overflow the call stack).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace scalefuzz::detectors::pdg::detail {

struct Csr {
  std::vector<std::uint32_t> offset;  // size n + 1
  std::vector<std::uint32_t> target;
};

Csr make_csr(std::size_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

// Component id of every vertex; `count` receives the number of components.
std::vector<std::uint32_t> strong_components(const Csr& g, std::uint32_t& count);

}  // namespace scalefuzz::detectors::pdg::detail
