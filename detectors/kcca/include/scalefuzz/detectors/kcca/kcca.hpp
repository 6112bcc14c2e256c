// Regularized kernel CCA between control and observation vectors (Vrisha §3,
// §5.2–5.3; Bach & Jordan 2002). Training learns projections f (control) and
// g (observation); a rank's score is the correlation of f(c) and g(o); a rank
// whose 1 - correlation exceeds the threshold learned from bug-free training
// data is flagged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <Eigen/Dense>

#include "scalefuzz/detectors/kcca/localize.hpp"
#include "scalefuzz/detectors/kcca/samples.hpp"

namespace scalefuzz::detectors::kcca {

enum class SolverKind { Automatic, Exact, LowRank };
const char* to_string(SolverKind s);

struct KccaOptions {
  int components = 2;                 // N_comps
  double gamma = 1e-3;                // γ: ridge n·γ added to each centred kernel matrix
  // Kernel k(a,b) = exp(-||a-b||² / τ), τ = 2σ² = factor · sample variance of
  // the training vectors' norms (the paper's heuristic, after Ganapathi et al.).
  // For norms spread evenly over a range R, var ≈ R²/12, so 256 gives
  // τ ≈ 21 R²: the kernel still weighs ≥ 0.8 at 2R beyond the training data,
  // which lets the model carry to scales 2-3x the largest trained one.
  double control_width_factor = 256.0;      // paper's σ_y (control set)
  double observation_width_factor = 256.0;  // paper's σ_x (observation set)
  bool standardize_control = true;    // z-score control features with training mean/std first
  // Score: correlation (cosine) of the projected control and observation
  // vectors, each extended by this constant component (in units of the
  // projections' training standard deviation). 0 is the paper's plain cosine,
  // which is undefined for ranks projected near the centre of the training
  // data (middle scales) and makes their scores noise; see README.
  double score_anchor = 1.0;
  SolverKind solver = SolverKind::Automatic;
  std::size_t exact_max_samples = 600;  // Automatic: exact solve up to this many samples
  std::size_t low_rank_max_rank = 80;   // incomplete Cholesky: at most this many pivots per kernel
  double low_rank_tolerance = 1e-9;     // ... or until the residual trace < tolerance · n
  // Threshold on 1 - correlation: mean + z · std over the out-of-fold scores of
  // a threshold_folds-fold cross-validation of the training set (0 = in-sample).
  double threshold_z = 3.0;
  int threshold_folds = 5;
  // Lower bound of the threshold: deterministic training data (the same
  // volumes at every repetition) gives a spread of ~0, and mean + z·std would
  // then flag the smallest extrapolation error. 0.1 = correlation 0.9.
  double min_threshold = 0.1;
  std::uint64_t seed = 1;             // fold assignment
  std::size_t max_kept_training_scores = 4000;  // kept in the model for plots
};

// A learned map x -> R^components: f(x) = k(x)ᵀZ − mean(k(x))·z1 + offset,
// with k(x) the Gaussian kernel between x and the basis points, then divided
// component-wise by `scale` (unit variance over the training set).
struct KernelProjection {
  Eigen::MatrixXd basis;   // rows are basis points (training points, or pivots)
  double tau = 1.0;        // kernel width τ = 2σ²
  Eigen::MatrixXd Z;       // basis × components
  Eigen::RowVectorXd z1;   // components
  Eigen::RowVectorXd offset;
  Eigen::RowVectorXd scale;
};

struct TrainingScore {
  int nprocs = 0;
  int rank = 0;
  double correlation = 0;
};

struct KccaModel {
  KccaOptions options;
  SolverKind solver_used = SolverKind::Exact;
  std::size_t n_train = 0;
  std::vector<std::string> control_names;      // may be empty (then only the width is checked)
  Eigen::RowVectorXd control_mean, control_std;  // standardization (identity if disabled)
  std::vector<std::uint64_t> feature_keys;     // observation feature index, sorted
  KernelProjection control_map, observation_map;
  Eigen::VectorXd canonical_correlations;      // ρ_1 ≥ ρ_2 ≥ … (regularized)
  double threshold = 0;                        // flag when 1 - correlation > threshold
  double train_mean = 0, train_std = 0;        // of the (out-of-fold) 1 - correlation
  std::vector<TrainingScore> training_scores;  // a sample, for plots
  std::vector<int> training_scales;            // distinct nprocs seen in training
  VolumeProfile reference_profile;             // call-site volume shares, for localization
  // What the caller trained it on (scales, parameters, binary build id), kept
  // with the model so a later night can tell whether it still fits; opaque here.
  nlohmann::json provenance = nlohmann::json::object();
};

struct Score {
  std::string run_id;
  int rank = -1;
  int nprocs = 0;
  double correlation = 0;       // cosine of the projected control and observation vectors
  double deviation = 0;         // 1 - correlation
  bool flagged = false;         // deviation > model threshold
  double unseen_volume = 0;     // observation mass on features never seen in training
};

// Trains a model. Throws std::invalid_argument for fewer than 4 samples,
// ragged control vectors, non-finite values or nonsensical options.
KccaModel train(const std::vector<RankSample>& samples, const KccaOptions& options = {});
KccaModel train(const std::vector<RankSample>& samples, const std::vector<std::string>& control_names,
                const KccaOptions& options = {});

std::vector<Score> score(const KccaModel& model, const std::vector<RankSample>& samples);
Score score_one(const KccaModel& model, const RankSample& sample);

// Projections (rows = samples, unit-variance components), for tests and plots.
Eigen::MatrixXd project_control(const KccaModel& model, const std::vector<RankSample>& samples);
Eigen::MatrixXd project_observation(const KccaModel& model, const std::vector<RankSample>& samples);
// train() plus the in-sample projections of the training samples straight
// from the KCCA solve (scaled like project_*), in training order.
struct Fit {
  KccaModel model;
  Eigen::MatrixXd in_sample_control, in_sample_observation;
};
Fit fit(const std::vector<RankSample>& samples, const std::vector<std::string>& control_names,
        const KccaOptions& options = {});

// ---- evaluation (paper §6.4) ---------------------------------------------

// What a cross-validation fold holds: whole scales (nprocs values) when there
// are at least k of them, else whole runs, else single samples.
enum class FoldUnit { Scale, Run, Sample };
const char* to_string(FoldUnit u);

struct CrossValidation {
  int folds = 0;
  std::size_t samples = 0;
  std::size_t flagged = 0;        // held-out bug-free samples flagged
  double false_positive_rate = 0; // flagged / samples
  std::vector<double> fold_rates;
  FoldUnit unit = FoldUnit::Sample;
};

// k-fold cross-validation on bug-free data: every fold is scored by a model
// (threshold included) trained on the other folds.
CrossValidation cross_validate(const std::vector<RankSample>& samples, const KccaOptions& options, int k = 5);

struct SensitivityPoint {
  std::string parameter;  // "N_comps", "gamma", "sigma_x (observation)", "sigma_y (control)"
  double value = 0;
  double false_positive_rate = 0;
};
struct SensitivityGrid {
  std::vector<int> components{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<int> gamma_log2{-20, -16, -12, -8, -4, 0};
  std::vector<int> width_log2{-20, -16, -12, -8, -4, 0, 4, 8, 12, 16, 20};
};
// Table 1: vary one parameter over its range, the others held at `base`.
// Width values are multipliers of the base width factor.
std::vector<SensitivityPoint> sensitivity(const std::vector<RankSample>& samples, const KccaOptions& base, int k = 5,
                                          const SensitivityGrid& grid = {});

// ---- persistence -----------------------------------------------------------

// JSON file; doubles are written with round-trip precision. Throws
// std::runtime_error naming the file on I/O or format errors.
void save_model(const KccaModel& model, const std::string& path);
KccaModel load_model(const std::string& path);

}  // namespace scalefuzz::detectors::kcca
