#include "scc.hpp"

#include <algorithm>

namespace scalefuzz::detectors::pdg::detail {

Csr make_csr(std::size_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  Csr g;
  g.offset.assign(n + 1, 0);
  for (const auto& e : edges) ++g.offset[e.first + 1];
  for (std::size_t v = 0; v < n; ++v) g.offset[v + 1] += g.offset[v];
  g.target.resize(edges.size());
  std::vector<std::uint32_t> fill(g.offset.begin(), g.offset.end() - 1);
  for (const auto& e : edges) g.target[fill[e.first]++] = e.second;
  return g;
}

std::vector<std::uint32_t> strong_components(const Csr& g, std::uint32_t& count) {
  constexpr std::uint32_t kUnseen = 0xFFFFFFFFu;
  const std::size_t n = g.offset.size() - 1;
  std::vector<std::uint32_t> index(n, kUnseen), low(n, 0), comp(n, kUnseen);
  std::vector<char> on_stack(n, 0);
  std::vector<std::uint32_t> stack;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> frames;  // (vertex, next edge)
  std::uint32_t counter = 0;
  count = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnseen) continue;
    auto enter = [&](std::uint32_t v) {
      index[v] = low[v] = counter++;
      stack.push_back(v);
      on_stack[v] = 1;
      frames.emplace_back(v, g.offset[v]);
    };
    enter(root);
    while (!frames.empty()) {
      auto& [v, pos] = frames.back();
      if (pos < g.offset[v + 1]) {
        const std::uint32_t w = g.target[pos++];
        if (index[w] == kUnseen) {
          enter(w);  // invalidates v/pos: loop re-reads frames.back()
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      frames.pop_back();
      if (!frames.empty()) {
        const std::uint32_t parent = frames.back().first;
        low[parent] = std::min(low[parent], low[done]);
      }
      if (low[done] == index[done]) {
        std::uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          comp[w] = count;
        } while (w != done);
        ++count;
      }
    }
  }
  return comp;
}

}  // namespace scalefuzz::detectors::pdg::detail
