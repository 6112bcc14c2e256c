// The one hash of the DMTracker room (chain types, symbols, call-site and
// allocation-site keys): 64-bit FNV-1a over bytes, words and strings, the
// same function the recorder uses for call sites' stable hashes. Stable
// across platforms and runs (unlike std::hash), so keys compare across runs.
#pragma once

#include <cstdint>
#include <string_view>

namespace scalefuzz::detectors::dmtracker {

inline constexpr std::uint64_t kTypeKeySeed = 0xcbf29ce484222325ull;  // FNV-1a 64 offset basis

constexpr std::uint64_t hash_bytes(std::uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;  // FNV-1a 64 prime
  return h;
}

// The eight bytes of `v`, least significant first.
constexpr std::uint64_t hash_word(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xffu)) * 0x100000001b3ull;
  return h;
}

}  // namespace scalefuzz::detectors::dmtracker
