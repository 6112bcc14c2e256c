// The analysis step: every selected detector over the stored runs of a
// campaign, producing the findings the reporters render.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::cli {

struct AnalysisOptions {
  std::set<std::string> detectors;       // races, kcca, dmtracker, mpipd, pdg
  std::filesystem::path out_dir;         // campaign output (models are stored here)
  harness::KccaSpec kcca;                // the campaign's kcca: section
  std::ostream* log = nullptr;           // progress notes; nullptr = quiet
};

// Findings for the finished runs in `runs`: one "outcome" finding per run
// that did not end ok, then the detectors' findings.
std::vector<detectors::Finding> analyze_runs(const std::vector<harness::RunRecord>& runs,
                                             const AnalysisOptions& options);

// The campaign point of a run: what stays equal across noise and repetitions.
std::string campaign_point(const harness::RunSpec& spec);

}  // namespace scalefuzz::cli
