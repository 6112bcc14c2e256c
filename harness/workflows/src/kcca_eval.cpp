// scalefuzz kcca-eval DIR: the Vrisha model's quality on a stored campaign
// (detectors/kcca/analysis/kcca_evaluation.hpp does the work).
#include <iostream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "kcca_evaluation.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/analysis/run_info.hpp"

namespace scalefuzz::workflows {

int evaluate_kcca(const KccaEvalOptions& evaluation) {
  const std::filesystem::path& dir = evaluation.dir;
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadOnly);
  const auto campaign = load_stored_campaign(store, default_build_dir());
  detectors::kcca::EvaluationOptions options;
  options.folds = evaluation.folds;
  options.sensitivity = evaluation.sensitivity;
  try {
    detectors::kcca::evaluate_stored_campaign(analysis::run_infos(store.runs()),
                                              campaign ? campaign->settings : settings::TechniqueSettings{}, options,
                                              std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(dir.string() + ": " + e.what());
  }
  return 0;
}

}  // namespace scalefuzz::workflows
