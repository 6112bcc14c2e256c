// Loading campaigns and stores for the CLI, with errors mapped to exit codes.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::cli {

// load_campaign with CampaignError -> UsageError (exit 2).
harness::Campaign load_campaign_or_usage_error(const std::filesystem::path& file,
                                               const std::filesystem::path& build_dir);

// Identity of a campaign file's content: a resumed campaign must be the same file.
std::string campaign_fingerprint(const std::filesystem::path& file);

// The campaign file stored with the results, so `analyze`/`report` work on OUT alone.
inline constexpr const char* kStoredCampaignName = "campaign.yaml";

// Enabled detectors of a campaign, as a set.
std::set<std::string> detector_set(const harness::Campaign& campaign);

}  // namespace scalefuzz::cli
