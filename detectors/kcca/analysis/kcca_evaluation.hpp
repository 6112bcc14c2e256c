// `scalefuzz kcca-eval`: the Vrisha model's quality on a campaign's bug-free
// training runs (k-fold cross-validated false-positive rate, the paper's
// §6.4), the test runs' flagged ranks and, on request, its sensitivity to
// N_comps, γ and both kernel widths (Table 1).
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/kcca/settings.hpp"

namespace scalefuzz::detectors::kcca {

using EvaluationOptions = analysis::ModelEvaluationOptions;

// The registry's model evaluation (DetectorInfo::evaluation, `scalefuzz
// kcca-eval DIR`). Writes the evaluation of `runs` (a campaign's stored runs, its technique
// sections `settings`: the kcca: section's) to `out`; unreadable traces are noted on `err` and skipped.
// Throws std::invalid_argument when there is nothing to train on or the
// model cannot be trained.
void evaluate_stored_campaign(const std::vector<analysis::RunInfo>& runs, const analysis::TechniqueSettings& settings,
                              const EvaluationOptions& options, std::ostream& out, std::ostream& err);

// The registry's campaign check (DetectorInfo::campaign_problem): "" when
// kcca.model is absent (trained on first use) or loads; else why it does not.
std::string kcca_model_problem(const analysis::TechniqueSettings& settings);

}  // namespace scalefuzz::detectors::kcca
