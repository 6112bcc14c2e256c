// Loading campaigns and stores for the CLI, with errors mapped to exit codes.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::workflows {

// load_campaign with the registry's detector names. A CampaignError (exit 2)
// names the file, line and column; it is not followed by a pointer to
// --help, which is about the command line, not the file.
harness::Campaign load_campaign_file(const std::filesystem::path& file, const std::filesystem::path& build_dir);

// The campaign's runs, only those matching --filter (UsageError for a bad filter).
std::vector<harness::RunSpec> selected_runs(const harness::Campaign& campaign, const std::optional<std::string>& filter);

// Identity of a campaign file's content: a resumed campaign must be the same file.
std::string campaign_fingerprint(const std::filesystem::path& file);

// The campaign file stored with the results, so `analyze`/`report` work on OUT alone.
inline constexpr const char* kStoredCampaignName = "campaign.yaml";

// Opens (or resumes) the store of `campaign` in `out` and keeps with it the
// campaign file, its directory, the command line and the build directory.
// UsageError when `out` holds another campaign's results (nothing is changed).
// Opens the store of an existing campaign output directory; UsageError when
// `dir` is not one.
harness::RunStore open_result_store(const std::filesystem::path& dir, harness::StoreAccess access);

harness::RunStore open_campaign_store(const std::filesystem::path& out, const harness::Campaign& campaign,
                                      const std::filesystem::path& campaign_file,
                                      const std::filesystem::path& build_dir, const std::string& command_line);

// The campaign stored with the results in `store`, its relative paths (e.g.
// kcca.model) resolved against the original file's directory. nullopt when
// the store has no campaign file (results of an older scalefuzz).
std::optional<harness::Campaign> load_stored_campaign(const harness::RunStore& store,
                                                      const std::filesystem::path& default_build_dir);

// UsageError when a selected detector finds the campaign unusable
// (DetectorInfo::campaign_problem, e.g. an unreadable kcca.model): found
// before any run is launched rather than after the campaign.
void check_detectors(const harness::Campaign& campaign);

// Enabled detectors of a campaign, as a set.
std::set<std::string> detector_set(const harness::Campaign& campaign);

}  // namespace scalefuzz::workflows
