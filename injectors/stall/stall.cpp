#include "stall.hpp"
#include "scalefuzz/injector/env.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace scalefuzz::inject {

constinit bool g_stall_armed = false;

namespace {

long g_stall_call = 0;  // the call to stall at (1-based)
long g_calls = 0;       // intercepted calls so far
int g_rank = -1;

long env_number(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || v[0] == '\0') return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || x < 0) {
    std::fprintf(stderr, "scalefuzz stall: ignoring %s=%s (not a non-negative integer)\n", name, v);
    return -1;
  }
  return x;
}

// The marker the harness reads: written with plain syscalls (no allocation)
// and fsynced, since the process is killed while it sleeps.
void write_marker(const struct timespec& at) {
  const char* dir = injector::env_value(injector::Env::RunDir);
  if (dir == nullptr || dir[0] == '\0') return;
  char path[4096];
  if (std::snprintf(path, sizeof path, "%s/stall", dir) >= static_cast<int>(sizeof path)) return;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  char line[160];
  const int n = std::snprintf(line, sizeof line, "rank %d call %ld realtime_ns %lld\n", g_rank, g_stall_call,
                              static_cast<long long>(at.tv_sec) * 1000000000LL + at.tv_nsec);
  if (n > 0) {
    const ssize_t w = ::write(fd, line, static_cast<std::size_t>(n));
    (void)w;
  }
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void stall_start(int world_rank) {
  const long rank = env_number(injector::env_name(injector::Env::StallRank));
  const long call = env_number(injector::env_name(injector::Env::StallCall));
  g_rank = world_rank;
  g_calls = 0;
  g_stall_call = call;
  g_stall_armed = rank >= 0 && rank == world_rank && call >= 1;
}

void stall_count_call() {
  if (++g_calls < g_stall_call) return;
  g_stall_armed = false;
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  write_marker(now);
  // Stop progressing without burning the core the other (oversubscribed)
  // ranks need; the harness's timeout ends the run.
  for (;;) {
    struct timespec nap {0, 10 * 1000 * 1000};
    nanosleep(&nap, nullptr);
  }
}

}  // namespace scalefuzz::inject
