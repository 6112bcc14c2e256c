// CLOCK_REALTIME in ns, read through the TSC when it is invariant: rdtsc plus
// a per-thread anchor re-read from clock_gettime every ~1 ms (clock_gettime
// costs 2-3x an rdtsc on the measured VMs and is called twice per MPI call).
#pragma once

#include <cstdint>

namespace scalefuzz::inject {

// Calibrates the TSC rate (~2 ms); falls back to clock_gettime when the CPU
// lacks constant_tsc/nonstop_tsc or SCALEFUZZ_TSC_CLOCK=0.
void init_clock();
std::uint64_t now_ns();

}  // namespace scalefuzz::inject
