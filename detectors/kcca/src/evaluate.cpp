// Threshold selection (Vrisha §5.3), cross-validated false-positive rate and
// the parameter sensitivity sweep (§6.4, Table 1).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>

#include "kcca_internal.hpp"
#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"

namespace scalefuzz::detectors::kcca {

constexpr EnumName<FoldUnit> kFoldUnitNames[] = {
    {FoldUnit::Scale, "scale"}, {FoldUnit::Run, "run"}, {FoldUnit::Sample, "sample"}};

const char* to_string(FoldUnit u) { return name_of(kFoldUnitNames, u); }

namespace detail {

std::vector<int> assign_folds(const std::vector<RankSample>& samples, int k, std::uint64_t seed, FoldUnit& unit) {
  // Whole scales per fold when possible: held-out scales measure how well the
  // model carries to scales it has not seen, which is what detection needs.
  std::map<int, std::vector<std::size_t>> by_scale;
  std::map<std::string, std::vector<std::size_t>> by_run;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    by_scale[samples[i].nprocs].push_back(i);
    by_run[samples[i].run_id].push_back(i);
  }
  std::vector<std::vector<std::size_t>> groups;
  if (static_cast<int>(by_scale.size()) >= k) {
    unit = FoldUnit::Scale;
    for (auto& [p, idx] : by_scale) groups.push_back(std::move(idx));
  } else if (static_cast<int>(by_run.size()) >= k) {
    unit = FoldUnit::Run;
    for (auto& [run, idx] : by_run) groups.push_back(std::move(idx));
  } else {
    unit = FoldUnit::Sample;
    for (std::size_t i = 0; i < samples.size(); ++i) groups.push_back({i});
  }
  std::mt19937_64 rng(seed);
  std::shuffle(groups.begin(), groups.end(), rng);
  std::vector<int> fold(samples.size(), 0);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (const std::size_t i : groups[g]) fold[i] = static_cast<int>(g % static_cast<std::size_t>(k));
  return fold;
}

}  // namespace detail

namespace {

template <class T>
std::vector<T> pick(const std::vector<T>& all, const std::vector<int>& fold, int f, bool in_fold) {
  std::vector<T> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if ((fold[i] == f) == in_fold) out.push_back(all[i]);
  return out;
}

void set_threshold(KccaModel& m, const std::vector<double>& deviations) {
  const double n = static_cast<double>(deviations.size());
  const double mean = std::accumulate(deviations.begin(), deviations.end(), 0.0) / n;
  double var = 0;
  for (const double d : deviations) var += (d - mean) * (d - mean);
  var = deviations.size() > 1 ? var / (n - 1) : 0.0;
  m.train_mean = mean;
  m.train_std = std::sqrt(var);
  m.threshold = std::max(mean + m.options.threshold_z * m.train_std, m.options.min_threshold);
}

}  // namespace

KccaModel train(const std::vector<RankSample>& samples, const std::vector<std::string>& names,
                const KccaOptions& options) {
  Fit full = fit(samples, names, options);
  KccaModel& m = full.model;
  std::vector<double> corr(samples.size(), 0.0);
  const int k = options.threshold_folds;
  if (k >= 2 && samples.size() >= static_cast<std::size_t>(2 * k)) {
    // Out-of-fold scores: in-sample correlations are optimistic.
    FoldUnit unit{};
    const std::vector<int> fold = detail::assign_folds(samples, k, options.seed, unit);
    KccaOptions inner = options;
    inner.threshold_folds = 0;
    for (int f = 0; f < k; ++f) {
      const auto rest = pick(samples, fold, f, false);
      const auto held = pick(samples, fold, f, true);
      if (held.empty()) continue;
      const KccaModel fm = fit(rest, names, inner).model;
      std::size_t j = 0;
      for (std::size_t i = 0; i < samples.size(); ++i)
        if (fold[i] == f) corr[i] = score_one(fm, held[j++]).correlation;
    }
  } else {
    for (Eigen::Index i = 0; i < full.in_sample_control.rows(); ++i)
      corr[static_cast<std::size_t>(i)] =
          detail::cosine(full.in_sample_control.row(i), full.in_sample_observation.row(i), options.score_anchor);
  }
  std::vector<double> dev(corr.size());
  for (std::size_t i = 0; i < corr.size(); ++i) dev[i] = 1.0 - corr[i];
  set_threshold(m, dev);
  // Keep an evenly spaced subset for the plots.
  const std::size_t keep = std::min(options.max_kept_training_scores, samples.size());
  for (std::size_t j = 0; j < keep; ++j) {
    const std::size_t i = keep == samples.size() ? j : j * samples.size() / keep;
    m.training_scores.push_back({samples[i].nprocs, samples[i].rank, corr[i]});
  }
  return std::move(full.model);
}

CrossValidation cross_validate(const std::vector<RankSample>& samples, const KccaOptions& options, int k) {
  if (k < 2) throw std::invalid_argument("kcca: cross-validation needs k >= 2");
  if (samples.size() < static_cast<std::size_t>(2 * k))
    throw std::invalid_argument("kcca: " + std::to_string(samples.size()) + " samples are too few for " +
                                std::to_string(k) + "-fold cross-validation");
  CrossValidation cv;
  cv.folds = k;
  cv.samples = samples.size();
  const std::vector<int> fold = detail::assign_folds(samples, k, options.seed ^ 0x9e3779b97f4a7c15ull, cv.unit);
  for (int f = 0; f < k; ++f) {
    const auto rest = pick(samples, fold, f, false);
    const auto held = pick(samples, fold, f, true);
    if (held.empty()) continue;
    const KccaModel m = train(rest, options);
    std::size_t flagged = 0;
    for (const auto& s : held) flagged += score_one(m, s).flagged ? 1 : 0;
    cv.flagged += flagged;
    cv.fold_rates.push_back(static_cast<double>(flagged) / static_cast<double>(held.size()));
  }
  cv.false_positive_rate = static_cast<double>(cv.flagged) / static_cast<double>(cv.samples);
  return cv;
}

std::vector<SensitivityPoint> sensitivity(const std::vector<RankSample>& samples, const KccaOptions& base, int k,
                                          const SensitivityGrid& grid) {
  std::vector<SensitivityPoint> out;
  for (const int c : grid.components) {
    KccaOptions o = base;
    o.components = c;
    out.push_back({"N_comps", static_cast<double>(c), cross_validate(samples, o, k).false_positive_rate});
  }
  for (const int e : grid.gamma_log2) {
    KccaOptions o = base;
    o.gamma = std::ldexp(1.0, e);
    out.push_back({"gamma", o.gamma, cross_validate(samples, o, k).false_positive_rate});
  }
  for (const int e : grid.width_log2) {
    KccaOptions o = base;
    o.observation_width_factor = base.observation_width_factor * std::ldexp(1.0, e);
    out.push_back({"sigma_x (observation)", std::ldexp(1.0, e), cross_validate(samples, o, k).false_positive_rate});
  }
  for (const int e : grid.width_log2) {
    KccaOptions o = base;
    o.control_width_factor = base.control_width_factor * std::ldexp(1.0, e);
    out.push_back({"sigma_y (control)", std::ldexp(1.0, e), cross_validate(samples, o, k).false_positive_rate});
  }
  return out;
}

}  // namespace scalefuzz::detectors::kcca
