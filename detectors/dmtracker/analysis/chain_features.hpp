// DMTracker's chain distribution offered to Vrisha's KCCA as observation
// features (issue 17; Vrisha §4.1 takes any per-process observable): per
// rank, the bytes that start chains of each chain type, the unnormalized
// Eq. 3 weighted by volume so it is commensurate with the call-site byte
// volumes it joins.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::dmtracker {

// The observation key of a chain type: derived from its type_key() so it
// never equals a call site's stable hash feature.
std::uint64_t chain_feature_key(std::uint64_t type_key);

// rank -> chain feature key -> bytes of the chains of that type the rank
// starts (a chain's bytes: its first movement's). `run_dir` holds the
// allocation logs (allocation sites are part of a chain type).
std::map<int, std::map<std::uint64_t, double>> chain_volumes(const trace::RunTrace& run,
                                                             const std::filesystem::path& run_dir);

}  // namespace scalefuzz::detectors::dmtracker
