// scalefuzz kcca-eval DIR (and any technique's model evaluation command): a
// technique's model quality on a stored campaign, done by the technique
// (DetectorInfo::evaluation), found in the registry by its command.
#include <iostream>
#include <stdexcept>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"

namespace scalefuzz::workflows {

int evaluate_model(const ModelEvaluationRequest& request) {
  const analysis::ModelEvaluation* evaluation = analysis::find_evaluation(request.command);
  if (!evaluation) throw std::logic_error("no registered technique evaluates a model as '" + request.command + "'");
  const std::filesystem::path& dir = request.dir;
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadOnly);
  const auto campaign = load_stored_campaign(store, default_build_dir());
  // Without its campaign file, every technique evaluates with its defaults.
  const analysis::TechniqueSettings settings = campaign ? campaign->settings : analysis::TechniqueSettings{};
  analysis::ModelEvaluationOptions options;
  options.folds = request.folds;
  options.sensitivity = request.sensitivity;
  try {
    evaluation->evaluate(analysis::run_infos(store.runs()), settings, options, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(dir.string() + ": " + e.what());
  }
  return 0;
}

}  // namespace scalefuzz::workflows
