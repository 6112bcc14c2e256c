// Detection at unseen scales on allgather-shaped synthetic data (paper §6.1):
// trained at 4..12 ranks, tested at 16 and 24.
#include <gtest/gtest.h>

#include <cmath>

#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/detectors/kcca/synthetic.hpp"

namespace kc = scalefuzz::detectors::kcca;

namespace {

kc::SyntheticSpec training(int noise_features = 0) {
  kc::SyntheticSpec s;  // scales 4..12, 2 runs each
  s.jitter = 0.02;
  s.noise_features = noise_features;
  return s;
}

std::size_t flagged_at(const kc::KccaModel& m, int nprocs, int bug_from, int noise_features = 0) {
  kc::SyntheticSpec t = training(noise_features);
  t.scales = {nprocs};
  t.runs_per_scale = 1;
  t.bug_from = bug_from;
  t.seed = 1000 + static_cast<std::uint64_t>(nprocs);
  std::size_t n = 0;
  for (const auto& s : kc::score(m, kc::synthetic_allgather(t))) n += s.flagged ? 1 : 0;
  return n;
}

}  // namespace

TEST(ScaleDetection, FlagsChangedRelationAndPassesTrendFollowingScales) {
  const kc::KccaModel m = kc::train(kc::synthetic_allgather(training()));
  EXPECT_EQ(m.training_scales.front(), 4);
  EXPECT_EQ(m.training_scales.back(), 12);
  // The relation follows the trend: no rank flagged.
  EXPECT_EQ(flagged_at(m, 16, 0), 0u);
  EXPECT_EQ(flagged_at(m, 24, 0), 0u);
  // From 16 ranks on the allgather volume moves to another call site.
  EXPECT_EQ(flagged_at(m, 16, 16), 16u);
  EXPECT_EQ(flagged_at(m, 24, 16), 24u);
}

TEST(ScaleDetection, StillDetectsWithAsManyNoiseFeaturesAsRealOnes) {
  // Three real call sites, three more with random volumes (§4.2).
  const kc::KccaModel m = kc::train(kc::synthetic_allgather(training(3)));
  EXPECT_EQ(m.feature_keys.size(), 6u);
  EXPECT_EQ(flagged_at(m, 16, 0, 3), 0u);
  EXPECT_EQ(flagged_at(m, 24, 0, 3), 0u);
  EXPECT_EQ(flagged_at(m, 16, 16, 3), 16u);
  EXPECT_EQ(flagged_at(m, 24, 16, 3), 24u);
}

TEST(ScaleDetection, CrossValidatedFalsePositiveRateOnBugFreeDataIsAtMost3Percent) {
  kc::SyntheticSpec s = training(3);
  s.counts = {32, 64};  // a numeric run parameter in the control vector as well
  const auto samples = kc::synthetic_allgather(s);
  const kc::CrossValidation cv = kc::cross_validate(samples, {}, 5);
  EXPECT_EQ(cv.samples, samples.size());
  EXPECT_EQ(cv.unit, kc::FoldUnit::Scale);
  EXPECT_EQ(cv.fold_rates.size(), 5u);
  std::printf("cross-validated false-positive rate: %.2f%% (%zu of %zu held-out bug-free ranks, %d folds by %s)\n",
              100.0 * cv.false_positive_rate, cv.flagged, cv.samples, cv.folds, kc::to_string(cv.unit));
  EXPECT_LE(cv.false_positive_rate, 0.03);
}

TEST(ScaleDetection, UnseenCallSitesMoveTheObservationProjection) {
  // Unseen sites have zero training weight, yet enter the kernel on the full
  // vector: the observation projection of a largest-scale rank moves when a
  // new site carries as much volume as the allgather.
  const auto train = kc::synthetic_allgather(training());
  const kc::KccaModel m = kc::train(train);
  kc::RankSample s = train.back();
  ASSERT_EQ(s.nprocs, 12);
  const Eigen::MatrixXd before = kc::project_observation(m, {s});
  s.observation[0xdead] = s.observation.at(kc::kSynthRing);
  const Eigen::MatrixXd after = kc::project_observation(m, {s});
  // Exactly: the kernel part shrinks by exp(-V²/τ) towards the constant
  // projection of "nothing like the training data".
  const double v = s.observation.at(0xdead);
  const Eigen::RowVectorXd far =
      (m.observation_map.offset.array() / m.observation_map.scale.array()).matrix();
  const Eigen::RowVectorXd expected =
      far + std::exp(-v * v / m.observation_map.tau) * (before.row(0) - far);
  EXPECT_LT((after.row(0) - expected).norm(), 1e-9 * (1 + before.norm()));
  EXPECT_GT((after - before).norm(), 0.05 * before.norm());
  EXPECT_GT(kc::score_one(m, s).unseen_volume, 0.0);
}
