#include "scalefuzz/engine/ddmin.hpp"

#include <algorithm>
#include <map>

namespace scalefuzz::engine {

DdminResult ddmin(std::size_t n, const std::function<TestResult(const std::vector<std::size_t>&)>& test,
                  std::size_t max_tests) {
  DdminResult out;
  std::vector<std::size_t> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = i;
  std::map<std::vector<std::size_t>, TestResult> cache;
  // Fail only when the oracle says so; a subset left untested for lack of
  // budget counts as not failing.
  auto fails = [&](const std::vector<std::size_t>& subset) {
    if (auto it = cache.find(subset); it != cache.end()) return it->second == TestResult::Fail;
    if (out.tests >= max_tests) {
      out.exhausted = true;
      return false;
    }
    ++out.tests;
    const TestResult r = test(subset);
    cache.emplace(subset, r);
    return r == TestResult::Fail;
  };
  std::size_t granularity = 2;
  while (c.size() >= 2) {
    granularity = std::min(granularity, c.size());
    // c split into `granularity` nearly equal, contiguous subsets.
    std::vector<std::vector<std::size_t>> parts(granularity);
    for (std::size_t i = 0, start = 0; i < granularity; ++i) {
      const std::size_t len = (c.size() - start) / (granularity - i);
      parts[i].assign(c.begin() + static_cast<long>(start), c.begin() + static_cast<long>(start + len));
      start += len;
    }
    bool reduced = false;
    for (const auto& part : parts)  // reduce to a subset
      if (fails(part)) {
        c = part;
        granularity = 2;
        reduced = true;
        break;
      }
    if (!reduced && granularity > 2)  // reduce to a complement (for 2 parts the complements are the subsets)
      for (std::size_t i = 0; i < granularity; ++i) {
        std::vector<std::size_t> complement;
        for (std::size_t j = 0; j < granularity; ++j)
          if (j != i) complement.insert(complement.end(), parts[j].begin(), parts[j].end());
        std::sort(complement.begin(), complement.end());
        if (fails(complement)) {
          c = complement;
          granularity = std::max<std::size_t>(granularity - 1, 2);
          reduced = true;
          break;
        }
      }
    if (reduced) continue;
    if (granularity >= c.size()) break;  // 1-minimal: no single element can go
    granularity = std::min(c.size(), granularity * 2);
  }
  out.minimal = c;
  return out;
}

}  // namespace scalefuzz::engine
