// Typed details of the KCCA findings: the detector writes them once
// (to_json, into Finding::details) and the report section reads them back
// typed (from_json), so the two cannot drift apart key by key. Missing keys
// read as their defaults (a hand-written or older finding); an optional
// member is a key present only when known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalefuzz::detectors::kcca {

// A stack frame as the findings show it (addresses as hex text).
struct FrameDetails {
  std::string address;
  std::string module;
  std::string offset;
  std::string function;
  std::string file;
  int line = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FrameDetails, address, module, offset, function, file, line)

// One side (test or training) of a divergence.
struct DivergenceSite {
  std::string stable_hash;  // hex text
  std::uint32_t site_id = 0;
  int rank = -1;
  double share = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DivergenceSite, stable_hash, site_id, rank, share)

// Where a flagged test run's call path left the matching training site's (localize()).
struct DivergenceDetails {
  DivergenceSite test_site, train_site;
  std::uint16_t op = 0;
  std::vector<int> differing_frames;
  int divergence_frame = -1;
  std::string where;  // "application", "library" or "unknown"
  bool from_crash = false;
  std::string reason;
  std::optional<FrameDetails> test_frame, train_frame;  // keys present only when known
};
void to_json(nlohmann::json& j, const DivergenceDetails& d);
void from_json(const nlohmann::json& j, DivergenceDetails& d);

// A test rank's score against the model.
struct RankScore {
  int rank = -1;
  double correlation = 0;
  bool flagged = false;
  double unseen_volume = 0;
};
void to_json(nlohmann::json& j, const RankScore& s);
void from_json(const nlohmann::json& j, RankScore& s);  // a correlation stored as null (NaN) reads NaN

// kind "scale-anomaly": a test run with ranks off the trend (or a crashed one).
struct ScaleAnomalyDetails {
  int nprocs = 0;
  std::vector<int> training_scales;
  double threshold = 0;              // flag when 1 - correlation > threshold
  double correlation_threshold = 0;  // 1 - threshold
  std::vector<RankScore> scores;
  std::vector<std::pair<int, double>> training_correlations;  // [rank, correlation] of training ranks
  std::vector<DivergenceDetails> divergences;
  std::optional<std::string> localization;  // why nothing was localized, when the model has no reference
};
void to_json(nlohmann::json& j, const ScaleAnomalyDetails& d);
void from_json(const nlohmann::json& j, ScaleAnomalyDetails& d);

// kind "scale-plot": a test scale where every rank follows the trend (carries its plot).
struct ScalePlotDetails {
  int nprocs = 0;
  double threshold = 0;
  double correlation_threshold = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ScalePlotDetails, nprocs, threshold, correlation_threshold)

struct CrossValidationDetails {
  int folds = 0;
  std::string fold_unit;
  std::size_t ranks = 0;
  std::size_t flagged = 0;
  double false_positive_rate = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CrossValidationDetails, folds, fold_unit, ranks, flagged,
                                                false_positive_rate)

// kind "scale-model": the trained (or loaded) model, once per campaign.
struct ScaleModelDetails {
  std::size_t training_ranks = 0;
  std::size_t training_runs = 0;
  std::vector<int> training_scales;
  std::vector<std::string> control_features;
  std::size_t observation_features = 0;
  std::string solver;
  std::vector<double> canonical_correlations;
  double threshold = 0;
  double correlation_threshold = 0;
  std::size_t test_runs = 0;
  std::size_t test_runs_flagged = 0;
  int components = 0;
  double gamma = 0;
  double control_width = 0;
  double observation_width = 0;
  std::optional<std::string> model_loaded_from;  // a stored model was reused
  std::optional<std::string> model_file;         // else: where this one was saved
  nlohmann::json provenance = nlohmann::json::object();
  std::optional<CrossValidationDetails> cross_validation;
};
void to_json(nlohmann::json& j, const ScaleModelDetails& d);
void from_json(const nlohmann::json& j, ScaleModelDetails& d);

}  // namespace scalefuzz::detectors::kcca
