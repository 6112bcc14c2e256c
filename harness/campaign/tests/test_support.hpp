// Helpers shared by the campaign tests.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <utility>
#include <string>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/testing/errors.hpp"

namespace scalefuzz::harness::testing {

inline std::filesystem::path data_dir() { return SCALEFUZZ_CAMPAIGN_TEST_DATA; }

inline LoadOptions build_options() { return LoadOptions{"/opt/sf-build", scalefuzz::analysis::detector_names()}; }

// Loads inline YAML as if it were /campaigns/inline.yaml.
inline Campaign parse(const std::string& yaml, const LoadOptions& options = build_options()) {
  return parse_campaign(yaml, "/campaigns/inline.yaml", options);
}

// The CampaignError message of loading `yaml`, or "" when it loads.
inline std::string parse_error(const std::string& yaml, const LoadOptions& options = build_options()) {
  return scalefuzz::testing::error_of<CampaignError>([&] { parse(yaml, options); });
}

// Each YAML `head + tail` fails to load with an error containing `message`.
inline void expect_load_errors(const std::string& head,
                               std::initializer_list<std::pair<std::string, std::string>> tails_and_messages) {
  for (const auto& [tail, message] : tails_and_messages)
    EXPECT_THAT(parse_error(head + tail), ::testing::HasSubstr(message)) << tail;
}

}  // namespace scalefuzz::harness::testing
