// Symbolized names of call sites of any stored run, loaded lazily and
// cached: (run dir, rank, rank-local site id) -> "function (file:line)".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::analysis {

class SiteNames {
 public:
  explicit SiteNames(trace::Symbolizer& symbols) : symbols_(symbols) {}
  // Name of the innermost application frame of the site (falls back to the
  // innermost frame, then to "OP at site N").
  std::string name(const std::filesystem::path& run_dir, int rank, std::uint32_t site);
  // Full symbolized stack of the site, innermost first, one frame per line.
  std::string stack(const std::filesystem::path& run_dir, int rank, std::uint32_t site);

 private:
  const trace::RankTrace* load(const std::filesystem::path& run_dir, int rank);
  trace::Symbolizer& symbols_;
  std::mutex mutex_;
  std::map<std::pair<std::string, int>, trace::RankTrace> ranks_;
};

}  // namespace scalefuzz::analysis
