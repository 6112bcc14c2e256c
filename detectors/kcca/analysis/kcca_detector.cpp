#include "kcca_detector.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <ostream>
#include <set>

#include "chain_features.hpp"
#include "kcca_evaluation.hpp"
#include "kcca_section.hpp"
#include "scalefuzz/detectors/kcca/details.hpp"
#include "scalefuzz/trace/symbolize.hpp"


namespace scalefuzz::detectors::kcca {

namespace fs = std::filesystem;
namespace kc = detectors::kcca;  // kept: the library's names read as kc::
using detectors::Finding;
using analysis::RunInfo;

namespace {

std::optional<double> as_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool is_crash(OutcomeKind k) { return k == OutcomeKind::Crashed || k == OutcomeKind::MpiAbort; }

std::string percent(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * rate);
  return buf;
}

std::string fixed(double v, int digits = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

Finding warning(const std::string& title) {
  Finding f;
  f.detector = "kcca";
  f.kind = "model-unavailable";
  f.severity = detectors::Severity::Warning;
  f.title = title;
  return f;
}

}  // namespace

std::vector<std::string> numeric_parameter_names(const std::vector<RunInfo>& runs) {
  std::map<std::string, bool> numeric;  // name -> every value a number so far
  for (const auto& run : runs)
    for (const auto& [name, value] : run.params) {
      const bool is_num = as_number(value).has_value();
      auto [it, fresh] = numeric.emplace(name, is_num);
      if (!fresh) it->second = it->second && is_num;
    }
  std::vector<std::string> names;
  for (const auto& [name, ok] : numeric)
    if (ok) names.push_back(name);
  return names;
}

kc::KccaOptions kcca_options(const Settings& spec) {
  kc::KccaOptions o;
  o.components = spec.components;
  o.gamma = spec.gamma;
  o.control_width_factor = spec.control_width;
  o.observation_width_factor = spec.observation_width;
  return o;
}

kc::VolumeFeature kcca_volume(const Settings& spec) {
  if (spec.volume == "sent") return kc::VolumeFeature::Sent;
  if (spec.volume == "sent-and-received") return kc::VolumeFeature::SentAndReceived;
  return kc::VolumeFeature::Total;
}

kc::SiteKeying kcca_site_keying(const Settings& spec, const analysis::RunInfo& run) {
  kc::SiteKeying k;
  k.library_entry = spec.library_sites == "entry";
  if (!run.argv.empty()) k.application_module = run.argv.front();
  return k;
}

kc::RunParams kcca_run_params(const RunInfo& run, const std::vector<std::string>& numeric_names) {
  kc::RunParams p;
  p.run_id = run.id;
  for (const auto& name : numeric_names)
    if (auto it = run.params.find(name); it != run.params.end()) p.numeric[name] = *as_number(it->second);
  return p;
}

std::string binary_build_id(const fs::path& file) {
  if (std::string id = trace::gnu_build_id(file); !id.empty()) return id;
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64 (Fowler/Noll/Vo) of the bytes
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it)
    h = (h ^ static_cast<unsigned char>(*it)) * 1099511628211ull;
  char buf[32];
  std::snprintf(buf, sizeof buf, "content-%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void add_chain_features(const trace::RunTrace& trace, const fs::path& run_dir, std::vector<RankSample>& samples) {
  const auto volumes = detectors::dmtracker::chain_volumes(trace, run_dir);
  for (auto& s : samples) {
    auto it = volumes.find(s.rank);
    if (it == volumes.end()) continue;
    for (const auto& [key, bytes] : it->second) s.observation[key] += bytes;
  }
}

nlohmann::json kcca_provenance(const Settings& spec, const std::vector<RunInfo>& runs) {
  std::set<int> train_scales;
  std::string binary;
  for (const auto& r : runs) {
    if (r.scale_role != "train") continue;
    train_scales.insert(r.nprocs);
    if (binary.empty() && !r.argv.empty()) binary = r.argv.front();
  }
  // The parameters that form the control vector with rank and nprocs (their
  // values are data the model generalizes over, not part of its shape).
  return {{"train_scales", std::vector<int>(train_scales.begin(), train_scales.end())},
          {"control_parameters", numeric_parameter_names(runs)},
          {"options",
           {{"components", spec.components},
            {"gamma", spec.gamma},
            {"control_width", spec.control_width},
            {"observation_width", spec.observation_width},
            {"volume", spec.volume},
            {"chain_features", spec.chain_features},
            {"library_sites", spec.library_sites}}},
          {"application", fs::path(binary).filename().string()},
          {"build_id", binary.empty() ? std::string() : binary_build_id(binary)}};
}

std::string provenance_mismatch(const nlohmann::json& stored, const nlohmann::json& expected) {
  if (!stored.is_object() || stored.empty()) return "it records nothing about what it was trained on";
  std::string out;
  for (const auto& [key, value] : expected.items()) {
    const auto it = stored.find(key);
    if (it != stored.end() && *it == value) continue;
    out += (out.empty() ? "" : "; ") + key + " " + (it == stored.end() ? std::string("missing") : it->dump()) +
           " -> " + value.dump();
  }
  return out;
}

namespace {

class KccaDetector : public analysis::Detector {
 public:
  explicit KccaDetector(const analysis::AnalysisContext& context)
      : spec_(analysis::settings_of<Settings>(context.settings, "kcca")), out_dir_(context.out_dir), log_(context.log),
        numeric_names_(numeric_parameter_names(*context.runs)),
        provenance_(kcca_provenance(spec_, *context.runs)) {
    decide_reuse();
  }

  std::vector<Finding> observe(const analysis::RunView& run) override;
  std::vector<Finding> finish() override;

 private:
  void add_chain_features(const analysis::RunView& run, std::vector<kc::RankSample>& samples) const {
    if (spec_.chain_features) kc::add_chain_features(run.trace(), run.dir(), samples);
  }
  // kcca.model: reused when it exists and its provenance matches, else
  // (re)trained and saved there; reuse_note_ says which and why.
  void decide_reuse();

  // A call path inside a library of a test run (kcca.library_sites: entry),
  // reported when no training run had it (scale-new-library-sites).
  struct LibrarySite {
    std::uint64_t stable_hash = 0;
    std::string library;
    std::string entry;  // the application frame calling into the library, formatted
    int rank = -1;
  };
  struct PendingTest {
    std::string run_id;
    int nprocs = 0;
    std::vector<LibrarySite> library_sites;
    bool crashed = false;
    kc::TestRun test;                 // samples: what scoring needs
    std::optional<kc::TestRun> full;  // with the symbolized profile: what localization needs
  };
  static void collect_library_sites(const trace::RunTrace& trace, const kc::SiteKeying& keying,
                                    std::vector<LibrarySite>& out) {
    std::set<std::uint64_t> seen;
    for (const auto& r : trace.ranks) {
      if (r.rank < 0) continue;
      for (std::size_t id = 0; id < r.sites.size() && id < r.features.size(); ++id) {
        const auto& f = r.features[id];
        if (f.bytes_sent + f.bytes_received == 0 || seen.count(r.sites[id].stable_hash)) continue;
        const auto entry = kc::library_entry(r.sites[id], keying.application_module);
        if (!entry) continue;
        seen.insert(r.sites[id].stable_hash);
        out.push_back({r.sites[id].stable_hash, entry->library,
                       trace::format_frame(r.sites[id].symbolized[entry->application_frame]), r.rank});
      }
    }
  }
  std::vector<Finding> new_library_site_findings(const kc::KccaModel& model) const;

  Settings spec_;
  fs::path out_dir_;
  std::ostream* log_;
  std::vector<std::string> numeric_names_;
  std::vector<kc::RankSample> train_samples_;
  std::vector<kc::VolumeProfile> train_profiles_;
  std::set<std::string> train_runs_;
  std::vector<PendingTest> tests_;
  std::string application_module_;  // the program: frames elsewhere are library frames
  nlohmann::json provenance_;
  std::optional<kc::KccaModel> stored_;
  std::string reuse_note_;
};

void KccaDetector::decide_reuse() {
  if (spec_.model.empty()) return;
  const bool has_train_runs = !provenance_["train_scales"].empty();
  if (!fs::exists(spec_.model)) {
    reuse_note_ = "no model at " + spec_.model.string() + " yet: training one and saving it there";
    return;
  }
  try {
    kc::KccaModel m = kc::load_model(spec_.model.string());
    const std::string why = provenance_mismatch(m.provenance, provenance_);
    if (why.empty() || !has_train_runs) {
      reuse_note_ = "reusing the stored model " + spec_.model.string() + " (trained at scales " +
                    detectors::rank_ranges(m.training_scales) +
                    (why.empty() ? "" : "; it differs: " + why + ", but there are no train runs to retrain it") +
                    "): no training";
      stored_ = std::move(m);
    } else {
      reuse_note_ = "the stored model " + spec_.model.string() + " no longer matches (" + why + "): retraining it";
    }
  } catch (const std::exception& e) {
    reuse_note_ = "the stored model " + spec_.model.string() + " is unreadable (" + e.what() + "): retraining it";
  }
}

std::vector<Finding> KccaDetector::observe(const analysis::RunView& run) {
  const kc::VolumeFeature volume = kcca_volume(spec_);
  const analysis::RunInfo& spec = run.info();
  if (spec.scale_role == "train") {
    if (stored_ || run.end().kind != OutcomeKind::Ok) return {};  // the model learns from clean runs only
    const trace::RunTrace& trace = run.symbolized();
    auto samples =
        kc::samples_from_run(trace, kcca_run_params(run.info(), numeric_names_), volume, kcca_site_keying(spec_, spec));
    add_chain_features(run, samples);
    train_samples_.insert(train_samples_.end(), samples.begin(), samples.end());
    train_profiles_.push_back(kc::volume_profile(trace, {}, volume));
    train_runs_.insert(spec.id);
  } else if (spec.scale_role == "test") {
    PendingTest t;
    t.run_id = spec.id;
    t.crashed = is_crash(run.end().kind);
    const kc::RunParams params = kcca_run_params(run.info(), numeric_names_);
    t.test.run_id = spec.id;
    const kc::SiteKeying keying = kcca_site_keying(spec_, spec);
    t.test.samples = kc::samples_from_run(keying.library_entry ? run.symbolized() : run.trace(), params, volume, keying);
    add_chain_features(run, t.test.samples);
    t.test.nprocs = t.nprocs = spec.nprocs;
    if (keying.library_entry) collect_library_sites(run.symbolized(), keying, t.library_sites);
    // Kept for localization if the run is flagged: the trace is dropped
    // after this call and not read again.
    try {
      t.full = kc::test_run_from_trace(run.symbolized(), params, t.crashed, volume, keying);
      t.full->nprocs = spec.nprocs;
      if (spec_.chain_features) t.full->samples = t.test.samples;  // with the chain features
    } catch (const std::exception& e) {
      if (log_) *log_ << "analysis: kcca: cannot localize " << t.run_id << ": " << e.what() << "\n";
    }
    if (application_module_.empty() && !spec.argv.empty()) application_module_ = spec.argv.front();
    tests_.push_back(std::move(t));
  }
  return {};
}

std::vector<Finding> KccaDetector::finish() {
  std::ostream* log = log_;
  auto note = [&](const std::string& line) {
    if (log) *log << "analysis: kcca: " << line << "\n";
  };
  std::vector<Finding> out;
  kc::KccaModel model;
  std::optional<kc::CrossValidation> cv;
  const kc::KccaOptions options = kcca_options(spec_);
  if (!reuse_note_.empty()) note(reuse_note_);
  const bool stored_reused = stored_.has_value();
  if (stored_) {
    model = std::move(*stored_);
  } else if (train_samples_.empty()) {
    if (!tests_.empty()) note("no clean train runs (scales.train) and no kcca.model: test runs not scored");
    return out;
  } else {
    std::vector<std::string> names = kc::control_names([&] {
      kc::RunParams p;
      for (const auto& n : numeric_names_) p.numeric[n] = 0;
      return p;
    }());
    try {
      model = kc::train(train_samples_, names, options);
    } catch (const std::exception& e) {
      const std::string why = "KCCA model not trained from " + std::to_string(train_runs_.size()) +
                              " clean train runs (" + std::to_string(train_samples_.size()) + " ranks): " + e.what();
      if (tests_.empty()) note(why + " (no test runs to score)");  // e.g. a --filter picked a few train runs
      else out.push_back(warning(why));
      return out;
    }
    model.reference_profile = kc::merge_profiles(train_profiles_);
    model.provenance = provenance_;
    const fs::path file = out_dir_ / kKccaModelFile;
    kc::save_model(model, file.string());  // writes a temporary file and renames it
    if (!spec_.model.empty()) {
      std::error_code ec;
      if (spec_.model.has_parent_path()) fs::create_directories(spec_.model.parent_path(), ec);
      try {
        kc::save_model(model, spec_.model.string());
        note("saved the model for later campaigns as " + spec_.model.string());
      } catch (const std::exception& e) {
        out.push_back(warning("KCCA model not saved as kcca.model: " + std::string(e.what())));
      }
    }
    try {
      cv = kc::cross_validate(train_samples_, options, 5);
    } catch (const std::exception& e) {
      note(std::string("cross-validation skipped: ") + e.what());
    }
    note("trained on " + std::to_string(model.n_train) + " ranks of " + std::to_string(train_runs_.size()) +
         " runs at scales " + detectors::rank_ranges(model.training_scales) + "; threshold correlation < " +
         fixed(1 - model.threshold) +
         (cv ? "; cross-validated false-positive rate " + percent(cv->false_positive_rate) + " (" +
                   std::to_string(cv->flagged) + " of " + std::to_string(cv->samples) + " ranks)"
             : std::string()) +
         "; saved " + file.string());
  }

  // Score everything; only runs that are off the trend (or crashed) need the
  // symbolized volume profile that localization compares.
  std::vector<kc::TestRun> runs;
  std::size_t flagged_runs = 0;
  for (auto& t : tests_) {
    bool flagged = false;
    try {
      for (const auto& s : kc::score(model, t.test.samples)) flagged = flagged || s.flagged;
    } catch (const std::exception& e) {
      out.push_back(warning("KCCA cannot score " + t.run_id + " with this model: " + e.what()));
      return out;
    }
    if (flagged || t.crashed) {
      flagged_runs += flagged;
      if (t.full) t.test = std::move(*t.full);
    }
    runs.push_back(std::move(t.test));
  }
  kc::FindingOptions fopt;
  fopt.localize.application_module = application_module_;
  auto findings = kc::kcca_findings(model, runs, fopt);

  Finding summary;
  summary.detector = "kcca";
  summary.kind = "scale-model";
  summary.severity = detectors::Severity::Info;
  const std::string scales = model.training_scales.empty() ? "?" : detectors::rank_ranges(model.training_scales);
  summary.title = "KCCA scale model from " + std::to_string(model.n_train) + " ranks at " + scales +
                  " ranks: flags correlation < " + fixed(1 - model.threshold) +
                  (cv ? "; cross-validated false-positive rate " + percent(cv->false_positive_rate) : std::string()) +
                  "; " + std::to_string(flagged_runs) + " of " + std::to_string(runs.size()) + " test runs off the trend";
  kc::ScaleModelDetails details;
  details.training_ranks = model.n_train;
  details.training_runs = train_runs_.size();
  details.training_scales = model.training_scales;
  details.control_features = model.control_names;
  details.observation_features = model.feature_keys.size();
  details.solver = kc::to_string(model.solver_used);
  for (Eigen::Index k = 0; k < model.canonical_correlations.size(); ++k)
    details.canonical_correlations.push_back(model.canonical_correlations(k));
  details.threshold = model.threshold;
  details.correlation_threshold = 1 - model.threshold;
  details.test_runs = runs.size();
  details.test_runs_flagged = flagged_runs;
  details.components = model.options.components;
  details.gamma = model.options.gamma;
  details.control_width = model.options.control_width_factor;
  details.observation_width = model.options.observation_width_factor;
  if (stored_reused) details.model_loaded_from = spec_.model.string();
  else details.model_file = (out_dir_ / kKccaModelFile).string();
  details.provenance = model.provenance;
  if (cv)
    details.cross_validation =
        kc::CrossValidationDetails{cv->folds, kc::to_string(cv->unit), cv->samples, cv->flagged, cv->false_positive_rate};
  summary.details = details;
  out.push_back(std::move(summary));
  for (auto& f : findings) out.push_back(std::move(f));
  for (auto& f : new_library_site_findings(model)) out.push_back(std::move(f));
  note(std::to_string(flagged_runs) + " of " + std::to_string(runs.size()) + " test runs off the scale trend");
  return out;
}

// Call paths inside a library that the test runs took and no training run
// did (kcca.library_sites: entry): the library changed its communication
// with the rank count. Scored through the application's call into the
// library; reported here so a reader sees it, naming the library and the
// application code that called it. One Info finding per run and entry.
std::vector<Finding> KccaDetector::new_library_site_findings(const kc::KccaModel& model) const {
  std::set<std::uint64_t> trained;
  for (const auto& s : model.reference_profile.sites) trained.insert(s.stable_hash);
  std::vector<Finding> out;
  for (const auto& t : tests_) {
    std::map<std::pair<std::string, std::string>, std::vector<const LibrarySite*>> by_entry;
    for (const auto& s : t.library_sites)
      if (!trained.count(s.stable_hash)) by_entry[{s.library, s.entry}].push_back(&s);
    for (const auto& [key, sites] : by_entry) {
      const auto& [library, entry] = key;
      Finding f;
      f.detector = "kcca";
      f.kind = "scale-new-library-sites";
      f.severity = detectors::Severity::Info;
      f.run_id = t.run_id;
      f.location = entry;
      std::set<int> ranks;
      for (const auto* s : sites) ranks.insert(s->rank);
      f.ranks.assign(ranks.begin(), ranks.end());
      f.title = t.run_id + ": at " + std::to_string(t.nprocs) + " ranks " + library + " communicates through " +
                std::to_string(sites.size()) + " call path" + (sites.size() == 1 ? "" : "s") +
                " no training scale had (called from " + entry + "): the library changed its communication with the "
                "rank count; scored as the application's call into " + library;
      f.details = {{"library", library}, {"entry", entry}, {"new_call_paths", sites.size()},
                   {"nprocs", t.nprocs}, {"library_sites", "entry"}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<analysis::Detector> make_kcca_detector(const analysis::AnalysisContext& context) {
  return std::make_unique<KccaDetector>(context);
}

constexpr analysis::KindLabel kKindLabels[] = {{"scale-anomaly", "scale anomaly"}, {nullptr, nullptr}};

namespace {
// `scalefuzz kcca-eval DIR` (kcca_evaluation.hpp), found through the registry.
constexpr analysis::ModelEvaluation kEvaluation{"kcca-eval", evaluate_stored_campaign};
}  // namespace

const analysis::DetectorInfo kDetector{
    .name = "kcca",
    .summary = "scale bugs: ranks of test runs off the KCCA scale trend learned at the train scales (Vrisha)",
    .report_section = "scale-models",
    .needs = {analysis::Needs::Runs::All, true},
    .make = make_kcca_detector,
    .campaign_problem = kcca_model_problem,
    .section = &kReportSection,
    .kind_labels = kKindLabels,
    .evaluation = &kEvaluation};

}  // namespace scalefuzz::detectors::kcca
