// The KCCA solve itself: non-linear relations, the low-rank path against the
// exact one, out-of-sample projection.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "scalefuzz/detectors/kcca/kcca.hpp"

namespace kc = scalefuzz::detectors::kcca;

namespace {

// 1-D control x, 1-D observation y = relation(x) + noise.
template <class F>
std::vector<kc::RankSample> pairs(int n, std::uint64_t seed, F relation, double noise = 0.02) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g(0.0, noise);
  std::vector<kc::RankSample> out;
  for (int i = 0; i < n; ++i) {
    kc::RankSample s;
    s.run_id = "r" + std::to_string(i);
    s.rank = i;
    s.nprocs = 1;
    const double x = u(rng);
    s.control = {x};
    s.observation[1] = relation(x, rng) + g(rng);
    out.push_back(std::move(s));
  }
  return out;
}

double pearson(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const Eigen::ArrayXd x = a.array() - a.mean(), y = b.array() - b.mean();
  return (x * y).sum() / std::sqrt((x * x).sum() * (y * y).sum());
}

kc::KccaOptions narrow() {
  kc::KccaOptions o;  // narrow kernels: resolve the non-linear shape within the data range
  o.control_width_factor = 1.0;
  o.observation_width_factor = 1.0;
  o.threshold_folds = 0;
  return o;
}

}  // namespace

TEST(KccaMath, FindsNonLinearRelationAndRejectsIndependentData) {
  const auto parabola = [](double x, std::mt19937_64&) { return x * x; };
  std::mt19937_64 other(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto independent = [&](double, std::mt19937_64&) { return u(other); };

  const auto train_rel = pairs(200, 1, parabola), test_rel = pairs(200, 2, parabola);
  // y = x² has no linear correlation with x: only a non-linear map finds it.
  Eigen::VectorXd xs(200), ys(200);
  for (int i = 0; i < 200; ++i) xs(i) = test_rel[i].control[0], ys(i) = test_rel[i].observation.at(1);
  EXPECT_LT(std::abs(pearson(xs, ys)), 0.2);

  const kc::KccaModel rel = kc::train(train_rel, narrow());
  EXPECT_GT(rel.canonical_correlations(0), 0.9);
  // Held-out data: the first canonical variates stay correlated.
  const Eigen::MatrixXd f = kc::project_control(rel, test_rel), g = kc::project_observation(rel, test_rel);
  EXPECT_GT(std::abs(pearson(f.col(0), g.col(0))), 0.9);

  const auto train_ind = pairs(200, 3, independent), test_ind = pairs(200, 4, independent);
  const kc::KccaModel ind = kc::train(train_ind, narrow());
  const Eigen::MatrixXd fi = kc::project_control(ind, test_ind), gi = kc::project_observation(ind, test_ind);
  EXPECT_LT(std::abs(pearson(fi.col(0), gi.col(0))), 0.3);
}

TEST(KccaMath, LowRankAgreesWithExactSolve) {
  // Stated tolerance: with the incomplete Cholesky run to a residual trace of
  // 1e-10·n, canonical correlations agree within 1e-4 and per-sample
  // correlations within 1e-3 of the exact eigendecomposition solve.
  const auto samples = pairs(150, 5, [](double x, std::mt19937_64&) { return std::sin(3 * x); }, 0.05);
  kc::KccaOptions o;
  o.control_width_factor = 2.0;
  o.observation_width_factor = 2.0;
  o.threshold_folds = 0;
  o.components = 2;
  o.solver = kc::SolverKind::Exact;
  const kc::KccaModel exact = kc::train(samples, o);
  o.solver = kc::SolverKind::LowRank;
  o.low_rank_max_rank = 150;
  o.low_rank_tolerance = 1e-10;
  const kc::KccaModel low = kc::train(samples, o);
  EXPECT_EQ(exact.solver_used, kc::SolverKind::Exact);
  EXPECT_EQ(low.solver_used, kc::SolverKind::LowRank);
  EXPECT_LT(low.control_map.basis.rows(), 150);  // really low rank: Gaussian spectra decay fast
  ASSERT_EQ(exact.canonical_correlations.size(), low.canonical_correlations.size());
  for (Eigen::Index k = 0; k < exact.canonical_correlations.size(); ++k)
    EXPECT_NEAR(exact.canonical_correlations(k), low.canonical_correlations(k), 1e-4);
  const auto test = pairs(100, 6, [](double x, std::mt19937_64&) { return std::sin(3 * x); }, 0.05);
  const auto se = kc::score(exact, test), sl = kc::score(low, test);
  for (std::size_t i = 0; i < test.size(); ++i) EXPECT_NEAR(se[i].correlation, sl[i].correlation, 1e-3) << i;
}

TEST(KccaMath, OutOfSampleProjectionOfTrainingPointEqualsInSample) {
  const auto samples = pairs(120, 7, [](double x, std::mt19937_64&) { return std::exp(x); }, 0.05);
  for (const auto solver : {kc::SolverKind::Exact, kc::SolverKind::LowRank}) {
    kc::KccaOptions o = narrow();
    o.components = 2;
    o.solver = solver;
    o.low_rank_max_rank = 40;
    const kc::Fit fit = kc::fit(samples, {"x"}, o);
    const Eigen::MatrixXd f = kc::project_control(fit.model, samples);
    const Eigen::MatrixXd g = kc::project_observation(fit.model, samples);
    EXPECT_LT((f - fit.in_sample_control).cwiseAbs().maxCoeff(), 1e-6 * (1 + fit.in_sample_control.cwiseAbs().maxCoeff()))
        << kc::to_string(solver);
    EXPECT_LT((g - fit.in_sample_observation).cwiseAbs().maxCoeff(),
              1e-6 * (1 + fit.in_sample_observation.cwiseAbs().maxCoeff()))
        << kc::to_string(solver);
  }
}

TEST(KccaMath, RejectsBadInput) {
  auto samples = pairs(10, 8, [](double x, std::mt19937_64&) { return x; });
  EXPECT_THROW(kc::train({samples.begin(), samples.begin() + 3}), std::invalid_argument);
  auto ragged = samples;
  ragged[4].control.push_back(1.0);
  EXPECT_THROW(kc::train(ragged), std::invalid_argument);
  auto nan = samples;
  nan[2].observation[1] = std::nan("");
  EXPECT_THROW(kc::train(nan), std::invalid_argument);
  kc::KccaOptions bad;
  bad.gamma = 0;
  EXPECT_THROW(kc::train(samples, bad), std::invalid_argument);
  const kc::KccaModel m = kc::train(samples, narrow());
  kc::RankSample wrong = samples[0];
  wrong.control = {1.0, 2.0};
  EXPECT_THROW(kc::score(m, {wrong}), std::invalid_argument);
}
