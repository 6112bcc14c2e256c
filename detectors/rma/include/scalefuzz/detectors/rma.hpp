// One-sided communication checks on a recorded run (issue 33): epoch errors,
// leaked windows, and RMA data races (conflicting accesses to window memory
// no synchronization orders, origin buffers touched before completion).
// Pure functions over trace::RunTrace (format 4 records) and the injector's
// side files; the issues are the usage checks' (detectors/usage), so the
// findings look alike.
#pragma once

#include <cstdint>
#include <vector>

#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::rma {

using usage::Issue;
using usage::Side;

// An access of a rank's own code to memory of one of its windows, caught by
// the injector's page protection (guard_windows; ranks/N.winaccess).
struct WindowAccess {
  std::uint32_t window = 0;
  bool write = false;
  std::uint64_t seq = 0;  // the rank's last record before the access
  // The accessing thread (0: the rank runs one thread; guard_windows then
  // opens the pages for every MPI call), the time of the fault and the time
  // the access ran (later when the injector held the thread; the records'
  // clock). With threads the records of the rank's other threads are
  // ordered against the access by time only: those that returned before the
  // fault came first, those entered after the access came after, the others
  // overlap it (nothing the held thread did can order them).
  std::uint64_t thread = 0;
  std::uint64_t t_fault_ns = 0;
  std::uint64_t t_access_ns = 0;
  std::uint64_t address = 0;
  std::vector<std::uint64_t> frames;  // innermost first (frames[0]: the faulting pc + 1)
};
using WindowAccesses = std::vector<std::vector<WindowAccess>>;  // per rank

struct Options {
  // The run ended by itself: the at-finalize checks (leaked windows, epochs
  // never closed, fences some members never called) only make sense then.
  bool run_completed = true;
  // ranks/N.modified: origin buffers of Put/Accumulate... changed before completion.
  const usage::ModifiedSends* modified = nullptr;
  // ranks/N.accessed: buffers of a Get (result buffers) touched before completion.
  const usage::ReceiveAccesses* accessed = nullptr;
  // ranks/N.winaccess: loads and stores of window memory.
  const WindowAccesses* window_accesses = nullptr;
  // ranks/N.allocs (the interposed allocator's log), per rank: a heap block
  // exposed by MPI_Win_create freed before MPI_Win_free.
  const std::vector<std::vector<trace::AllocRecord>>* allocs = nullptr;
};

// Finding kinds (README):
//   rma-outside-epoch, rma-unmatched-sync, rma-sync-misuse, rma-free-in-epoch,
//   leaked-window, rma-out-of-window, rma-type-mismatch, rma-overlapping-windows,
//   rma-conflict, rma-origin-buffer, rma-window-memory-freed
std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options = {});

// True when the run has one-sided records at all (nothing to do otherwise).
bool has_rma(const trace::RunTrace& run);

}  // namespace scalefuzz::detectors::rma
