// Call-site identification: unw_backtrace (libunwind's fast frame walk), a
// hash map keyed by the raw return addresses, and for a new site only the
// (module, offset) stable hash and the N.sites record.
#include <dlfcn.h>
#define UNW_LOCAL_ONLY  // the fast local-only libunwind API (_UL* symbols)
#include <libunwind.h>

#include <cstring>

#include "state.hpp"

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

__attribute__((noinline)) std::uint32_t site_here(std::uint16_t op, void* return_address) {
  StateLock lock;
  return g_state->sites.current(op, return_address);
}

void SiteTable::init(int depth) {
  // Per-thread unwind caches: no lock (and no signal masking) per backtrace.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
  depth_ = depth < 1 ? 1 : depth > static_cast<int>(trace::kMaxFrames) ? static_cast<int>(trace::kMaxFrames) : depth;
  table_.assign(1024, Entry{});
}

std::uint32_t SiteTable::current(std::uint16_t op, void* return_address) {
  void* raw[trace::kMaxFrames + kOwnFramesMax];
  void* const* frames = raw;
  int nf = 0;
  if (depth_ == 1 && return_address != nullptr) {
    raw[0] = return_address;  // innermost frame only: no stack walk
    nf = 1;
  } else {
    int n = unw_backtrace(raw, depth_ + kOwnFramesMax);
    const State& s = *g_state;
    int skip = 0;
    while (skip < n && skip < kOwnFramesMax) {
      auto a = reinterpret_cast<std::uintptr_t>(raw[skip]);
      if (a < s.self_begin || a >= s.self_end) break;
      ++skip;
    }
    frames = raw + skip;
    nf = n - skip < depth_ ? n - skip : depth_;
    if (nf < 0) nf = 0;
  }
  std::uint64_t h = mix_frames(op, frames, nf);
  std::size_t mask = table_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    Entry& e = table_[i];
    if (!e.used) break;
    if (e.hash == h && e.op == op && e.nframes == nf &&
        std::memcmp(e.frames, frames, sizeof(void*) * static_cast<std::size_t>(nf)) == 0)
      return e.id;
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
