// Heap blocks of a rank (ranks/N.allocs, see format.hpp) and the memory
// object a buffer address lies in at a given time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::trace {

// Reads run_dir/ranks/<rank>.allocs up to its last complete record (t_ns set).
// A missing file yields no records (older runs, SCALEFUZZ_ALLOCS=0); a file of
// another kind or version throws TraceError. At most `max_records` are read
// (a note goes to *warnings when the file holds more).
std::vector<AllocRecord> read_allocs(const std::filesystem::path& run_dir, int rank,
                                     std::vector<std::string>* warnings = nullptr,
                                     std::size_t max_records = std::size_t{1} << 24);

// Answers "which live heap block holds this address at time t" for queries
// made in nondecreasing time order (a sweep over the allocation log).
class HeapSweep {
 public:
  explicit HeapSweep(std::vector<AllocRecord> log);
  struct Block {
    std::uint64_t addr = 0, size = 0, site = 0;  // site 0: not a recorded heap block
    std::uint64_t serial = 0;  // 1 + the allocation record's index: tells a reused address's blocks apart
  };
  // Applies every record up to `t` and returns the block holding `addr`.
  Block at(std::uint64_t addr, std::uint64_t t);

 private:
  std::vector<AllocRecord> log_;
  std::size_t next_ = 0;
  std::map<std::uint64_t, Block> live_;  // by start address
};

}  // namespace scalefuzz::trace
