// Evaluation command over recorded runs (no harness needed):
//   scalefuzz_kcca_eval --train DIR... --test DIR... [--out DIR] [--app MODULE]
//                       [--cv K] [--sensitivity] [--model FILE] [--load FILE]
// Trains on the --train run directories (or loads --load), prints the
// cross-validated false-positive rate, scores every --test run, localizes
// flagged runs and writes findings.json + one SVG per test scale to --out.
// Exit code: 0 nothing flagged, 1 some test run flagged, 2 usage/input error.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scalefuzz/detectors/kcca/findings.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/trace/model.hpp"

namespace kc = scalefuzz::detectors::kcca;
namespace tr = scalefuzz::trace;
namespace fs = std::filesystem;

namespace {

tr::RunTrace load(const std::string& dir) {
  tr::RunTrace run = tr::read_run(dir);
  if (run.run_id.empty()) run.run_id = fs::path(dir).filename().string();
  for (auto& r : run.ranks)
    if (r.rank >= 0) tr::symbolize(dir, r);
  return run;
}

int usage(const char* why) {
  std::fprintf(stderr, "scalefuzz_kcca_eval: %s\nusage: scalefuzz_kcca_eval --train DIR... --test DIR... [--out DIR] "
                       "[--app MODULE] [--cv K] [--sensitivity] [--model FILE] [--load FILE]\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> train_dirs, test_dirs;
  std::string out, model_out, model_in;
  kc::FindingOptions fopt;
  int cv_folds = 5;
  bool sweep = false;
  std::vector<std::string>* list = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--train") list = &train_dirs;
    else if (a == "--test") list = &test_dirs;
    else if (a == "--out") out = value(), list = nullptr;
    else if (a == "--app") fopt.localize.application_module = value(), list = nullptr;
    else if (a == "--cv") cv_folds = std::atoi(value().c_str()), list = nullptr;
    else if (a == "--sensitivity") sweep = true, list = nullptr;
    else if (a == "--model") model_out = value(), list = nullptr;
    else if (a == "--load") model_in = value(), list = nullptr;
    else if (a.rfind("--", 0) == 0) return usage(("unknown option " + a).c_str());
    else if (list) list->push_back(a);
    else return usage(("stray argument " + a).c_str());
  }
  if ((train_dirs.empty() && model_in.empty()) || test_dirs.empty()) return usage("need --train (or --load) and --test");
  try {
    kc::KccaModel model;
    std::vector<kc::RankSample> samples;
    if (!model_in.empty()) {
      model = kc::load_model(model_in);
    } else {
      std::vector<kc::VolumeProfile> profiles;
      for (const auto& d : train_dirs) {
        const tr::RunTrace run = load(d);
        const auto s = kc::samples_from_run(run, {});
        samples.insert(samples.end(), s.begin(), s.end());
        profiles.push_back(kc::volume_profile(run));
      }
      model = kc::train(samples, kc::control_names({}));
      model.reference_profile = kc::merge_profiles(profiles);
    }
    std::printf("model: %zu training ranks, %s solver, %zu features, rho =", model.n_train,
                kc::to_string(model.solver_used), model.feature_keys.size());
    for (Eigen::Index k = 0; k < model.canonical_correlations.size(); ++k)
      std::printf(" %.4f", model.canonical_correlations(k));
    std::printf(", threshold 1-corr > %.4f (out-of-fold mean %.4f, std %.4f)\n", model.threshold, model.train_mean,
                model.train_std);
    if (!model_out.empty()) kc::save_model(model, model_out), std::printf("model saved to %s\n", model_out.c_str());
    if (!samples.empty() && cv_folds >= 2) {
      const auto cv = kc::cross_validate(samples, {}, cv_folds);
      std::printf("cross-validated false-positive rate: %.2f%% (%zu of %zu ranks, %d folds by %s)\n",
                  100 * cv.false_positive_rate, cv.flagged, cv.samples, cv.folds, kc::to_string(cv.unit));
      if (sweep)
        for (const auto& p : kc::sensitivity(samples, {}, cv_folds))
          std::printf("  sensitivity %-22s %-12g FPR %.2f%%\n", p.parameter.c_str(), p.value, 100 * p.false_positive_rate);
    }
    std::vector<kc::TestRun> tests;
    for (const auto& d : test_dirs) tests.push_back(kc::test_run_from_trace(load(d), {}));
    const auto findings = kc::kcca_findings(model, tests, fopt);
    bool flagged = false;
    for (const auto& t : tests) {
      const auto scores = kc::score(model, t.samples);
      std::size_t n = 0;
      double lo = 1, hi = -1;
      for (const auto& s : scores) n += s.flagged, lo = std::min(lo, s.correlation), hi = std::max(hi, s.correlation);
      flagged |= n > 0;
      std::printf("test %-28s %3d ranks: flagged %zu, correlation [%.3f, %.3f]\n", t.run_id.c_str(), t.nprocs, n, lo, hi);
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& f : findings) {
      if (f.kind == "scale-anomaly") std::printf("finding: %s\n", f.title.c_str());
      for (const auto& d : f.details.value("divergences", nlohmann::json::array()))
        std::printf("  divergence: %s\n", d.dump().c_str());
      all.push_back({{"detector", f.detector}, {"kind", f.kind}, {"run_id", f.run_id}, {"title", f.title},
                     {"location", f.location}, {"ranks", f.ranks}, {"details", f.details}});
      if (!out.empty())
        for (const auto& a : f.artifacts) std::ofstream(fs::path(out) / (a.name + ".svg")) << a.content;
    }
    if (!out.empty()) std::ofstream(fs::path(out) / "findings.json") << all.dump(2);
    return flagged ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scalefuzz_kcca_eval: %s\n", e.what());
    return 2;
  }
}
