// Training time at 10^4 and 10^5 rank-samples (targets < 2 s, < 30 s), time
// to score one rank (target < 50 us), and the evaluation figures: the
// cross-validated false-positive rate on bug-free data and the sensitivity to
// N_comps, gamma and both kernel widths (paper Table 1).
//   scalefuzz_kcca_bench [--quick]   (--quick: skip the 10^5 run and the sweep)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/detectors/kcca/synthetic.hpp"

namespace kc = scalefuzz::detectors::kcca;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::vector<kc::RankSample> data(std::size_t target, int max_scale, std::uint64_t seed) {
  kc::SyntheticSpec s;
  s.scales.clear();
  std::size_t per_run = 0;
  for (int p = 4; p <= max_scale; ++p) s.scales.push_back(p), per_run += static_cast<std::size_t>(p);
  s.runs_per_scale = static_cast<int>((target + per_run - 1) / per_run);
  s.noise_features = 3;
  s.jitter = 0.02;
  s.seed = seed;
  return kc::synthetic_allgather(s);
}

void time_training(std::size_t n) {
  const auto samples = data(n, 64, 11);
  const auto t0 = Clock::now();
  const kc::KccaModel m = kc::train(samples);
  const double train_s = seconds_since(t0);
  // Score ranks at an unseen scale, clean and buggy.
  kc::SyntheticSpec t;
  t.scales = {96};
  t.runs_per_scale = 1;
  t.noise_features = 3;
  t.jitter = 0.02;
  auto clean = kc::synthetic_allgather(t);
  t.bug_from = 65;
  auto buggy = kc::synthetic_allgather(t);
  std::size_t fp = 0, tp = 0;
  const auto t1 = Clock::now();
  const int reps = 20;
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < clean.size(); ++i) {
      fp += kc::score_one(m, clean[i]).flagged ? 1 : 0;
      tp += kc::score_one(m, buggy[i]).flagged ? 1 : 0;
    }
  const double per_rank_us = seconds_since(t1) * 1e6 / (2.0 * reps * static_cast<double>(clean.size()));
  std::printf("train n=%zu (%s solver, basis %lld+%lld, 5-fold threshold): %.2f s | score one rank: %.1f us | "
              "unseen scale 96: clean flagged %zu/%zu, buggy flagged %zu/%zu\n",
              samples.size(), kc::to_string(m.solver_used), static_cast<long long>(m.control_map.basis.rows()),
              static_cast<long long>(m.observation_map.basis.rows()), train_s, per_rank_us, fp / reps, clean.size(),
              tp / reps, buggy.size());
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("== KCCA training and scoring (synthetic allgather data, scales 4..64, 3 noise features)\n");
  time_training(10000);
  if (!quick) time_training(100000);

  std::printf("== cross-validated false-positive rate, bug-free data trained at 4..12 ranks\n");
  kc::SyntheticSpec spec;
  spec.jitter = 0.02;
  spec.noise_features = 3;
  spec.counts = {32, 64};
  const auto samples = kc::synthetic_allgather(spec);
  const auto cv = kc::cross_validate(samples, {}, 5);
  std::printf("5-fold (folds hold whole %ss): %.2f%% (%zu of %zu ranks)\n", kc::to_string(cv.unit),
              100 * cv.false_positive_rate, cv.flagged, cv.samples);
  if (quick) return 0;

  std::printf("== sensitivity of the false-positive rate (paper Table 1; one parameter varied, others default)\n");
  const auto t0 = Clock::now();
  const auto points = kc::sensitivity(samples, {}, 5);
  std::map<std::string, std::pair<double, double>> range;
  for (const auto& p : points) {
    auto [it, fresh] = range.try_emplace(p.parameter, p.false_positive_rate, p.false_positive_rate);
    it->second.first = std::min(it->second.first, p.false_positive_rate);
    it->second.second = std::max(it->second.second, p.false_positive_rate);
    std::printf("  %-22s %-10g FPR %.2f%%\n", p.parameter.c_str(), p.value, 100 * p.false_positive_rate);
  }
  std::printf("  %-22s %s\n", "parameter", "false-positive range");
  for (const auto& [name, r] : range) std::printf("  %-22s %.2f%% .. %.2f%%\n", name.c_str(), 100 * r.first, 100 * r.second);
  std::printf("(sweep took %.1f s; widths are multipliers of the default factor 256, gamma absolute)\n", seconds_since(t0));
  return 0;
}
