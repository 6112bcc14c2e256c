#include "scalefuzz/detectors/kcca/synthetic.hpp"

#include <random>
#include <string>

namespace scalefuzz::detectors::kcca {

std::vector<RankSample> synthetic_allgather(const SyntheticSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const auto noisy = [&](double v) { return spec.jitter > 0 ? v * (1.0 + spec.jitter * gauss(rng)) : v; };
  std::vector<RankSample> out;
  for (const int p : spec.scales)
    for (const double count : spec.counts)
      for (int rep = 0; rep < spec.runs_per_scale; ++rep) {
        const std::string run = "synth-p" + std::to_string(p) + "-c" + std::to_string(static_cast<long>(count)) +
                                "-r" + std::to_string(rep);
        const bool pof2 = (p & (p - 1)) == 0;
        for (int r = 0; r < p; ++r) {
          RankSample s;
          s.run_id = run;
          s.rank = r;
          s.nprocs = p;
          s.control = {static_cast<double>(r), static_cast<double>(p), count};
          const double block = 8.0 * count;
          // Every allgather algorithm moves (p-1) blocks in and out per rank.
          const double allgather = 2.0 * (p - 1) * block;
          const std::uint64_t site = (spec.bug_from > 0 && p >= spec.bug_from) ? (pof2 ? kSynthRecDbl : kSynthBruck)
                                                                              : kSynthRing;
          s.observation[site] = noisy(allgather);
          const int neighbours = (r > 0 ? 1 : 0) + (r < p - 1 ? 1 : 0);
          s.observation[kSynthHalo] = noisy(2.0 * neighbours * 4.0 * count);
          s.observation[kSynthReduce] = noisy(r == 0 ? (p - 1) * 64.0 : 64.0);
          for (int i = 0; i < spec.noise_features; ++i)
            s.observation[kSynthNoiseBase + static_cast<std::uint64_t>(i)] = uniform(rng) * 16.0 * block;  // independent of rank and scale
          out.push_back(std::move(s));
        }
      }
  return out;
}

}  // namespace scalefuzz::detectors::kcca
