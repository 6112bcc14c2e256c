// Internal numerics of the KCCA detector: Gaussian kernels, the width
// heuristic and the pivoted incomplete Cholesky factorization.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Dense>

namespace scalefuzz::detectors::kcca::detail {

// τ = factor · sample variance of the row norms (Vrisha §5.2). When all norms
// are equal (variance 0) the mean squared distance to the centroid is used
// instead, and 1 when the points coincide, so the kernel stays defined.
double kernel_tau(const Eigen::MatrixXd& points, double factor);

// K(i,j) = exp(-(||a_i - b_j||² + extra_a(i)) / τ). extra_a carries squared
// norms of coordinates the b points do not have (zero there): the kernel on
// the union of both feature spaces.
Eigen::MatrixXd gaussian_kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tau,
                                const Eigen::VectorXd* extra_a = nullptr);

// Pivoted incomplete Cholesky of the Gaussian kernel matrix of `points`:
// K ≈ G Gᵀ, with G(pivots,:) = L lower triangular, so G = K(:,pivots) L⁻ᵀ and
// the feature vector of any point x is L⁻¹ k(pivots, x).
struct IncompleteCholesky {
  Eigen::MatrixXd G;               // n × rank
  std::vector<Eigen::Index> pivots;
  Eigen::MatrixXd L;               // rank × rank, lower triangular
  double residual_trace = 0;       // trace(K - G Gᵀ) at stop
};
IncompleteCholesky incomplete_cholesky(const Eigen::MatrixXd& points, double tau, std::size_t max_rank,
                                       double tolerance);

}  // namespace scalefuzz::detectors::kcca::detail
