// scalefuzz kcca-eval DIR: the Vrisha model's quality on a stored campaign
// (detectors/kcca/analysis/kcca_evaluation.hpp does the work).
#include <iostream>

#include "args.hpp"
#include "campaign_io.hpp"
#include "commands.hpp"
#include "kcca_evaluation.hpp"
#include "paths.hpp"
#include "scalefuzz/analysis/run_info.hpp"

namespace scalefuzz::cli {

int cmd_kcca_eval(const ParsedArgs& args) {
  if (args.positionals.size() != 1) throw UsageError("expected exactly one campaign output DIR");
  const std::filesystem::path dir = args.positionals[0];
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadOnly);
  const auto campaign = load_stored_campaign(store, default_build_dir());
  detectors::kcca::EvaluationOptions options;
  options.folds = static_cast<int>(args.integer("--folds").value_or(5));
  options.sensitivity = args.has("--sensitivity");
  try {
    detectors::kcca::evaluate_stored_campaign(analysis::run_infos(store.runs()), campaign ? campaign->kcca : harness::KccaSpec{}, options,
                                              std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    throw UsageError(dir.string() + ": " + e.what());
  }
  return 0;
}

}  // namespace scalefuzz::cli
