// Call-site identification: a libunwind walk that also notes where each
// return address was read (stack_cache.hpp explains why), a per-thread cache
// in front of it, a hash map keyed by the raw return addresses, and for a new
// site only the (module, offset) stable hash and the N.sites record.
#include <dlfcn.h>
#include <pthread.h>
#define UNW_LOCAL_ONLY  // the fast local-only libunwind API (_UL* symbols)
#include <libunwind.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "stack_cache.hpp"
#include "state.hpp"
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::inject {

namespace {
constexpr int kOwnFramesMax = 6;  // wrapper + handler + recorder frames skipped at most

std::uint64_t mix_frames(std::uint16_t op, void* const* frames, int n) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ op;
  for (int i = 0; i < n; ++i) {
    h ^= reinterpret_cast<std::uintptr_t>(frames[i]);
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

bool same_frames(void* const* a, void* const* b, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

std::uint64_t fnv(std::uint64_t h, const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// Hash of (module file name, offset in module) per frame: equal across ranks
// and runs of the same binaries despite ASLR.
std::uint64_t stable_hash(std::uint16_t op, void* const* frames, int n) {
  std::uint64_t h = fnv(0xcbf29ce484222325ull, &op, sizeof op);
  for (int i = 0; i < n; ++i) {
    Dl_info info{};
    std::uintptr_t a = reinterpret_cast<std::uintptr_t>(frames[i]);
    std::uint64_t offset = a;
    const char* name = "?";
    if (dladdr(frames[i], &info) != 0 && info.dli_fbase != nullptr) {
      offset = a - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
      if (info.dli_fname != nullptr && info.dli_fname[0] != '\0') name = info.dli_fname;
      const char* slash = std::strrchr(name, '/');
      if (slash != nullptr) name = slash + 1;
    }
    h = fnv(h, name, std::strlen(name));
    h = fnv(h, &offset, sizeof offset);
  }
  return h == 0 ? 1 : h;
}
}  // namespace

constinit bool g_recording = false;

namespace {
// Stack walk mode: the cache in front of the walks (default), or
// unw_backtrace alone (SCALEFUZZ_STACK_CACHE=0, or after the cache disagreed
// with a re-walk). Both walks yield the same frames: libunwind's
// unw_backtrace is unw_step with cached frame descriptions.
enum class WalkMode : int { Cached, Backtrace };
constinit WalkMode g_walk_mode = WalkMode::Cached;
constexpr unsigned kRecheckEvery = 128;  // cache hits per thread between checks

struct ThreadSites;
// tl_sites.get() without the thread_local object's initialization guard,
// for site_here()'s hit path (reset by ~ThreadSites at thread exit).
thread_local constinit ThreadSites* tl_sites_raw = nullptr;

struct ThreadSites {
  StackCache cache;
  bool depth_one = false;  // the key is the whole stack: no re-checks (site_walk)
  std::uintptr_t stack_lo = 0, stack_hi = 0;  // this thread's stack; [0, 0) = unknown
  std::uint64_t hits = 0, misses = 0;
  // Thrash guard: when more than one call in 16 needs a slot-noting walk
  // (e.g. three callers taking turns at one key), stop those walks for the
  // next 65,536 misses.
  unsigned slot_walks = 0, backoff = 0;
  std::uint64_t window_start = 0;
  bool may_slot_walk() {
    if (backoff == 0) return true;
    --backoff;
    return false;
  }
  void note_slot_walk() {
    if (++slot_walks < 64) return;
    const std::uint64_t calls = hits + misses;
    if (calls - window_start < 64 * 16) backoff = 1u << 16;
    slot_walks = 0;
    window_start = calls;
  }
  // Keys missed once. The slot-noting walk costs ~5 µs (libunwind blocks
  // signals per frame); only a key missed twice is worth it, so a program
  // whose stacks never repeat pays the plain walk only.
  static constexpr unsigned kSeen = 256;
  std::uint64_t seen[kSeen] = {};
  bool seen_before(std::uintptr_t ra, std::uintptr_t cfa) {
    const std::uint64_t tag = ((ra * 0x9E3779B97F4A7C15ull) ^ (cfa * 0xff51afd7ed558ccdull)) | 1;
    std::uint64_t& slot = seen[(tag >> 40) & (kSeen - 1)];
    if (slot == tag) return true;
    slot = tag;
    return false;
  }
  ThreadSites() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
      stack_lo = reinterpret_cast<std::uintptr_t>(lo);
      stack_hi = stack_lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  ~ThreadSites() { tl_sites_raw = nullptr; }
  ThreadSites(const ThreadSites&) = delete;
  ThreadSites& operator=(const ThreadSites&) = delete;
};
thread_local std::unique_ptr<ThreadSites> tl_sites;

// The application's frames at this point, innermost first, skipping the
// injector's own; slots[k] = the stack address frames[k]'s return address was
// read from (x86-64: the callee's CFA - 8), first_sp = frame 0's stack pointer.
int walk_with_slots(int depth, void** frames, std::uintptr_t* slots, std::uintptr_t& first_sp) {
  unw_context_t ctx;
  unw_cursor_t cursor;
  if (unw_getcontext(&ctx) != 0 || unw_init_local(&cursor, &ctx) != 0) return 0;
  const State& s = *g_state;
  int nf = 0, own = 0;
  do {
    unw_word_t ip = 0, sp = 0;
    if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 || unw_get_reg(&cursor, UNW_REG_SP, &sp) != 0) break;
    if (nf == 0 && ip >= s.self_begin && ip < s.self_end && own < kOwnFramesMax + 2) {
      ++own;
      continue;
    }
    if (nf == 0) first_sp = sp;
    frames[nf] = reinterpret_cast<void*>(ip);
    slots[nf] = sp - sizeof(void*);
    ++nf;
  } while (nf < depth && unw_step(&cursor) > 0);
  return nf;
}

// The same frames by libunwind's cached fast walk (no slots): cheap enough
// to re-check one cache hit in kRecheckEvery.
int walk_fast(int depth, void** frames) {
  void* raw[trace::kMaxFrames + kOwnFramesMax + 2];
  int n = unw_backtrace(raw, depth + kOwnFramesMax + 2);
  const State& s = *g_state;
  int skip = 0;
  while (skip < n && skip < kOwnFramesMax + 2) {
    auto a = reinterpret_cast<std::uintptr_t>(raw[skip]);
    if (a < s.self_begin || a >= s.self_end) break;
    ++skip;
  }
  int nf = n - skip < depth ? n - skip : depth;
  for (int k = 0; k < nf; ++k) frames[k] = raw[skip + k];
  return nf < 0 ? 0 : nf;
}

// The frames to identify a call by: the return address alone at depth 1,
// else walk_fast().
int walk_frames(int depth, void* return_address, void** frames) {
  if (depth == 1 && return_address != nullptr) {
    frames[0] = return_address;  // innermost frame only: no stack walk
    return 1;
  }
  return walk_fast(depth, frames);
}

// True when find() may trust the walked chain: frame 0 was called with
// stack pointer `cfa` and every further return address was read from this
// thread's stack at the noted slot.
bool cacheable(const ThreadSites& t, std::uintptr_t cfa, std::uintptr_t first_sp, void* const* frames,
               const std::uintptr_t* slots, int nf) {
  if (first_sp != cfa || t.stack_hi == 0 || cfa < t.stack_lo || cfa >= t.stack_hi) return false;
  for (int k = 1; k < nf; ++k) {
    if (slots[k] < cfa || slots[k] + sizeof(void*) > t.stack_hi) return false;
    if (*reinterpret_cast<const std::uintptr_t*>(slots[k]) != reinterpret_cast<std::uintptr_t>(frames[k]))
      return false;
  }
  return true;
}

// Everything but a cache hit: cache set-up, the re-check of one hit in
// kRecheckEvery, the walks of a miss.
__attribute__((noinline)) std::uint32_t site_walk(std::uint16_t op, void* return_address, void* frame_address) {
  State& s = *g_state;
  const WalkMode mode = __atomic_load_n(&g_walk_mode, __ATOMIC_RELAXED);
  if (mode == WalkMode::Backtrace || return_address == nullptr || frame_address == nullptr) {
    StateLock lock;
    return s.sites.current(op, return_address);
  }
  const int depth = s.sites.depth();
  // The caller's stack pointer before it called the wrapper: the wrapper's
  // CFA, two words above its frame pointer.
  const auto ra = reinterpret_cast<std::uintptr_t>(return_address);
  const auto cfa = reinterpret_cast<std::uintptr_t>(frame_address) + 2 * sizeof(void*);
  ThreadSites* t = tl_sites_raw;
  if (t == nullptr) {
    t = (tl_sites = std::make_unique<ThreadSites>()).get();
    t->depth_one = depth == 1;
    tl_sites_raw = t;
  }
  const std::uint32_t cached = t->cache.find(op, ra, cfa);
  if (cached != StackCache::kMiss) {
    // site_here() returns every other hit: this one is to be re-checked.
    if (t->depth_one) return cached;
    void* now[trace::kMaxFrames];
    const int n = walk_fast(depth, now);
    if (n >= 1 && now[0] == return_address && t->cache.holds(op, ra, cfa, now, n)) return cached;
    // The cache would have named another stack: stop trusting it, everywhere.
    __atomic_store_n(&g_walk_mode, WalkMode::Backtrace, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s.stack_cache_mismatches, 1, __ATOMIC_RELAXED);
    t->cache.clear();
    StateLock lock;
    return s.sites.lookup(op, now, n);
  }
  void* frames[trace::kMaxFrames];
  std::uintptr_t slots[trace::kMaxFrames];
  std::uintptr_t first_sp = cfa;
  int nf;
  bool to_cache = depth == 1;  // a depth-1 stack needs no slots
  ++t->misses;
  if (depth > 1 && t->may_slot_walk() && t->seen_before(ra, cfa)) {
    nf = walk_with_slots(depth, frames, slots, first_sp);
    t->note_slot_walk();
    to_cache = true;
  } else {
    nf = walk_frames(depth, return_address, frames);
  }
  std::uint32_t site;
  {
    StateLock lock;
    site = s.sites.lookup(op, frames, nf);
  }
  if (to_cache && site != kSiteOverflow && __atomic_load_n(&g_walk_mode, __ATOMIC_RELAXED) == WalkMode::Cached &&
      cacheable(*t, cfa, first_sp, frames, slots, nf))
    t->cache.insert(op, ra, cfa, slots, frames, nf, site);
  return site;
}
}  // namespace

// The hit path, kept small (no frame, few registers): it runs on every
// intercepted call. (The wrappers pass their own return and frame address,
// never null; every kRecheckEvery-th hit goes on to site_walk, which
// re-checks it, or at depth 1 returns it.)
std::uint32_t site_here(std::uint16_t op, void* return_address, void* frame_address) {
  ThreadSites* t = tl_sites_raw;
  if (t != nullptr && __atomic_load_n(&g_walk_mode, __ATOMIC_RELAXED) == WalkMode::Cached) [[likely]] {
    const std::uint32_t cached = t->cache.find(op, reinterpret_cast<std::uintptr_t>(return_address),
                                               reinterpret_cast<std::uintptr_t>(frame_address) + 2 * sizeof(void*));
    if (cached != StackCache::kMiss && (++t->hits % kRecheckEvery) != 0) return cached;
  }
  return site_walk(op, return_address, frame_address);
}

void SiteTable::init(int depth) {
  // Per-thread unwind caches: no lock (and no signal masking) per backtrace.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
  depth_ = depth < 1 ? 1 : depth > static_cast<int>(trace::kMaxFrames) ? static_cast<int>(trace::kMaxFrames) : depth;
  table_.assign(1024, Entry{});
  g_walk_mode = injector::env_on_unless_zero(injector::Env::StackCache) ? WalkMode::Cached : WalkMode::Backtrace;
}

std::uint32_t SiteTable::current(std::uint16_t op, void* return_address) {
  void* frames[trace::kMaxFrames];
  const int nf = walk_frames(depth_, return_address, frames);
  return lookup(op, frames, nf);
}

std::uint32_t SiteTable::lookup(std::uint16_t op, void* const* frames, int nf) {
  std::uint64_t h = mix_frames(op, frames, nf);
  std::size_t mask = table_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    Entry& e = table_[i];
    if (!e.used) break;
    if (e.hash == h && e.op == op && e.nframes == nf && same_frames(e.frames, frames, nf)) return e.id;
  }
  return add(h, op, frames, nf);
}

std::uint32_t SiteTable::add(std::uint64_t h, std::uint16_t op, void* const* frames, int nf) {
  if (count_ >= file_capacity) return kSiteOverflow;
  if ((count_ + 1) * 2 > table_.size()) {  // grow the lookup table (new sites are rare)
    std::vector<Entry> old;
    old.swap(table_);
    table_.assign(old.size() * 2, Entry{});
    for (const Entry& e : old)
      if (e.used) {
        std::size_t mask = table_.size() - 1, i = e.hash & mask;
        while (table_[i].used) i = (i + 1) & mask;
        table_[i] = e;
      }
  }
  std::uint32_t id = static_cast<std::uint32_t>(count_++);
  std::size_t mask = table_.size() - 1, i = h & mask;
  while (table_[i].used) i = (i + 1) & mask;
  Entry& e = table_[i];
  e.hash = h;
  e.id = id;
  e.op = op;
  e.nframes = static_cast<std::uint8_t>(nf);
  e.used = true;
  std::memcpy(e.frames, frames, sizeof(void*) * static_cast<std::size_t>(nf));

  bool unknown_module = false;
  for (int k = 0; k < nf; ++k)
    if (!address_known(reinterpret_cast<std::uintptr_t>(frames[k]))) unknown_module = true;
  if (unknown_module) write_modules();  // e.g. a library dlopen'ed after MPI_Init

  trace::CallSite& rec = file_records[id];
  trace::CallSite tmp{};
  tmp.id = id;
  std::uint64_t stable = stable_hash(op, frames, nf);
  tmp.op = op;
  for (int k = 0; k < nf; ++k) tmp.frames[k] = reinterpret_cast<std::uintptr_t>(frames[k]);
  rec = tmp;
  // The reader takes a slot as written once stable_hash or nframes is
  // nonzero: store them last, after the frames.
  __atomic_store_n(&rec.stable_hash, stable, __ATOMIC_RELEASE);
  __atomic_store_n(&rec.nframes, static_cast<std::uint32_t>(nf), __ATOMIC_RELEASE);
  return id;
}

}  // namespace scalefuzz::inject
