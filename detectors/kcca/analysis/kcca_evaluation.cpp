#include "kcca_evaluation.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <filesystem>
#include <ostream>
#include <string>

#include "kcca_detector.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::kcca {

namespace {

std::string percent(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * rate);
  return buf;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Table 1's grids are powers of two: 2^-20 reads better than 9.53674e-07.
std::string grid_value(double v) {
  if (v > 0) {
    const double e = std::log2(v);
    if (std::abs(e) >= 2 && e == std::round(e)) return "2^" + std::to_string(static_cast<int>(e));
  }
  return number(v);
}

}  // namespace

void evaluate_stored_campaign(const std::vector<analysis::RunInfo>& runs, const analysis::TechniqueSettings& settings,
                              const EvaluationOptions& evaluation, std::ostream& out, std::ostream& err) {
  const Settings spec = analysis::settings_of<Settings>(settings, "kcca");
  const KccaOptions options = kcca_options(spec);
  const VolumeFeature volume = kcca_volume(spec);

  const std::vector<std::string> numeric = numeric_parameter_names(runs);
  std::vector<RankSample> train, test;
  std::map<std::string, int> test_runs;  // run id -> nprocs
  std::size_t train_runs = 0, skipped = 0;
  for (const auto& run : runs) {
    if (!run.finished() || (run.scale_role != "train" && run.scale_role != "test")) continue;
    if (run.scale_role == "train" && run.end->kind != OutcomeKind::Ok) {
      ++skipped;  // the model learns from clean runs only, as in 'scalefuzz run'
      continue;
    }
    trace::RunTrace trace;
    try {
      trace = trace::read_run(run.dir);
    } catch (const std::exception& e) {
      err << "scalefuzz kcca-eval: run " << run.id << ": trace not readable: " << e.what() << "\n";
      ++skipped;
      continue;
    }
    const SiteKeying keying = kcca_site_keying(spec, run);
    if (keying.library_entry)
      for (auto& rank : trace.ranks)
        if (rank.rank >= 0) trace::symbolize(run.dir, rank);
    auto samples = samples_from_run(trace, kcca_run_params(run, numeric), volume, keying);
    if (spec.chain_features) add_chain_features(trace, run.dir, samples);
    if (run.scale_role == "train") {
      ++train_runs;
      train.insert(train.end(), samples.begin(), samples.end());
    } else {
      test_runs[run.id] = run.nprocs;
      test.insert(test.end(), samples.begin(), samples.end());
    }
  }
  if (train.empty())
    throw std::invalid_argument("no clean runs with scale role 'train' to evaluate (campaign scales.train)");

  RunParams names_of;
  for (const auto& n : numeric) names_of.numeric[n] = 0;
  const std::vector<std::string> control = control_names(names_of);
  KccaModel model;
  try {
    model = kcca::train(train, control, options);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("KCCA model not trained: ") + e.what());
  }
  out << "kcca-eval: " << train.size() << " bug-free ranks from " << train_runs << " train runs at scales "
            << detectors::rank_ranges(model.training_scales) << (skipped ? " (" + std::to_string(skipped) + " runs skipped)" : "")
            << "\n  control:";
  for (const auto& n : control) out << " " << n;
  out << "; observation: " << model.feature_keys.size() << (spec.chain_features ? " call-site and chain-type" : " call-site")
      << " features (" << spec.volume << " bytes)\n"
            << "  N_comps " << options.components << ", gamma " << number(options.gamma) << ", width factors "
            << number(options.control_width_factor) << " (control) " << number(options.observation_width_factor)
            << " (observation); solver " << to_string(model.solver_used) << "; flags correlation < "
            << number(1 - model.threshold) << "\n";

  const CrossValidation cv = cross_validate(train, options, evaluation.folds);
  out << "cross-validation: " << cv.folds << " folds by " << to_string(cv.unit)
            << ": false-positive rate " << percent(cv.false_positive_rate) << " (" << cv.flagged << " of " << cv.samples
            << " ranks); per fold:";
  for (double r : cv.fold_rates) out << " " << percent(r);
  out << "\n";

  if (!test.empty()) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> per_run;  // flagged, ranks
    for (const auto& s : score(model, test)) {
      auto& [flagged, n] = per_run[s.run_id];
      flagged += s.flagged;
      ++n;
    }
    out << "test runs (model trained on every train run):\n";
    for (const auto& [id, counts] : per_run)
      out << "  " << id << ": " << counts.first << " of " << counts.second << " ranks flagged at "
                << test_runs[id] << " ranks\n";
  }

  if (evaluation.sensitivity) {
    out << "sensitivity (false-positive rate, " << evaluation.folds << "-fold; one parameter varied, the others as above;"
              << " widths as multipliers of the factor):\n";
    std::string current;
    for (const auto& p : sensitivity(train, options, evaluation.folds)) {
      if (p.parameter != current) {
        out << (current.empty() ? "" : "\n") << "  " << p.parameter << ":";
        current = p.parameter;
      }
      out << "  " << (p.parameter == "N_comps" ? number(p.value) : grid_value(p.value)) << "=" << percent(p.false_positive_rate);
    }
    out << "\n";
  }
}

std::string kcca_model_problem(const analysis::TechniqueSettings& settings) {
  const Settings kcca = analysis::settings_of<Settings>(settings, "kcca");
  if (kcca.model.empty() || !std::filesystem::exists(kcca.model)) return "";
  try {
    (void)load_model(kcca.model.string());
  } catch (const std::exception& e) {
    return "kcca.model: " + std::string(e.what());
  }
  return "";
}

}  // namespace scalefuzz::detectors::kcca
