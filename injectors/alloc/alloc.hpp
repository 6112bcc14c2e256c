// Heap-block log of the application (ranks/N.allocs), written by the
// interposed allocator in alloc.cpp.
#pragma once

#include <cstdint>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

// Opens `path` (at MPI_Init, after the clock is set up) and writes the blocks
// kept in memory since the process started, timed `t_start`. Honours
// SCALEFUZZ_ALLOCS=0 (off), SCALEFUZZ_ALLOC_MIN_BYTES, SCALEFUZZ_ALLOC_MAX_RECORDS.
void alloc_log_start(const char* path, const trace::FileHeader& header, std::uint64_t t_start);
// At MPI_Finalize: stops recording and shrinks the file to what was written.
void alloc_log_stop();
// Window memory (MPI_Win_create's base, until MPI_Win_free): a free() of the
// block at `base` is recorded whatever its size, so that the rma checks see
// window memory freed before its window (rma-window-memory-freed) below
// SCALEFUZZ_ALLOC_MIN_BYTES too. At most 64 watched at once.
void alloc_watch(const void* base);
void alloc_unwatch(const void* base);

}  // namespace scalefuzz::inject
