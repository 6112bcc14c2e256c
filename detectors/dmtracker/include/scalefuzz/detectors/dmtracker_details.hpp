// Typed details of the DMTracker findings the report section draws: the
// detector writes them once (to_json, into Finding::details) and the section
// reads them back typed (from_json). Missing keys read as their defaults (a
// hand-written or older finding).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace scalefuzz::detectors::dmtracker {

// kind "outlier-process": a rank whose chain distribution is far from every peer's.
struct OutlierProcessDetails {
  double distance_k = 0;          // its distance to the k-th nearest rank
  double average = 0;             // the average Distance^k over the ranks
  std::size_t k = 0;
  double factor = 0;              // outlier above factor x average
  int nearest_kth_rank = -1;
  std::string phase = "whole run";  // or "last 1/2", "last 1/4", ...
  nlohmann::json top_group;       // {uniqueness, chains, first_movement}: the group that differs most
  std::map<std::string, double> distance_k_per_rank;  // rank (as text) -> Distance^k
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OutlierProcessDetails, distance_k, average, k, factor,
                                                nearest_kth_rank, phase, top_group, distance_k_per_rank)

}  // namespace scalefuzz::detectors::dmtracker
