// CLOCK_REALTIME in ns, read through the TSC when it is invariant: rdtsc plus
// a per-thread anchor re-read from clock_gettime every ~1 ms (clock_gettime
// costs 2-3x an rdtsc on the measured VMs and is called twice per MPI call).
#pragma once

#include <x86intrin.h>

#include <cstdint>

namespace scalefuzz::inject {

// Calibrates the TSC rate (~2 ms); falls back to clock_gettime when the CPU
// lacks constant_tsc/nonstop_tsc or SCALEFUZZ_TSC_CLOCK=0.
void init_clock();

namespace clock_detail {
struct ThreadClock {
  std::uint64_t first_tsc, first_ns;    // long baseline for the rate
  std::uint64_t anchor_tsc, anchor_ns;  // last exact reading
  std::uint64_t last_ns;                // keeps the clock monotonic per thread
  double ns_per_tick;
  // ns_per_tick in 32.32 fixed point: the hot path multiplies integers
  // (~10 instructions less per reading than the conversions to and from
  // double). Ticks since the anchor stay below g_resync_ticks (~1 ms), so
  // the product stays below 2^53.
  std::uint64_t ns_per_tick_q32;
};
extern thread_local constinit ThreadClock tl_clock;
extern constinit bool g_use_tsc;
extern constinit std::uint64_t g_resync_ticks;
// clock_gettime, and the per-thread re-anchoring every ~1 ms.
std::uint64_t now_ns_slow();
}  // namespace clock_detail

// Inline: read 2-4 times per MPI call, the common case is rdtsc and a multiply.
inline std::uint64_t now_ns() {
  using namespace clock_detail;
  ThreadClock& c = tl_clock;
  std::uint64_t tsc;
  if (!g_use_tsc || c.first_ns == 0 || (tsc = __rdtsc()) - c.anchor_tsc > g_resync_ticks) [[unlikely]]
    return now_ns_slow();
  std::uint64_t t = c.anchor_ns + (((tsc - c.anchor_tsc) * c.ns_per_tick_q32) >> 32);
  if (t < c.last_ns) t = c.last_ns;
  c.last_ns = t;
  return t;
}

}  // namespace scalefuzz::inject
