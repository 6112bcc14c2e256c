#include "campaign_io.hpp"

#include <fstream>
#include <iomanip>
#include <sstream>

#include "args.hpp"

namespace scalefuzz::cli {

harness::Campaign load_campaign_or_usage_error(const std::filesystem::path& file,
                                               const std::filesystem::path& build_dir) {
  try {
    harness::LoadOptions options;
    options.build_dir = build_dir;
    return harness::load_campaign(file, options);
  } catch (const harness::CampaignError& e) {
    throw UsageError(e.what());
  }
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

std::set<std::string> detector_set(const harness::Campaign& campaign) {
  return {campaign.detectors.begin(), campaign.detectors.end()};
}

}  // namespace scalefuzz::cli
