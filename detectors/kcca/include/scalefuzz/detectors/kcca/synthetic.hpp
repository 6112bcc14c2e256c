// Synthetic rank samples with the shape of the allgather scenario
// (scenarios/vrisha/allgather_overflow.c): used by the unit tests, the
// benchmarks and the evaluation commands, where real traces are not needed.
#pragma once

#include <cstdint>
#include <vector>

#include "scalefuzz/detectors/kcca/samples.hpp"

namespace scalefuzz::detectors::kcca {

// Call-site keys of the synthetic application.
inline constexpr std::uint64_t kSynthRing = 0x1001;    // allgather, ring step
inline constexpr std::uint64_t kSynthRecDbl = 0x1002;  // allgather, recursive doubling step
inline constexpr std::uint64_t kSynthBruck = 0x1003;   // allgather, Bruck step
inline constexpr std::uint64_t kSynthHalo = 0x2001;    // neighbour exchange (1 or 2 neighbours)
inline constexpr std::uint64_t kSynthReduce = 0x3001;  // reduce to rank 0
inline constexpr std::uint64_t kSynthNoiseBase = 0x9000;  // + i: uncorrelated extra features

struct SyntheticSpec {
  std::vector<int> scales{4, 5, 6, 7, 8, 9, 10, 11, 12};
  int runs_per_scale = 2;
  std::vector<double> counts{64};   // elements of 8 bytes per rank (a control parameter)
  // Allgather algorithm switch of the overflow bug: from this many ranks on,
  // the volume moves from the ring site to recursive doubling (power-of-two
  // scales) or Bruck (others). 0 = no bug.
  int bug_from = 0;
  int noise_features = 0;           // extra sites with random volumes (§4.2)
  double jitter = 0.0;              // relative noise on every real volume
  std::uint64_t seed = 1;
};

// Control vector: [rank, nprocs, count]; run ids "synth-p<P>-c<count>-r<rep>".
std::vector<RankSample> synthetic_allgather(const SyntheticSpec& spec);

}  // namespace scalefuzz::detectors::kcca
