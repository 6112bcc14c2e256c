#include "scalefuzz/workflows/campaign_io.hpp"

#include <fstream>
#include <iomanip>
#include <sstream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "scalefuzz/harness/run_filter.hpp"
#include "scalefuzz/harness/atomic_file.hpp"

namespace scalefuzz::workflows {

harness::Campaign load_campaign_file(const std::filesystem::path& file, const std::filesystem::path& build_dir) {
  harness::LoadOptions options;
  options.build_dir = build_dir;
  options.detectors = analysis::detector_names();
  return harness::load_campaign(file, options);
}

std::vector<harness::RunSpec> selected_runs(const harness::Campaign& campaign, const std::optional<std::string>& expr) {
  auto runs = harness::expand_campaign(campaign);
  if (expr) {
    try {
      runs = harness::filter_runs(runs, *expr);
    } catch (const harness::FilterError& e) {
      throw UsageError(std::string("--filter: ") + e.what());
    }
  }
  return runs;
}

std::string campaign_fingerprint(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  // FNV-1a 64 over the bytes: cheap, stable, good enough to tell files apart.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : content.str()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream hex;
  hex << std::hex << std::setw(16) << std::setfill('0') << h;
  return hex.str();
}

harness::RunStore open_result_store(const std::filesystem::path& dir, harness::StoreAccess access) {
  if (!std::filesystem::exists(dir / harness::RunStore::kDbFileName))
    throw UsageError(dir.string() + ": not a campaign output directory (no " + harness::RunStore::kDbFileName + ")");
  try {
    return harness::RunStore::open_existing(dir, access);
  } catch (const harness::StoreError& e) {
    throw UsageError(e.what());
  }
}

harness::RunStore open_campaign_store(const std::filesystem::path& out, const harness::Campaign& campaign,
                                      const std::filesystem::path& campaign_file,
                                      const std::filesystem::path& build_dir, const std::string& command_line) {
  // An output directory that cannot exist (a regular file in the way, a name
  // too long, no permission) is the machine's problem, not the campaign's.
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw InfraError(out.string() + ": cannot create output directory: " + ec.message());
  std::optional<harness::RunStore> store;
  try {
    store.emplace(harness::RunStore::open(out, campaign.name, campaign_fingerprint(campaign_file)));
  } catch (const harness::StoreError& e) {
    throw UsageError(std::string(e.what()) + "\n(choose another --out directory; nothing was changed)");
  }
  std::ifstream in(campaign_file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  harness::write_file_atomic(out / kStoredCampaignName, text.str());
  store->set_meta("command_line", command_line);
  store->set_meta("campaign_dir", campaign.campaign_dir.string());
  store->set_meta("campaign_file", std::filesystem::absolute(campaign_file).lexically_normal().string());
  store->set_meta("build_dir", std::filesystem::absolute(build_dir).string());
  if (!store->meta("started_at")) store->set_meta("started_at", harness::utc_timestamp_now());
  return std::move(*store);
}

std::optional<harness::Campaign> load_stored_campaign(const harness::RunStore& store,
                                                      const std::filesystem::path& default_build_dir) {
  const std::filesystem::path file = store.out_dir() / kStoredCampaignName;
  if (!std::filesystem::exists(file)) return std::nullopt;
  harness::LoadOptions options;
  options.build_dir = store.meta("build_dir") ? std::filesystem::path(*store.meta("build_dir")) : default_build_dir;
  options.detectors = analysis::detector_names();
  try {
    if (const auto dir = store.meta("campaign_dir")) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      // Parsed as if it were still in its own directory: {campaign_dir} and
      // relative paths mean what they meant when the campaign ran.
      return harness::parse_campaign(text.str(), std::filesystem::path(*dir) / kStoredCampaignName, options);
    }
    return harness::load_campaign(file, options);
  } catch (const harness::CampaignError& e) {
    throw UsageError(file.string() + " (stored with the results): " + e.what());
  }
}

void check_detectors(const harness::Campaign& campaign) {
  for (const auto& name : campaign.detectors) {
    const auto* info = analysis::find_detector(name);
    if (!info || !info->campaign_problem) continue;
    if (auto problem = info->campaign_problem(campaign.settings); !problem.empty())
      throw UsageError(campaign.file.string() + ": " + problem);
  }
}

std::set<std::string> detector_set(const harness::Campaign& campaign) {
  return {campaign.detectors.begin(), campaign.detectors.end()};
}

}  // namespace scalefuzz::workflows
