#include "scalefuzz/detectors/kcca/details.hpp"

#include <limits>

namespace scalefuzz::detectors::kcca {

namespace {

using nlohmann::json;

// Each struct's keys, listed once: `visit(key, member)` for every member
// (const or not), so writing and reading cannot list different keys.
template <class Self, class Visit>
void divergence_fields(Self& d, Visit&& visit) {
  visit("test_site", d.test_site);
  visit("train_site", d.train_site);
  visit("op", d.op);
  visit("differing_frames", d.differing_frames);
  visit("divergence_frame", d.divergence_frame);
  visit("where", d.where);
  visit("from_crash", d.from_crash);
  visit("reason", d.reason);
  visit("test_frame", d.test_frame);
  visit("train_frame", d.train_frame);
}

template <class Self, class Visit>
void anomaly_fields(Self& d, Visit&& visit) {
  visit("nprocs", d.nprocs);
  visit("training_scales", d.training_scales);
  visit("threshold", d.threshold);
  visit("correlation_threshold", d.correlation_threshold);
  visit("scores", d.scores);
  visit("training_correlations", d.training_correlations);
  visit("divergences", d.divergences);
  visit("localization", d.localization);
}

template <class Self, class Visit>
void model_fields(Self& d, Visit&& visit) {
  visit("training_ranks", d.training_ranks);
  visit("training_runs", d.training_runs);
  visit("training_scales", d.training_scales);
  visit("control_features", d.control_features);
  visit("observation_features", d.observation_features);
  visit("solver", d.solver);
  visit("canonical_correlations", d.canonical_correlations);
  visit("threshold", d.threshold);
  visit("correlation_threshold", d.correlation_threshold);
  visit("test_runs", d.test_runs);
  visit("test_runs_flagged", d.test_runs_flagged);
  visit("components", d.components);
  visit("gamma", d.gamma);
  visit("control_width", d.control_width);
  visit("observation_width", d.observation_width);
  visit("model_loaded_from", d.model_loaded_from);
  visit("model_file", d.model_file);
  visit("provenance", d.provenance);
  visit("cross_validation", d.cross_validation);
}

// Writes a member; an empty optional writes no key.
struct Writer {
  json& j;
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) const {
    if (value) j[key] = *value;
  }
  template <class T>
  void operator()(const char* key, const T& value) const {
    j[key] = value;
  }
};

// Reads a member when its key is there (null: an optional stays empty).
struct Reader {
  const json& j;
  template <class T>
  void operator()(const char* key, std::optional<T>& value) const {
    if (j.contains(key) && !j[key].is_null()) value = j[key].get<T>();
  }
  template <class T>
  void operator()(const char* key, T& value) const {
    if (j.contains(key)) j[key].get_to(value);
  }
};

}  // namespace

void to_json(json& j, const RankScore& s) {
  j = {{"rank", s.rank}, {"correlation", s.correlation}, {"flagged", s.flagged}, {"unseen_volume", s.unseen_volume}};
}

void from_json(const json& j, RankScore& s) {
  const Reader read{j};
  read("rank", s.rank);
  read("flagged", s.flagged);
  s.correlation = j.contains("correlation") && j["correlation"].is_number() ? j["correlation"].get<double>()
                                                                           : std::numeric_limits<double>::quiet_NaN();
  if (j.contains("unseen_volume") && j["unseen_volume"].is_number()) j["unseen_volume"].get_to(s.unseen_volume);
}

void to_json(json& j, const DivergenceDetails& d) {
  j = json::object();
  divergence_fields(d, Writer{j});
}
void from_json(const json& j, DivergenceDetails& d) { divergence_fields(d, Reader{j}); }
void to_json(json& j, const ScaleAnomalyDetails& d) {
  j = json::object();
  anomaly_fields(d, Writer{j});
}
void from_json(const json& j, ScaleAnomalyDetails& d) { anomaly_fields(d, Reader{j}); }
void to_json(json& j, const ScaleModelDetails& d) {
  j = json::object();
  model_fields(d, Writer{j});
}
void from_json(const json& j, ScaleModelDetails& d) { model_fields(d, Reader{j}); }

}  // namespace scalefuzz::detectors::kcca
