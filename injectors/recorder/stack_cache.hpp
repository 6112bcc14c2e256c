// Per-thread cache of call-site ids keyed by the innermost return address and
// the stack pointer at the call, validated against the saved return addresses.
//
// Why: a depth-8 libunwind walk costs ~900 instructions per MPI call, more
// than all the rest of the recording. In a loop, the same MPI call is made
// from the same stack depth again and again. On x86-64 the return address of
// frame k sits at CFA(k-1) - 8, and for frames whose CFA is SP + a constant at
// their IP, the chain of slot addresses is a function of (innermost return
// address, its stack pointer, the return addresses read so far). So if those
// two keys are equal and every cached slot still holds the cached return
// address, the walk would produce the cached frames again. Frames whose CFA
// depends on a frame pointer (alloca) break that induction in principle; a
// stale copy of the exact return-address chain would be needed to fool the
// check, and site_here() re-walks every kRecheckEvery-th hit and switches the
// cache off for the process on any disagreement.
#pragma once

#include <cstdint>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

class StackCache {
 public:
  static constexpr unsigned kSets = 64;  // two ways each: one key, two callers
  static constexpr std::uint32_t kMiss = 0xFFFFFFFDu;

  // The cached site id of the stack whose innermost return address is `ra`,
  // made with stack pointer `cfa` at the call (the caller's SP before the
  // call pushed `ra`), or kMiss.
  std::uint32_t find(std::uint16_t op, std::uintptr_t ra, std::uintptr_t cfa) {
    Set& set = sets_[index(ra, cfa)];
    for (unsigned w = 0; w < 2; ++w)
      if (valid(set.way[w], op, ra, cfa)) {
        set.mru = static_cast<std::uint8_t>(w);
        return set.way[w].site;
      }
    return kMiss;
  }

  // Remembers a walked stack: frames[0] == ra, frames[k] (k >= 1) was read
  // from stack address slots[k]. Callers insert only stacks whose slots lie
  // in the thread's own stack above `cfa`, so find() reads mapped memory.
  // Replaces the set's least recently used way.
  void insert(std::uint16_t op, std::uintptr_t ra, std::uintptr_t cfa, const std::uintptr_t* slots,
              void* const* frames, int n, std::uint32_t site) {
    if (n < 1 || n > static_cast<int>(trace::kMaxFrames)) return;
    Set& set = sets_[index(ra, cfa)];
    const unsigned w = set.way[0].n == 0 ? 0u : set.way[1].n == 0 ? 1u : 1u - set.mru;
    Entry& e = set.way[w];
    e.n = 0;  // invalid while being rewritten
    e.ra = ra;
    e.cfa = cfa;
    e.op = op;
    e.site = site;
    int k = 1;
    for (; k < n; ++k) e.saved[k - 1] = Saved{slots[k], reinterpret_cast<std::uintptr_t>(frames[k])};
    // Pad to an even count with a word that always matches (valid() checks pairs).
    if ((n - 1) % 2 != 0) e.saved[n - 1] = Saved{reinterpret_cast<std::uintptr_t>(&kPadWord), 0};
    e.n = static_cast<std::uint8_t>(n);
    set.mru = static_cast<std::uint8_t>(w);
  }

  // True when an entry for (op, ra, cfa) holds exactly `frames` (frames[0] == ra).
  bool holds(std::uint16_t op, std::uintptr_t ra, std::uintptr_t cfa, void* const* frames, int n) const {
    const Set& set = sets_[index(ra, cfa)];
    for (const Entry& e : set.way) {
      if (e.ra != ra || e.cfa != cfa || e.op != op || e.n != n) continue;
      bool same = true;
      for (int k = 1; k < n && same; ++k) same = e.saved[k - 1].value == reinterpret_cast<std::uintptr_t>(frames[k]);
      if (same) return true;
    }
    return false;
  }

  void clear() {
    for (Set& set : sets_) set.way[0].n = set.way[1].n = 0;
  }

 private:
  // Where frame k's return address was read (k >= 1), and its value.
  struct Saved {
    std::uintptr_t slot = 0, value = 0;
  };
  struct Entry {
    std::uintptr_t ra = 0, cfa = 0;
    std::uint32_t site = 0;
    std::uint16_t op = 0;
    std::uint8_t n = 0;  // frames; 0 = empty
    Saved saved[trace::kMaxFrames] = {};  // frames 1..n-1 (+ one pad word when n - 1 is odd)
  };
  struct Set {
    Entry way[2];
    std::uint8_t mru = 0;
  };
  static constexpr std::uintptr_t kPadWord = 0;
  // Two saved words per step, one branch per pair: the check is on every
  // intercepted call (3-7 words at depth 8), a branch per word cost ~2
  // instructions per word more.
  static bool valid(const Entry& e, std::uint16_t op, std::uintptr_t ra, std::uintptr_t cfa) {
    if (e.ra != ra || e.cfa != cfa || e.op != op || e.n == 0) return false;
    const Saved* p = e.saved;
    const Saved* const end = e.saved + (e.n & ~1u);  // n - 1 words rounded up to pairs
    for (; p < end; p += 2) {
      const std::uintptr_t a = *reinterpret_cast<const volatile std::uintptr_t*>(p[0].slot) ^ p[0].value;
      const std::uintptr_t b = *reinterpret_cast<const volatile std::uintptr_t*>(p[1].slot) ^ p[1].value;
      if ((a | b) != 0) return false;
    }
    return true;
  }
  static unsigned index(std::uintptr_t ra, std::uintptr_t cfa) {
    std::uint64_t h = (ra ^ (cfa << 17)) * 0x9E3779B97F4A7C15ull;
    return static_cast<unsigned>(h >> 58) & (kSets - 1);
  }
  Set sets_[kSets];
};

}  // namespace scalefuzz::inject
