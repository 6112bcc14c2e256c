// DMTracker analysis time on 10^6 chains (target < 5 s): a synthetic
// pipelined broadcast over 64 ranks, 4-hop chains with a rare broken
// variant, analysed by the same calls as the campaign detector.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>

#include "scalefuzz/detectors/dmtracker.hpp"

using namespace scalefuzz::detectors::dmtracker;

int main(int argc, char** argv) {
  std::size_t target = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const int ranks = 64, hops = 4;
  std::vector<Movement> moves;
  moves.reserve(target * hops);
  std::uint64_t t = 0;
  std::size_t chains_made = 0;
  for (std::size_t step = 0; chains_made < target; ++step) {
    for (int start = 0; start + hops < ranks && chains_made < target; start += hops + 1, ++chains_made) {
      for (int h = 0; h < hops; ++h) {
        int from = start + h, to = from + 1;
        bool broken = h == 3 && (step * 31 + start) % 97 == 0;
        Movement m;
        m.kind = OpKind::Net;
        m.site = 100 + (h == 0 ? 0 : 1);
        m.src = BufferRange{from, broken ? 0x9000ull : 0x1000ull * (h == 0 ? 1 : 2), 512, broken ? 9ull : 2ull};
        m.dst = BufferRange{to, 0x2000, 512, 2};
        m.t_read = ++t;
        m.t_write = ++t;
        moves.push_back(m);
      }
    }
  }
  Parameters p;
  // CPU time of this process: on a shared machine wall time measures the
  // neighbours (printed too).
  std::clock_t c0 = std::clock();
  auto t0 = std::chrono::steady_clock::now();
  auto chains = build_chains(moves);
  auto t1 = std::chrono::steady_clock::now();
  auto groups = group_chains(moves, chains, p);
  auto fc = select_fc_invariants(groups, p);
  auto violations = fc_violations(moves, chains, groups, fc, p);
  auto t2 = std::chrono::steady_clock::now();
  auto cd = cd_outliers(chains, groups, {}, p);
  auto t3 = std::chrono::steady_clock::now();
  std::clock_t c3 = std::clock();
  auto s = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("dmtracker analysis: %zu movements, %zu chains, %zu groups, %zu FC-invariants, %zu violations, %zu outliers\n",
              moves.size(), chains.size(), groups.groups.size(), fc.size(), violations.size(), cd.outliers.size());
  std::printf("  cpu %.2f s for the whole analysis (target < 5 s); wall: chains %.2f s, FC %.2f s, CD %.2f s, total %.2f s\n",
              static_cast<double>(c3 - c0) / CLOCKS_PER_SEC, s(t0, t1), s(t1, t2), s(t2, t3), s(t0, t3));
  return violations.empty() ? 1 : 0;  // the broken variant must be found
}
