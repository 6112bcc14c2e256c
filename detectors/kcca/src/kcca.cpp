// Regularized KCCA (Bach & Jordan 2002, §3.2): with centred kernel matrices
// Kx, Ky and ridge r = n·γ, the canonical correlations are the singular
// values of Rx Ry, Rx = (Kx + rI)⁻¹Kx. Writing Kx = Ux Λx Uxᵀ gives
// Rx Ry = Ux Dx (UxᵀUy) Dy Uyᵀ with D = Λ/(Λ + r), so the small core
// C = Dx (UxᵀUy) Dy is decomposed instead: C = P diag(ρ) Qᵀ. Dual weights
// α = Ux (Λx + r)⁻¹ P, β likewise, and the training projections are Kx α.
// Exact path: U, Λ from the eigendecomposition of the centred n × n kernel.
// Low-rank path: U, Λ from the SVD of the centred incomplete-Cholesky factor.
#include "scalefuzz/detectors/kcca/kcca.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "kernel.hpp"
#include "kcca_internal.hpp"

namespace scalefuzz::detectors::kcca {

const char* to_string(SolverKind s) { return name_of(detail::kSolverNames, s); }

namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::RowVectorXd;
using Eigen::VectorXd;

void check_options(const KccaOptions& o) {
  if (o.components < 1) throw std::invalid_argument("kcca: components must be >= 1");
  if (!(o.gamma > 0) || !std::isfinite(o.gamma)) throw std::invalid_argument("kcca: gamma must be > 0");
  if (!(o.control_width_factor > 0) || !(o.observation_width_factor > 0) ||
      !std::isfinite(o.control_width_factor) || !std::isfinite(o.observation_width_factor))
    throw std::invalid_argument("kcca: kernel width factors must be finite and > 0");
  if (!(o.min_threshold >= 0) || !(o.threshold_z >= 0)) throw std::invalid_argument("kcca: min_threshold and threshold_z must be >= 0");
  if (o.low_rank_max_rank < 2) throw std::invalid_argument("kcca: low_rank_max_rank must be >= 2");
  if (!(o.score_anchor >= 0) || !std::isfinite(o.score_anchor)) throw std::invalid_argument("kcca: score_anchor must be >= 0");
  if (o.threshold_folds == 1 || o.threshold_folds < 0)
    throw std::invalid_argument("kcca: threshold_folds must be 0 or >= 2");
}

// Basis of one side: orthonormal U (n × r) of the centred kernel with its
// eigenvalues, plus what out-of-sample projection needs.
struct Side {
  MatrixXd U;
  VectorXd lambda;
  // exact: full centred kernel statistics
  MatrixXd K;  // uncentred kernel (exact only)
  // low-rank
  detail::IncompleteCholesky icd;
  MatrixXd V;       // right singular vectors of the centred factor (m × r)
  VectorXd s;       // singular values (s² = λ)
  RowVectorXd gmean;
};

Side exact_side(const MatrixXd& pts, double tau) {
  Side side;
  side.K = detail::gaussian_kernel(pts, pts, tau);
  const Index n = pts.rows();
  MatrixXd Kc = side.K;
  const RowVectorXd colmean = Kc.colwise().mean();
  const double total = colmean.mean();
  Kc.rowwise() -= colmean;
  Kc.colwise() -= colmean.transpose();
  Kc.array() += total;
  Eigen::SelfAdjointEigenSolver<MatrixXd> eig(Kc);
  const VectorXd& ev = eig.eigenvalues();
  const double top = std::max(ev.maxCoeff(), 0.0);
  std::vector<Index> keep;
  for (Index i = n - 1; i >= 0; --i)
    if (ev(i) > 1e-11 * top && ev(i) > 1e-300) keep.push_back(i);
  side.U.resize(n, static_cast<Index>(keep.size()));
  side.lambda.resize(static_cast<Index>(keep.size()));
  for (std::size_t j = 0; j < keep.size(); ++j) {
    side.U.col(static_cast<Index>(j)) = eig.eigenvectors().col(keep[j]);
    side.lambda(static_cast<Index>(j)) = ev(keep[j]);
  }
  return side;
}

Side low_rank_side(const MatrixXd& pts, double tau, const KccaOptions& o) {
  Side side;
  side.icd = detail::incomplete_cholesky(pts, tau, o.low_rank_max_rank, o.low_rank_tolerance);
  side.gmean = side.icd.G.colwise().mean();
  const MatrixXd Gc = side.icd.G.rowwise() - side.gmean;
  // Thin SVD through the small Gram matrix GcᵀGc = V S² Vᵀ.
  Eigen::SelfAdjointEigenSolver<MatrixXd> eig(Gc.transpose() * Gc);
  const VectorXd& ev = eig.eigenvalues();
  const double top = ev.size() ? std::max(ev.maxCoeff(), 0.0) : 0.0;
  std::vector<Index> keep;
  for (Index i = ev.size() - 1; i >= 0; --i)
    if (ev(i) > 1e-11 * top && ev(i) > 1e-300) keep.push_back(i);
  const Index r = static_cast<Index>(keep.size());
  side.V.resize(Gc.cols(), r);
  side.s.resize(r);
  side.lambda.resize(r);
  for (Index j = 0; j < r; ++j) {
    side.V.col(j) = eig.eigenvectors().col(keep[static_cast<std::size_t>(j)]);
    side.lambda(j) = ev(keep[static_cast<std::size_t>(j)]);
    side.s(j) = std::sqrt(side.lambda(j));
  }
  side.U = Gc * side.V * side.s.cwiseInverse().asDiagonal();
  return side;
}

// Fills the projection (basis, Z, z1, offset) for dual weights `P` (r × c)
// of one side, and returns the in-sample projection (n × c).
MatrixXd finish_side(const Side& side, bool exact, const MatrixXd& pts, double tau, const MatrixXd& P, double ridge,
                     KernelProjection& proj) {
  proj.tau = tau;
  const VectorXd shrink = side.lambda.array() / (side.lambda.array() + ridge);
  const MatrixXd in_sample = side.U * shrink.asDiagonal() * P;
  if (exact) {
    const MatrixXd alpha = side.U * (side.lambda.array() + ridge).inverse().matrix().asDiagonal() * P;
    const RowVectorXd colmean = side.K.colwise().mean();
    const double total = colmean.mean();
    proj.basis = pts;
    proj.Z = alpha;
    proj.z1 = alpha.colwise().sum();
    proj.offset = -(colmean * alpha) + total * proj.z1;
  } else {
    // f(x) = (L⁻¹k(x) − μ)ᵀ W with W = V diag(s/(s²+r)) P.
    const VectorXd w = side.s.array() / (side.lambda.array() + ridge);
    const MatrixXd W = side.V * w.asDiagonal() * P;
    const Index m = static_cast<Index>(side.icd.pivots.size());
    proj.basis.resize(m, pts.cols());
    for (Index j = 0; j < m; ++j) proj.basis.row(j) = pts.row(side.icd.pivots[static_cast<std::size_t>(j)]);
    proj.Z = side.icd.L.transpose().triangularView<Eigen::Upper>().solve(W);
    proj.z1 = RowVectorXd::Zero(P.cols());
    proj.offset = -(side.gmean * W);
  }
  return in_sample;
}

RowVectorXd unit_scale(const MatrixXd& proj) {
  RowVectorXd scale(proj.cols());
  for (Index k = 0; k < proj.cols(); ++k) {
    const double mean = proj.col(k).mean();
    const double sd = std::sqrt((proj.col(k).array() - mean).square().sum() /
                                std::max<double>(1.0, static_cast<double>(proj.rows() - 1)));
    scale(k) = sd > 1e-300 ? sd : 1.0;
  }
  return scale;
}

}  // namespace

namespace detail {

Prepared prepare(const std::vector<RankSample>& samples, const std::vector<std::string>& names,
                 const KccaOptions& options) {
  check_options(options);
  if (samples.size() < 4) throw std::invalid_argument("kcca: need at least 4 training samples, got " +
                                                      std::to_string(samples.size()));
  const std::size_t dc = samples.front().control.size();
  if (dc == 0) throw std::invalid_argument("kcca: empty control vector");
  if (!names.empty() && names.size() != dc)
    throw std::invalid_argument("kcca: " + std::to_string(names.size()) + " control names for control vectors of size " +
                                std::to_string(dc));
  std::set<std::uint64_t> keys;
  for (const auto& s : samples) {
    if (s.control.size() != dc)
      throw std::invalid_argument("kcca: sample run " + s.run_id + " rank " + std::to_string(s.rank) + " has " +
                                  std::to_string(s.control.size()) + " control values, expected " + std::to_string(dc));
    for (const double v : s.control)
      if (!std::isfinite(v)) throw std::invalid_argument("kcca: non-finite control value in run " + s.run_id);
    for (const auto& [k, v] : s.observation) {
      if (!std::isfinite(v)) throw std::invalid_argument("kcca: non-finite observation value in run " + s.run_id);
      keys.insert(k);
    }
  }
  Prepared p;
  p.feature_keys.assign(keys.begin(), keys.end());
  const Index n = static_cast<Index>(samples.size());
  MatrixXd X(n, static_cast<Index>(dc));
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < X.cols(); ++j) X(i, j) = samples[static_cast<std::size_t>(i)].control[static_cast<std::size_t>(j)];
  p.control_mean = RowVectorXd::Zero(X.cols());
  p.control_std = RowVectorXd::Ones(X.cols());
  if (options.standardize_control) {
    p.control_mean = X.colwise().mean();
    for (Index j = 0; j < X.cols(); ++j) {
      const double sd = std::sqrt((X.col(j).array() - p.control_mean(j)).square().sum() / std::max<double>(1, n - 1));
      p.control_std(j) = sd > 0 ? sd : 1.0;
    }
    X = ((X.rowwise() - p.control_mean).array().rowwise() / p.control_std.array()).matrix();
  }
  MatrixXd Y = MatrixXd::Zero(n, std::max<Index>(1, static_cast<Index>(p.feature_keys.size())));
  for (Index i = 0; i < n; ++i) {
    for (const auto& [k, v] : samples[static_cast<std::size_t>(i)].observation) {
      const auto it = std::lower_bound(p.feature_keys.begin(), p.feature_keys.end(), k);
      Y(i, it - p.feature_keys.begin()) = v;
    }
  }
  p.X = std::move(X);
  p.Y = std::move(Y);
  return p;
}

}  // namespace detail

Fit fit(const std::vector<RankSample>& samples, const std::vector<std::string>& names, const KccaOptions& options) {
  detail::Prepared prep = detail::prepare(samples, names, options);
  const Index n = prep.X.rows();
  Fit out;
  KccaModel& m = out.model;
  m.options = options;
  m.n_train = static_cast<std::size_t>(n);
  m.control_names = names;
  m.control_mean = prep.control_mean;
  m.control_std = prep.control_std;
  m.feature_keys = prep.feature_keys;
  const bool exact = options.solver == SolverKind::Exact ||
                     (options.solver == SolverKind::Automatic && static_cast<std::size_t>(n) <= options.exact_max_samples);
  m.solver_used = exact ? SolverKind::Exact : SolverKind::LowRank;

  // Widths come from the raw (control: possibly standardized) vectors' norms,
  // as the heuristic prescribes; the kernel itself is translation invariant.
  const double tau_x = detail::kernel_tau(prep.X, options.control_width_factor);
  const double tau_y = detail::kernel_tau(prep.Y, options.observation_width_factor);
  const double ridge = options.gamma * static_cast<double>(n);

  const Side sx = exact ? exact_side(prep.X, tau_x) : low_rank_side(prep.X, tau_x, options);
  const Side sy = exact ? exact_side(prep.Y, tau_y) : low_rank_side(prep.Y, tau_y, options);
  if (sx.U.cols() == 0 || sy.U.cols() == 0)
    throw std::invalid_argument("kcca: a feature set is constant over the training samples (nothing to correlate)");

  const VectorXd dx = sx.lambda.array() / (sx.lambda.array() + ridge);
  const VectorXd dy = sy.lambda.array() / (sy.lambda.array() + ridge);
  const MatrixXd core = dx.asDiagonal() * (sx.U.transpose() * sy.U) * dy.asDiagonal();
  Eigen::BDCSVD<MatrixXd> svd(core, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Index c = std::min<Index>(options.components, svd.singularValues().size());
  m.canonical_correlations = svd.singularValues().head(c);
  const MatrixXd P = svd.matrixU().leftCols(c);
  const MatrixXd Q = svd.matrixV().leftCols(c);

  MatrixXd fx = finish_side(sx, exact, prep.X, tau_x, P, ridge, m.control_map);
  MatrixXd gy = finish_side(sy, exact, prep.Y, tau_y, Q, ridge, m.observation_map);
  // Unit variance per component, then weight ρ_k: components that carry
  // little shared information must not dominate the angle between f and g.
  const Eigen::RowVectorXd weight = m.canonical_correlations.transpose().cwiseMax(1e-12);
  m.control_map.scale = (unit_scale(fx).array() / weight.array()).matrix();
  m.observation_map.scale = (unit_scale(gy).array() / weight.array()).matrix();
  out.in_sample_control = (fx.array().rowwise() / m.control_map.scale.array()).matrix();
  out.in_sample_observation = (gy.array().rowwise() / m.observation_map.scale.array()).matrix();

  std::set<int> scales;
  for (const auto& s : samples) scales.insert(s.nprocs);
  m.training_scales.assign(scales.begin(), scales.end());
  return out;
}

namespace detail {

double cosine(const RowVectorXd& a, const RowVectorXd& b, double anchor) {
  const double a2 = anchor * anchor;
  const double na = std::sqrt(a.squaredNorm() + a2), nb = std::sqrt(b.squaredNorm() + a2);
  if (!(na > 0) || !(nb > 0)) return 0.0;
  return std::clamp((a.dot(b) + a2) / (na * nb), -1.0, 1.0);
}

RowVectorXd project(const KernelProjection& p, const RowVectorXd& x, double extra_sq) {
  VectorXd extra = VectorXd::Constant(1, extra_sq);
  const MatrixXd k = gaussian_kernel(x, p.basis, p.tau, &extra);  // 1 × b
  RowVectorXd f = k * p.Z;
  f -= k.mean() * p.z1;
  f += p.offset;
  return (f.array() / p.scale.array()).matrix();
}

RowVectorXd control_vector(const KccaModel& m, const RankSample& s) {
  const Index d = m.control_map.basis.cols();
  if (static_cast<Index>(s.control.size()) != d)
    throw std::invalid_argument("kcca: sample run " + s.run_id + " rank " + std::to_string(s.rank) + " has " +
                                std::to_string(s.control.size()) + " control values, the model expects " +
                                std::to_string(d));
  RowVectorXd x(d);
  for (Index j = 0; j < d; ++j) {
    const double v = s.control[static_cast<std::size_t>(j)];
    if (!std::isfinite(v)) throw std::invalid_argument("kcca: non-finite control value in run " + s.run_id);
    x(j) = (v - m.control_mean(j)) / m.control_std(j);
  }
  return x;
}

RowVectorXd observation_vector(const KccaModel& m, const RankSample& s, double& unseen_sq) {
  RowVectorXd y = RowVectorXd::Zero(m.observation_map.basis.cols());
  unseen_sq = 0;
  for (const auto& [k, v] : s.observation) {
    if (!std::isfinite(v)) throw std::invalid_argument("kcca: non-finite observation value in run " + s.run_id);
    const auto it = std::lower_bound(m.feature_keys.begin(), m.feature_keys.end(), k);
    if (it != m.feature_keys.end() && *it == k)
      y(it - m.feature_keys.begin()) = v;
    else
      unseen_sq += v * v;  // a coordinate every training sample has as 0
  }
  return y;
}

}  // namespace detail

Score score_one(const KccaModel& m, const RankSample& s) {
  double unseen_sq = 0;
  const RowVectorXd f = detail::project(m.control_map, detail::control_vector(m, s), 0.0);
  const RowVectorXd g = detail::project(m.observation_map, detail::observation_vector(m, s, unseen_sq), unseen_sq);
  Score out;
  out.run_id = s.run_id;
  out.rank = s.rank;
  out.nprocs = s.nprocs;
  out.correlation = detail::cosine(f, g, m.options.score_anchor);
  out.deviation = 1.0 - out.correlation;
  out.flagged = out.deviation > m.threshold;
  out.unseen_volume = std::sqrt(unseen_sq);
  return out;
}

std::vector<Score> score(const KccaModel& m, const std::vector<RankSample>& samples) {
  std::vector<Score> out;
  out.reserve(samples.size());
  for (const auto& s : samples) out.push_back(score_one(m, s));
  return out;
}

Eigen::MatrixXd project_control(const KccaModel& m, const std::vector<RankSample>& samples) {
  MatrixXd out(static_cast<Index>(samples.size()), m.control_map.Z.cols());
  for (std::size_t i = 0; i < samples.size(); ++i)
    out.row(static_cast<Index>(i)) = detail::project(m.control_map, detail::control_vector(m, samples[i]), 0.0);
  return out;
}

Eigen::MatrixXd project_observation(const KccaModel& m, const std::vector<RankSample>& samples) {
  MatrixXd out(static_cast<Index>(samples.size()), m.observation_map.Z.cols());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    double unseen_sq = 0;
    const RowVectorXd y = detail::observation_vector(m, samples[i], unseen_sq);
    out.row(static_cast<Index>(i)) = detail::project(m.observation_map, y, unseen_sq);
  }
  return out;
}

KccaModel train(const std::vector<RankSample>& samples, const KccaOptions& options) {
  return train(samples, {}, options);
}

}  // namespace scalefuzz::detectors::kcca
