// The harness's side of the plug-in contract (detectors/api): a stored run
// as a detector sees it.
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::analysis {

// The campaign point of a run: what stays equal across noise and repetitions.
std::string campaign_point(const harness::RunSpec& spec);

// What a detector sees of a stored run (RunInfo).
RunInfo run_info(const harness::RunRecord& run);
std::vector<RunInfo> run_infos(const std::vector<harness::RunRecord>& runs);

}  // namespace scalefuzz::analysis
