// Allocator interposition: heap blocks of the application with the call site
// that allocated them (ranks/N.allocs, see trace/format.hpp). DMTracker groups
// chains by the allocation sites of their buffers (§4.3); the usage checks
// find the memory object a buffer lies in.
//
// Cost is what decides the design (measured in bench/dmtracker):
// - The real allocator is glibc's __libc_* entry points: no dlsym, so no
//   recursion while the dynamic linker itself allocates.
// - Blocks below SCALEFUZZ_ALLOC_MIN_BYTES (64) are not recorded: a message
//   buffer smaller than that is almost always on the stack or global.
// - The site is the allocator's return address, one load. Only when it lies
//   in libc or libstdc++ (operator new, strdup, std::vector) a short
//   unw_backtrace finds the first application frame. Blocks whose first frame
//   outside those lies in MPI, its transports or this library are MPI's own.
// - A record is 40 bytes stored into a memory-mapped file (sparse, like the
//   events file), so a killed rank keeps every record completed before.
#include "alloc.hpp"
#include "scalefuzz/injector/env.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "clock.hpp"
#include "scalefuzz/trace/header.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void __libc_free(void*);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace scalefuzz::inject {
namespace {

using trace::AllocKind;
using trace::AllocRecord;

// Address ranges of loaded objects, classified once at start.
enum class Owner : std::uint8_t {
  App,
  Self,
  Runtime,  // libc, libstdc++: look deeper
  Mpi,      // MPI and its transports (and the dynamic linker)
  System,   // any other system library: allocates for itself
};
struct Range {
  std::uintptr_t begin, end;
  Owner owner;
};
constexpr int kMaxRanges = 64;
Range g_ranges[kMaxRanges];
int g_nranges = 0;

// Before MPI_Init no file exists yet: keep the first blocks in memory.
constexpr int kEarly = 4096;
AllocRecord g_early[kEarly];
int g_nearly = 0;

AllocRecord* g_records = nullptr;  // the mapped file's records
std::uint64_t g_capacity = 0;
std::uint64_t g_next = 0;
std::uint64_t g_dropped = 0;
std::size_t g_min_bytes = 64;
// No block smaller than this was ever recorded (min of the default before
// MPI_Init and SCALEFUZZ_ALLOC_MIN_BYTES after): free() of a smaller one
// returns before the live table.
std::size_t g_free_min_bytes = 64;
std::size_t g_map_bytes = 0;
int g_fd = -1;
bool g_active = false;   // writing to the file
bool g_stopped = false;  // after MPI_Finalize: nothing more
bool g_enabled_env = true;

thread_local bool tl_in_hook = false;

bool has(const char* s, const char* part) { return std::strstr(s, part) != nullptr; }

// The main program and libraries outside the system's library directories
// are the application; libc, libstdc++ and libgcc_s allocate on its behalf
// (operator new, strdup, containers); MPI, its transports and every other
// system library (libnl ...) allocate for themselves. MPI is told apart
// because it never frees the application's blocks (see free()).
Owner classify(const char* path) {
  const char* base = std::strrchr(path, '/');
  base = base != nullptr ? base + 1 : path;
  if (has(base, "libscalefuzz")) return Owner::Self;
  if (has(base, "libc.so") || has(base, "libstdc++") || has(base, "libgcc_s")) return Owner::Runtime;
  static const char* const kMpiLibs[] = {"libmpi", "libpmi", "libucp", "libuct", "libucs", "libucm", "libfabric",
                                         "libpsm", "libhwloc", "libopen-pal", "libopen-rte", "libpmix", "libprrte",
                                         "linux-vdso", "ld-linux"};
  for (const char* lib : kMpiLibs)
    if (std::strncmp(base, lib, std::strlen(lib)) == 0) return Owner::Mpi;
  static const char* const kSystemDirs[] = {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/"};
  for (const char* dir : kSystemDirs)
    if (std::strncmp(path, dir, std::strlen(dir)) == 0) return Owner::System;
  return Owner::App;
}

// Addresses of the recorded blocks still live, so that free() records only
// those (MPI frees thousands of its own). Open addressing, lock-free: a slot
// holds an address, kTomb once freed. When it fills up, every free of a
// large enough block is recorded instead (the reader ignores unknown ones).
constexpr std::size_t kLiveSlots = 1u << 16;
constexpr std::uint64_t kTomb = 1;
std::uint64_t g_live[kLiveSlots];
bool g_live_full = false;

std::size_t slot_of(std::uint64_t a) { return static_cast<std::size_t>((a >> 4) * 0x9E3779B97F4A7C15ull >> 48); }

void live_insert(std::uint64_t a) {
  std::size_t i = slot_of(a);
  for (std::size_t n = 0; n < 64; ++n, i = (i + 1) & (kLiveSlots - 1)) {
    std::uint64_t cur = __atomic_load_n(&g_live[i], __ATOMIC_RELAXED);
    if ((cur == 0 || cur == kTomb) &&
        __atomic_compare_exchange_n(&g_live[i], &cur, a, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
  g_live_full = true;
}

// True (and forgets it) if `a` is a recorded live block.
bool live_erase(std::uint64_t a) {
  std::size_t i = slot_of(a);
  for (std::size_t n = 0; n < 64; ++n, i = (i + 1) & (kLiveSlots - 1)) {
    std::uint64_t cur = __atomic_load_n(&g_live[i], __ATOMIC_RELAXED);
    if (cur == 0) return false;
    if (cur == a) return __atomic_compare_exchange_n(&g_live[i], &cur, kTomb, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  return false;
}

int phdr_cb(dl_phdr_info* info, std::size_t, void*) {
  const char* name = info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name : "";
  Owner owner = name[0] == '\0' ? Owner::App : classify(name);
  for (int i = 0; i < info->dlpi_phnum && g_nranges < kMaxRanges; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    std::uintptr_t b = info->dlpi_addr + ph.p_vaddr;
    g_ranges[g_nranges++] = Range{b, b + ph.p_memsz, owner};
  }
  return 0;
}

Owner owner_of(std::uintptr_t a) {
  for (int i = 0; i < g_nranges; ++i)
    if (a >= g_ranges[i].begin && a < g_ranges[i].end) return g_ranges[i].owner;
  return Owner::App;  // e.g. JIT or a library loaded after MPI_Init
}

// The allocator's callers repeat (MPI allocates from a few places per
// message): a small per-thread cache of return address -> owner saves the
// scan over the module ranges.
struct OwnerCacheEntry {
  std::uintptr_t addr;
  Owner owner;
};
constexpr std::size_t kOwnerCacheSlots = 64;
thread_local OwnerCacheEntry tl_owner_cache[kOwnerCacheSlots];

[[gnu::noinline]] Owner owner_cache_miss(std::uintptr_t a, OwnerCacheEntry& e) {
  Owner o = owner_of(a);
  e = OwnerCacheEntry{a, o};
  return o;
}

inline Owner cached_owner_of(std::uintptr_t a) {
  OwnerCacheEntry& e = tl_owner_cache[(a ^ (a >> 6)) & (kOwnerCacheSlots - 1)];
  if (e.addr == a) [[likely]] return e.owner;
  return owner_cache_miss(a, e);
}

// Only once recording (module ranges known). A block that MPI, a system
// library or this library allocates itself is never recorded (app_site).
inline bool allocated_for_itself(void* ret) {
  const Owner o = cached_owner_of(reinterpret_cast<std::uintptr_t>(ret));
  return o == Owner::Mpi || o == Owner::System || o == Owner::Self;
}
// MPI (its transports) and this library never free one of the application's
// blocks (MPI takes no ownership of user memory; user callbacks run in
// application code), so their frees skip the live table. Other system
// libraries might (an API that takes ownership), so theirs are looked up.
inline bool frees_only_its_own(void* ret) {
  const Owner o = cached_owner_of(reinterpret_cast<std::uintptr_t>(ret));
  return o == Owner::Mpi || o == Owner::Self;
}

// The application frame that allocated, or 0 when the block is MPI's.
std::uint64_t app_site(void* ret) {
  auto a = reinterpret_cast<std::uintptr_t>(ret);
  Owner o = cached_owner_of(a);
  if (o == Owner::App) return a;
  if (o == Owner::Mpi || o == Owner::System) return 0;
  if (o == Owner::Self) return 0;  // the recorder's own bookkeeping
  // In libc or libstdc++ (operator new, strdup, std::vector): the first frame
  // outside the runtime decides whose block it is. The walk starts inside
  // this hook (frames of this library) until it reaches the allocator's
  // caller; a frame of this library after that is the recorder's own.
  void* frames[12];
  int n = unw_backtrace(frames, 12);
  bool past_hook = false;
  for (int i = 0; i < n; ++i) {
    Owner f = owner_of(reinterpret_cast<std::uintptr_t>(frames[i]));
    if (f == Owner::Self) {
      if (past_hook) return 0;
      continue;
    }
    past_hook = true;
    if (f == Owner::App) return reinterpret_cast<std::uintptr_t>(frames[i]);
    if (f == Owner::Mpi || f == Owner::System) return 0;
  }
  return 0;
}

std::uint64_t app_site_of_early(void* ret) {
  auto a = reinterpret_cast<std::uintptr_t>(ret);
  return owner_of(a) == Owner::App ? a : 0;
}

void stop_in_child() { g_stopped = true; }

void store(const AllocRecord& r) {
  if (g_active) {
    std::uint64_t i = __atomic_fetch_add(&g_next, 1, __ATOMIC_RELAXED);
    if (i >= g_capacity) {
      __atomic_fetch_add(&g_dropped, 1, __ATOMIC_RELAXED);
      return;
    }
    AllocRecord& slot = g_records[i];
    slot.addr = r.addr;
    slot.size = r.size;
    slot.site = r.site;
    slot.kind = r.kind;
    slot.reserved = 0;
    __atomic_store_n(&slot.t_ns, r.t_ns, __ATOMIC_RELEASE);  // stored last: marks the record complete
    return;
  }
  int i = __atomic_fetch_add(&g_nearly, 1, __ATOMIC_RELAXED);
  if (i < kEarly) g_early[i] = r;
}

inline bool recording() { return !g_stopped && g_enabled_env && !tl_in_hook; }

// The hooks' paths for blocks that may be the application's, out of line so
// that the common case (MPI's own blocks: a 2-rank MPI_Allreduce under MPICH
// 4.0.2/UCX mallocs and frees ~3 per call) stays a few instructions.
[[gnu::noinline]] void note_alloc_slow(void* p, std::size_t size, void* ret) {
  tl_in_hook = true;
  // Before MPI_Init the module list is unknown: keep the raw return address
  // and classify it when the file opens.
  std::uint64_t site = g_active ? app_site(ret) : reinterpret_cast<std::uintptr_t>(ret);
  if (!g_active || site != 0) {
    store(AllocRecord{g_active ? now_ns() : 0, reinterpret_cast<std::uintptr_t>(p), size, site,
                      static_cast<std::uint32_t>(AllocKind::Alloc), 0});
    live_insert(reinterpret_cast<std::uintptr_t>(p));
  }
  tl_in_hook = false;
}

// Watched window bases (alloc_watch): lock-free slots, 0 = empty; g_watched
// counts them so that a program without windows pays one load per small free.
constexpr int kWatchSlots = 64;
std::uint64_t g_watch[kWatchSlots];
int g_watched = 0;

bool watched(const void* p) {
  if (__atomic_load_n(&g_watched, __ATOMIC_RELAXED) == 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  for (int i = 0; i < kWatchSlots; ++i)
    if (__atomic_load_n(&g_watch[i], __ATOMIC_RELAXED) == a) return true;
  return false;
}

[[gnu::noinline]] void note_free_slow(void* p) {
  // The block's size before the live table: it reads the chunk header, which
  // free() is about to touch anyway, whereas a probe of the table is a
  // cache miss at a random slot.
  const std::size_t usable = malloc_usable_size(p);
  if (usable < g_free_min_bytes) {
    if (!watched(p)) return;
    tl_in_hook = true;
    store(AllocRecord{now_ns(), reinterpret_cast<std::uintptr_t>(p), 0, 0, static_cast<std::uint32_t>(AllocKind::Free), 0});
    tl_in_hook = false;
    return;
  }
  if (!live_erase(reinterpret_cast<std::uintptr_t>(p)) && (!g_live_full || usable < g_min_bytes)) return;
  tl_in_hook = true;
  store(AllocRecord{now_ns(), reinterpret_cast<std::uintptr_t>(p), 0, 0, static_cast<std::uint32_t>(AllocKind::Free), 0});
  tl_in_hook = false;
}

inline void note_alloc(void* p, std::size_t size, void* ret) {
  if (size < g_min_bytes || p == nullptr || !recording()) return;
  if (g_active && allocated_for_itself(ret)) return;
  note_alloc_slow(p, size, ret);
}

inline void note_free(void* p, void* ret) {
  if (p == nullptr || !g_active || !recording() || frees_only_its_own(ret)) return;
  note_free_slow(p);
}

}  // namespace

void alloc_log_start(const char* path, const trace::FileHeader& header, std::uint64_t t_start) {
  if (!injector::env_on_unless_zero(injector::Env::Allocs)) {
    g_enabled_env = false;
    return;
  }
  if (const char* m = injector::env_value(injector::Env::AllocMinBytes)) g_min_bytes = std::strtoull(m, nullptr, 10);
  if (g_min_bytes < g_free_min_bytes) g_free_min_bytes = g_min_bytes;
  std::uint64_t cap = 1u << 22;  // 4 Mi blocks = 160 MiB reserved, sparse
  if (const char* c = injector::env_value(injector::Env::AllocMaxRecords)) cap = std::strtoull(c, nullptr, 10);
  g_nranges = 0;
  dl_iterate_phdr(phdr_cb, nullptr);
  int fd = ::open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::size_t bytes = sizeof(trace::FileHeader) + cap * sizeof(AllocRecord);
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    return;
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    ::close(fd);
    return;
  }
  std::memcpy(base, &header, sizeof header);
  g_fd = fd;
  g_map_bytes = bytes;
  g_records = reinterpret_cast<AllocRecord*>(static_cast<unsigned char*>(base) + sizeof(trace::FileHeader));
  g_capacity = cap;
  // Blocks from before MPI_Init, now that the modules are known. Their time
  // is MPI_Init's: they exist before any MPI call.
  // The live table is rebuilt from the kept blocks: before MPI_Init every
  // block was entered, MPI's own among them, and erasing those left ~2,700
  // tombstones (MPICH 4.0.2/UCX, 2 ranks) that free() of any block not
  // recorded walked past on every call.
  std::memset(g_live, 0, sizeof g_live);
  g_live_full = false;
  int early = g_nearly < kEarly ? g_nearly : kEarly;
  for (int i = 0; i < early; ++i) {
    AllocRecord r = g_early[i];
    if (r.kind == static_cast<std::uint32_t>(AllocKind::Alloc)) {
      r.site = app_site_of_early(reinterpret_cast<void*>(r.site));
      if (r.site == 0) continue;
      live_insert(r.addr);
    }
    r.t_ns = t_start;
    g_records[g_next++] = r;
  }
  // A forked child shares the mapping but not the record counter.
  pthread_atfork(nullptr, nullptr, stop_in_child);
  __atomic_store_n(&g_active, true, __ATOMIC_RELEASE);
}

void alloc_watch(const void* base) {
  const auto a = reinterpret_cast<std::uintptr_t>(base);
  if (a == 0) return;
  for (int i = 0; i < kWatchSlots; ++i) {
    std::uint64_t empty = 0;
    if (__atomic_compare_exchange_n(&g_watch[i], &empty, a, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      __atomic_add_fetch(&g_watched, 1, __ATOMIC_RELAXED);
      return;
    }
  }
}

void alloc_unwatch(const void* base) {
  const auto a = reinterpret_cast<std::uintptr_t>(base);
  for (int i = 0; i < kWatchSlots; ++i) {
    std::uint64_t cur = a;
    if (a != 0 && __atomic_compare_exchange_n(&g_watch[i], &cur, 0, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      __atomic_sub_fetch(&g_watched, 1, __ATOMIC_RELAXED);
      return;
    }
  }
}

void alloc_log_stop() {
  if (!g_active) return;
  g_stopped = true;
  __atomic_store_n(&g_active, false, __ATOMIC_RELEASE);
  std::uint64_t used = g_next < g_capacity ? g_next : g_capacity;
  if (g_dropped != 0)
    std::fprintf(stderr, "scalefuzz: allocation log full: %llu heap blocks not recorded (SCALEFUZZ_ALLOC_MAX_RECORDS)\n",
                 static_cast<unsigned long long>(g_dropped));
  // Like the events file: shrink to what was written. The mapping stays: a
  // thread may still be inside store().
  if (::ftruncate(g_fd, static_cast<off_t>(sizeof(trace::FileHeader) + used * sizeof(AllocRecord))) != 0) {
  }
}

}  // namespace scalefuzz::inject

using scalefuzz::inject::note_alloc;
using scalefuzz::inject::note_free;

// The interposed allocator (default visibility: the library hides the rest).
#define SF_EXPORT extern "C" __attribute__((visibility("default")))

SF_EXPORT void* malloc(std::size_t size) {
  void* p = __libc_malloc(size);
  note_alloc(p, size, __builtin_return_address(0));
  return p;
}

SF_EXPORT void free(void* p) {
  note_free(p, __builtin_return_address(0));
  __libc_free(p);
}

SF_EXPORT void* calloc(std::size_t n, std::size_t size) {
  void* p = __libc_calloc(n, size);
  note_alloc(p, n * size, __builtin_return_address(0));
  return p;
}

SF_EXPORT void* realloc(void* old, std::size_t size) {
  if (old != nullptr) note_free(old, __builtin_return_address(0));
  void* p = __libc_realloc(old, size);
  note_alloc(p, size, __builtin_return_address(0));
  return p;
}

SF_EXPORT void* memalign(std::size_t alignment, std::size_t size) {
  void* p = __libc_memalign(alignment, size);
  note_alloc(p, size, __builtin_return_address(0));
  return p;
}

SF_EXPORT void* aligned_alloc(std::size_t alignment, std::size_t size) {
  void* p = __libc_memalign(alignment, size);
  note_alloc(p, size, __builtin_return_address(0));
  return p;
}

SF_EXPORT int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void*) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  note_alloc(p, size, __builtin_return_address(0));
  return 0;
}
