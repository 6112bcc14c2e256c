// The memory objects holding a run's buffers, for the usage detector's
// extent and C-type checks (detectors/usage/src/buffers.cpp): heap blocks
// from the allocator log (ranks/N.allocs), globals and static locals from
// the modules' DWARF, stack variables from the DWARF of the calling function
// with the caller's stack and frame pointer from ranks/N.frames. No
// recompilation (MUST needs TypeART's compiler pass for the same checks);
// programs without debug information just get no objects.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "scalefuzz/detectors/usage.hpp"

namespace scalefuzz::detectors::usage {

class MemoryObjects {
 public:
  // Reads what `run_dir` holds for the ranks of `trace` (missing files: no
  // objects of that kind).
  MemoryObjects(const std::filesystem::path& run_dir, const trace::RunTrace& trace);
  ~MemoryObjects();
  MemoryObjects(const MemoryObjects&) = delete;
  MemoryObjects& operator=(const MemoryObjects&) = delete;

  // The object holding `address` for rank `rank`'s record `event`. Queries
  // of one rank must come in nondecreasing event order (a heap sweep).
  std::optional<MemoryObject> find(int rank, std::size_t event, std::uint64_t address);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scalefuzz::detectors::usage
