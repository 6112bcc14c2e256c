// The analysis step: every selected detector over the stored runs of a
// campaign, producing the findings the reporters render. Runs stream through
// one at a time: memory is one run's trace plus the detectors' accumulators.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::analysis {

struct AnalysisOptions {
  std::set<std::string> detectors;  // registered names (registry.hpp)
  std::filesystem::path out_dir;    // campaign output (models are stored here)
  TechniqueSettings settings;       // the campaign's technique sections (Campaign::settings)
  std::ostream* log = nullptr;      // progress notes; nullptr = quiet
  // Told what the engine does now ("mpipd on <run id>", "kcca: campaign-wide
  // analysis"), for a status line; empty = nobody listens.
  std::function<void(const std::string&)> phase;
};

// Findings for the finished runs in `runs`: one "outcome" finding per run
// that did not end ok, the detectors' findings, and the stall-injection
// score when runs had a planned stall.
std::vector<detectors::Finding> analyze_runs(const std::vector<harness::RunRecord>& runs,
                                             const AnalysisOptions& options);

// Extra lines for a terminal about a finding of a localizing detector
// (DetectorInfo::roles): its explanation (explain_stop, e.g. MPI-PD's
// failure situation) and the source lines of its code location ("" for
// other findings).
std::string describe_localization(const detectors::Finding& finding);

}  // namespace scalefuzz::analysis
