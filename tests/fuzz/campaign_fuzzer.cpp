// libFuzzer target: any bytes as a campaign file. The loader must return a
// campaign or throw CampaignError whose message starts with
// "fuzz.yaml:LINE:COLUMN: " (issue 19); anything else — another exception, a
// crash, a hang (libFuzzer -timeout), unbounded memory (-rss_limit_mb) — is a
// finding. Loaded campaigns of at most 10,000 runs are also expanded.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>

#include "scalefuzz/harness/campaign.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalefuzz::harness;
  static const std::regex kWhere(R"(^fuzz\.yaml:[0-9]+:[0-9]+: )");
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Campaign c = parse_campaign(text, "fuzz.yaml", LoadOptions{"/fuzz-build"});
    unsigned long long runs = (c.scales.train.size() + c.scales.test.size()) * c.noise.size() *
                              static_cast<unsigned long long>(c.repetitions);
    for (const auto& p : c.parameters) runs *= p.values.size();
    if (runs <= 10000) (void)expand_campaign(c);
  } catch (const CampaignError& e) {
    if (!std::regex_search(e.what(), kWhere)) {
      std::fprintf(stderr, "rejection without file:line:column: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
