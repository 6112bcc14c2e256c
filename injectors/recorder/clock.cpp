#include "clock.hpp"

#include <time.h>
#include <x86intrin.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::inject {

namespace clock_detail {
constinit bool g_use_tsc = false;
constinit std::uint64_t g_resync_ticks = 0;
thread_local constinit ThreadClock tl_clock{};
}  // namespace clock_detail

using namespace clock_detail;

namespace {
constinit double g_ns_per_tick = 0;  // calibrated at init, refined per thread

std::uint64_t realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

bool invariant_tsc() {
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return false;
  char line[4096];
  bool constant = false, nonstop = false;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "flags", 5) != 0) continue;
    constant = std::strstr(line, " constant_tsc") != nullptr;
    nonstop = std::strstr(line, " nonstop_tsc") != nullptr;
    break;
  }
  std::fclose(f);
  return constant && nonstop;
}
}  // namespace

void init_clock() {
  if (!injector::env_on_unless_zero(injector::Env::TscClock) || !invariant_tsc()) return;
  std::uint64_t n0 = realtime_ns(), t0 = __rdtsc(), n1 = n0, t1 = t0;
  while (n1 - n0 < 2000000) {  // 2 ms baseline
    n1 = realtime_ns();
    t1 = __rdtsc();
  }
  if (t1 <= t0) return;
  g_ns_per_tick = static_cast<double>(n1 - n0) / static_cast<double>(t1 - t0);
  g_resync_ticks = static_cast<std::uint64_t>(1000000 / g_ns_per_tick);  // ~1 ms
  g_use_tsc = g_ns_per_tick > 0;
}

std::uint64_t clock_detail::now_ns_slow() {
  if (!g_use_tsc) return realtime_ns();
  ThreadClock& c = tl_clock;
  std::uint64_t tsc = __rdtsc();
  if (c.first_ns == 0 || tsc - c.anchor_tsc > g_resync_ticks) {
    std::uint64_t ns = realtime_ns();
    tsc = __rdtsc();
    if (c.first_ns == 0) {
      c.first_ns = ns;
      c.first_tsc = tsc;
      c.ns_per_tick = g_ns_per_tick;
    } else if (tsc > c.first_tsc && ns > c.first_ns + 100000000) {  // refine over >= 100 ms
      c.ns_per_tick = static_cast<double>(ns - c.first_ns) / static_cast<double>(tsc - c.first_tsc);
    }
    c.ns_per_tick_q32 = static_cast<std::uint64_t>(c.ns_per_tick * 4294967296.0);
    c.anchor_ns = ns;
    c.anchor_tsc = tsc;
  }
  std::uint64_t t = c.anchor_ns + (((tsc - c.anchor_tsc) * c.ns_per_tick_q32) >> 32);
  if (t < c.last_ns) t = c.last_ns;
  c.last_ns = t;
  return t;
}

}  // namespace scalefuzz::inject
