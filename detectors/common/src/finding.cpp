#include "scalefuzz/detectors/finding.hpp"

#include <algorithm>
#include <cstdio>

namespace scalefuzz::detectors {

std::string number_ranges(std::vector<long> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(values[i]);
    if (j > i) out += '-' + std::to_string(values[j]);
    i = j + 1;
  }
  return out;
}

std::string hex64(std::uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string rank_ranges(const std::vector<int>& ranks) { return number_ranges({ranks.begin(), ranks.end()}); }

}  // namespace scalefuzz::detectors
