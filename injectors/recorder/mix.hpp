// Stable 32-bit ids from 64-bit keys: communicator and window ids must come
// out the same on every rank that derives them from the same key.
#pragma once
#include <cstdint>

namespace scalefuzz::inject {

// MurmurHash3's 64-bit finalizer (fmix64), folded to 32 bits.
inline std::uint32_t mix_to_id(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return static_cast<std::uint32_t>(h);
}

}  // namespace scalefuzz::inject
