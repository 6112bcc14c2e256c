// Shared internals of the KCCA sources (not installed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"

namespace scalefuzz::detectors::kcca::detail {

// Written in the model file and read back from it.
inline constexpr EnumName<SolverKind> kSolverNames[] = {
    {SolverKind::Automatic, "automatic"}, {SolverKind::Exact, "exact"}, {SolverKind::LowRank, "low-rank"}};

// Training matrices: X control (standardized if asked), Y observations aligned
// to feature_keys.
struct Prepared {
  Eigen::MatrixXd X, Y;
  Eigen::RowVectorXd control_mean, control_std;
  std::vector<std::uint64_t> feature_keys;
};
Prepared prepare(const std::vector<RankSample>& samples, const std::vector<std::string>& names,
                 const KccaOptions& options);

double cosine(const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b, double anchor);
Eigen::RowVectorXd project(const KernelProjection& p, const Eigen::RowVectorXd& x, double extra_sq);
Eigen::RowVectorXd control_vector(const KccaModel& m, const RankSample& s);
Eigen::RowVectorXd observation_vector(const KccaModel& m, const RankSample& s, double& unseen_sq);

// Fold of every sample (0..k-1): whole scales per fold when there are at
// least k distinct scales, else whole runs, else single samples;
// deterministic in `seed`.
std::vector<int> assign_folds(const std::vector<RankSample>& samples, int k, std::uint64_t seed, FoldUnit& unit);

}  // namespace scalefuzz::detectors::kcca::detail
