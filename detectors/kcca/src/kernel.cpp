#include "kernel.hpp"

#include <algorithm>
#include <cmath>

namespace scalefuzz::detectors::kcca::detail {

double kernel_tau(const Eigen::MatrixXd& points, double factor) {
  const Eigen::Index n = points.rows();
  if (n < 2) return factor > 0 ? factor : 1.0;
  const Eigen::VectorXd norms = points.rowwise().norm();
  const double mean = norms.mean();
  const double var = (norms.array() - mean).square().sum() / static_cast<double>(n - 1);
  double spread = var;
  if (!(spread > 1e-12 * std::max(1.0, mean * mean))) {
    const Eigen::RowVectorXd centroid = points.colwise().mean();
    spread = (points.rowwise() - centroid).rowwise().squaredNorm().mean();
  }
  if (!(spread > 0)) spread = 1.0;
  return factor * spread;
}

Eigen::MatrixXd gaussian_kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tau,
                                const Eigen::VectorXd* extra_a) {
  Eigen::MatrixXd d2 = -2.0 * (a * b.transpose());
  d2.colwise() += a.rowwise().squaredNorm();
  d2.rowwise() += b.rowwise().squaredNorm().transpose();
  if (extra_a) d2.colwise() += *extra_a;
  return (-(d2.array().max(0.0)) / tau).exp().matrix();
}

IncompleteCholesky incomplete_cholesky(const Eigen::MatrixXd& points, double tau, std::size_t max_rank,
                                       double tolerance) {
  const Eigen::Index n = points.rows();
  const Eigen::Index cap = std::min<Eigen::Index>(n, static_cast<Eigen::Index>(max_rank));
  IncompleteCholesky out;
  out.G.setZero(n, cap);
  Eigen::VectorXd residual = Eigen::VectorXd::Ones(n);  // Gaussian kernel: k(x,x) = 1
  const Eigen::VectorXd sq = points.rowwise().squaredNorm();
  Eigen::Index r = 0;
  for (; r < cap; ++r) {
    if (residual.sum() <= tolerance * static_cast<double>(n)) break;
    Eigen::Index p = 0;
    const double dp = residual.maxCoeff(&p);
    if (!(dp > 1e-14)) break;
    out.pivots.push_back(p);
    // Kernel column k(:, p) without forming K.
    Eigen::VectorXd col = -2.0 * (points * points.row(p).transpose());
    col.array() += sq.array() + sq(p);
    col = (-(col.array().max(0.0)) / tau).exp().matrix();
    if (r > 0) col.noalias() -= out.G.leftCols(r) * out.G.row(p).head(r).transpose();
    const double gpp = std::sqrt(dp);
    out.G.col(r) = col / gpp;
    out.G(p, r) = gpp;
    residual.array() -= out.G.col(r).array().square();
    residual(p) = 0;
    for (const Eigen::Index q : out.pivots) residual(q) = 0;
    residual = residual.cwiseMax(0.0);
  }
  out.G.conservativeResize(n, r);
  out.L.resize(r, r);
  for (Eigen::Index j = 0; j < r; ++j) out.L.row(j) = out.G.row(out.pivots[static_cast<std::size_t>(j)]);
  out.L = out.L.triangularView<Eigen::Lower>();
  out.residual_trace = residual.sum();
  return out;
}

}  // namespace scalefuzz::detectors::kcca::detail
