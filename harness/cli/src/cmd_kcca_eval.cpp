// scalefuzz kcca-eval: the Vrisha model's quality on a campaign's bug-free
// training runs (k-fold cross-validated false-positive rate, the paper's §6.4)
// and its sensitivity to N_comps, γ and both kernel widths (Table 1).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "args.hpp"
#include "campaign_io.hpp"
#include "commands.hpp"
#include "kcca_detector.hpp"
#include "paths.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;
namespace kc = detectors::kcca;

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

int cmd_kcca_eval(const ParsedArgs& args) {
  if (args.positionals.size() != 1) throw UsageError("expected exactly one campaign output DIR");
  const fs::path dir = args.positionals[0];
  const int folds = static_cast<int>(args.integer("--folds").value_or(5));
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadOnly);
  const auto campaign = load_stored_campaign(store, default_build_dir());
  const harness::KccaSpec kcca = campaign ? campaign->kcca : harness::KccaSpec{};
  const kc::KccaOptions options = kc::kcca_options(kcca);
  const kc::VolumeFeature volume = kc::kcca_volume(kcca);

  const std::vector<harness::RunRecord> runs = store.runs();
  const std::vector<std::string> numeric = kc::numeric_parameter_names(runs);
  std::vector<kc::RankSample> train, test;
  std::map<std::string, int> test_runs;  // run id -> nprocs
  std::size_t train_runs = 0, skipped = 0;
  for (const auto& run : runs) {
    if (!run.outcome || (run.spec.scale_role != "train" && run.spec.scale_role != "test")) continue;
    if (run.spec.scale_role == "train" && run.outcome->kind != harness::OutcomeKind::Ok) {
      ++skipped;  // the model learns from clean runs only, as in 'scalefuzz run'
      continue;
    }
    trace::RunTrace trace;
    try {
      trace = trace::read_run(run.dir);
    } catch (const std::exception& e) {
      std::cerr << "scalefuzz kcca-eval: run " << run.spec.run_id << ": trace not readable: " << e.what() << "\n";
      ++skipped;
      continue;
    }
    auto samples = kc::samples_from_run(trace, kc::kcca_run_params(run, numeric), volume);
    if (run.spec.scale_role == "train") {
      ++train_runs;
      train.insert(train.end(), samples.begin(), samples.end());
    } else {
      test_runs[run.spec.run_id] = run.spec.nprocs;
      test.insert(test.end(), samples.begin(), samples.end());
    }
  }
  if (train.empty())
    throw UsageError(dir.string() + ": no clean runs with scale role 'train' to evaluate (campaign scales.train)");

  kc::RunParams names_of;
  for (const auto& n : numeric) names_of.numeric[n] = 0;
  const std::vector<std::string> control = kc::control_names(names_of);
  kc::KccaModel model;
  try {
    model = kc::train(train, control, options);
  } catch (const std::exception& e) {
    throw UsageError(std::string("KCCA model not trained: ") + e.what());
  }
  std::cout << "kcca-eval: " << train.size() << " bug-free ranks from " << train_runs << " train runs at scales "
            << detectors::rank_ranges(model.training_scales) << (skipped ? " (" + std::to_string(skipped) + " runs skipped)" : "")
            << "\n  control:";
  for (const auto& n : control) std::cout << " " << n;
  std::cout << "; observation: " << model.feature_keys.size() << " call-site features (" << kcca.volume << " bytes)\n"
            << "  N_comps " << options.components << ", gamma " << number(options.gamma) << ", width factors "
            << number(options.control_width_factor) << " (control) " << number(options.observation_width_factor)
            << " (observation); solver " << kc::to_string(model.solver_used) << "; flags correlation < "
            << number(1 - model.threshold) << "\n";

  const kc::CrossValidation cv = kc::cross_validate(train, options, folds);
  std::cout << "cross-validation: " << cv.folds << " folds by " << kc::to_string(cv.unit)
            << ": false-positive rate " << percent(cv.false_positive_rate) << " (" << cv.flagged << " of " << cv.samples
            << " ranks); per fold:";
  for (double r : cv.fold_rates) std::cout << " " << percent(r);
  std::cout << "\n";

  if (!test.empty()) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> per_run;  // flagged, ranks
    for (const auto& s : kc::score(model, test)) {
      auto& [flagged, n] = per_run[s.run_id];
      flagged += s.flagged;
      ++n;
    }
    std::cout << "test runs (model trained on every train run):\n";
    for (const auto& [id, counts] : per_run)
      std::cout << "  " << id << ": " << counts.first << " of " << counts.second << " ranks flagged at "
                << test_runs[id] << " ranks\n";
  }

  if (args.has("--sensitivity")) {
    std::cout << "sensitivity (false-positive rate, " << folds << "-fold; one parameter varied, the others as above;"
              << " widths as multipliers of the factor):\n";
    std::string current;
    for (const auto& p : kc::sensitivity(train, options, folds)) {
      if (p.parameter != current) {
        std::cout << (current.empty() ? "" : "\n") << "  " << p.parameter << ":";
        current = p.parameter;
      }
      std::cout << "  " << (p.parameter == "N_comps" ? number(p.value) : grid_value(p.value)) << "=" << percent(p.false_positive_rate);
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace scalefuzz::cli
