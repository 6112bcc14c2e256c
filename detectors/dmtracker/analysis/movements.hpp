// A run's trace as DMTracker's data movements: matched messages, collective
// contributions, MPI_Pack/MPI_Unpack, with the allocation sites of their buffers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "scalefuzz/detectors/dmtracker.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::dmtracker {

// Movement::ref <-> (rank, event index) of the record that did the movement
// (the send for a message).
inline std::uint64_t make_ref(int rank, std::size_t index) {
  return (static_cast<std::uint64_t>(rank) << 40) | static_cast<std::uint64_t>(index);
}
inline int ref_rank(std::uint64_t ref) { return static_cast<int>(ref >> 40); }
inline std::size_t ref_index(std::uint64_t ref) { return static_cast<std::size_t>(ref & ((1ull << 40) - 1)); }

struct RunMovements {
  std::vector<Movement> moves;
  // Receive record of each message movement (same index as moves; SIZE_MAX
  // refs for others), for naming the receiving call site.
  std::vector<std::uint64_t> recv_refs;
  // Allocation site key -> one raw address of it per rank, for symbolizing.
  struct AllocSite {
    int rank = -1;
    std::uint64_t address = 0;
  };
  std::vector<std::pair<std::uint64_t, AllocSite>> alloc_sites;
  std::size_t heap_blocks = 0;  // allocation records read
  std::vector<std::string> warnings;
};

// `run_dir` holds ranks/N.allocs and ranks/N.modules (missing files mean
// unknown allocation sites, not an error).
RunMovements run_movements(const trace::RunTrace& run, const std::filesystem::path& run_dir);

}  // namespace scalefuzz::detectors::dmtracker
