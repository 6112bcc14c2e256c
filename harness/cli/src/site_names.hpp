// Symbolized names of call sites, loaded lazily from stored runs and cached:
// (run dir, rank, rank-local site id) -> "function (file:line)".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::cli {

class SiteNames {
 public:
  // Name of the innermost application frame of the site (falls back to the
  // innermost frame, then to "site N").
  std::string name(const std::filesystem::path& run_dir, int rank, std::uint32_t site);
  // Full symbolized stack of the site, innermost first, one frame per line.
  std::string stack(const std::filesystem::path& run_dir, int rank, std::uint32_t site);

 private:
  const trace::RankTrace* load(const std::filesystem::path& run_dir, int rank);
  std::mutex mutex_;
  std::map<std::pair<std::string, int>, trace::RankTrace> ranks_;
};

}  // namespace scalefuzz::cli
