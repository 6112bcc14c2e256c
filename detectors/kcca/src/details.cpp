#include "scalefuzz/detectors/kcca/details.hpp"

#include <limits>

namespace scalefuzz::detectors::kcca {

namespace {

using nlohmann::json;

template <class T>
void put(json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}
template <class T>
void get(const json& j, const char* key, std::optional<T>& value) {
  if (j.contains(key) && !j[key].is_null()) value = j[key].get<T>();
}
template <class T>
void get(const json& j, const char* key, T& value) {
  if (j.contains(key)) j[key].get_to(value);
}

}  // namespace

void to_json(json& j, const RankScore& s) {
  j = {{"rank", s.rank}, {"correlation", s.correlation}, {"flagged", s.flagged}, {"unseen_volume", s.unseen_volume}};
}

void from_json(const json& j, RankScore& s) {
  get(j, "rank", s.rank);
  s.correlation = j.contains("correlation") && j["correlation"].is_number() ? j["correlation"].get<double>()
                                                                           : std::numeric_limits<double>::quiet_NaN();
  get(j, "flagged", s.flagged);
  if (j.contains("unseen_volume") && j["unseen_volume"].is_number()) j["unseen_volume"].get_to(s.unseen_volume);
}

void to_json(json& j, const DivergenceDetails& d) {
  j = {{"test_site", d.test_site},   {"train_site", d.train_site}, {"op", d.op},
       {"differing_frames", d.differing_frames}, {"divergence_frame", d.divergence_frame},
       {"where", d.where}, {"from_crash", d.from_crash}, {"reason", d.reason}};
  put(j, "test_frame", d.test_frame);
  put(j, "train_frame", d.train_frame);
}

void from_json(const json& j, DivergenceDetails& d) {
  get(j, "test_site", d.test_site);
  get(j, "train_site", d.train_site);
  get(j, "op", d.op);
  get(j, "differing_frames", d.differing_frames);
  get(j, "divergence_frame", d.divergence_frame);
  get(j, "where", d.where);
  get(j, "from_crash", d.from_crash);
  get(j, "reason", d.reason);
  get(j, "test_frame", d.test_frame);
  get(j, "train_frame", d.train_frame);
}

void to_json(json& j, const ScaleAnomalyDetails& d) {
  j = {{"nprocs", d.nprocs},
       {"training_scales", d.training_scales},
       {"threshold", d.threshold},
       {"correlation_threshold", d.correlation_threshold},
       {"scores", d.scores},
       {"training_correlations", d.training_correlations},
       {"divergences", d.divergences}};
  put(j, "localization", d.localization);
}

void from_json(const json& j, ScaleAnomalyDetails& d) {
  get(j, "nprocs", d.nprocs);
  get(j, "training_scales", d.training_scales);
  get(j, "threshold", d.threshold);
  get(j, "correlation_threshold", d.correlation_threshold);
  get(j, "scores", d.scores);
  get(j, "training_correlations", d.training_correlations);
  get(j, "divergences", d.divergences);
  get(j, "localization", d.localization);
}

void to_json(json& j, const ScaleModelDetails& d) {
  j = {{"training_ranks", d.training_ranks},
       {"training_runs", d.training_runs},
       {"training_scales", d.training_scales},
       {"control_features", d.control_features},
       {"observation_features", d.observation_features},
       {"solver", d.solver},
       {"canonical_correlations", d.canonical_correlations},
       {"threshold", d.threshold},
       {"correlation_threshold", d.correlation_threshold},
       {"test_runs", d.test_runs},
       {"test_runs_flagged", d.test_runs_flagged},
       {"components", d.components},
       {"gamma", d.gamma},
       {"control_width", d.control_width},
       {"observation_width", d.observation_width},
       {"provenance", d.provenance}};
  put(j, "model_loaded_from", d.model_loaded_from);
  put(j, "model_file", d.model_file);
  put(j, "cross_validation", d.cross_validation);
}

void from_json(const json& j, ScaleModelDetails& d) {
  get(j, "training_ranks", d.training_ranks);
  get(j, "training_runs", d.training_runs);
  get(j, "training_scales", d.training_scales);
  get(j, "control_features", d.control_features);
  get(j, "observation_features", d.observation_features);
  get(j, "solver", d.solver);
  get(j, "canonical_correlations", d.canonical_correlations);
  get(j, "threshold", d.threshold);
  get(j, "correlation_threshold", d.correlation_threshold);
  get(j, "test_runs", d.test_runs);
  get(j, "test_runs_flagged", d.test_runs_flagged);
  get(j, "components", d.components);
  get(j, "gamma", d.gamma);
  get(j, "control_width", d.control_width);
  get(j, "observation_width", d.observation_width);
  get(j, "provenance", d.provenance);
  get(j, "model_loaded_from", d.model_loaded_from);
  get(j, "model_file", d.model_file);
  get(j, "cross_validation", d.cross_validation);
}

}  // namespace scalefuzz::detectors::kcca
