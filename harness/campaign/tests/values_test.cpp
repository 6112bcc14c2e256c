#include "values.hpp"

#include "scalefuzz/harness/campaign.hpp"

#include <gtest/gtest.h>

namespace scalefuzz::harness::detail {
namespace {

TEST(Values, Durations) {
  EXPECT_EQ(parse_duration_ns("10us"), 10'000);
  EXPECT_EQ(parse_duration_ns("2ms"), 2'000'000);
  EXPECT_EQ(parse_duration_ns("1.5s"), 1'500'000'000);
  EXPECT_EQ(parse_duration_ns("60s"), 60'000'000'000);
  EXPECT_EQ(parse_duration_ns("2m"), 120'000'000'000);
  EXPECT_EQ(parse_duration_ns("1h"), 3'600'000'000'000);
  EXPECT_EQ(parse_duration_ns("250ns"), 250);
  EXPECT_EQ(parse_duration_ns("5 ms"), 5'000'000);
  EXPECT_EQ(parse_duration_ns("0s"), 0);
  for (const char* bad : {"abc", "60", "", "ms", "1.2.3s", "-5s", "10 parsecs", "5S", "1e3s"})
    EXPECT_FALSE(parse_duration_ns(bad).has_value()) << bad;
}

// The one grammar for campaign files and command-line durations: a bare
// number is refused with how to write it.
TEST(Values, CommandLineDurationsUseTheCampaignGrammar) {
  EXPECT_EQ(parse_duration("1500ms", "--timeout"), std::chrono::milliseconds(1500));
  EXPECT_EQ(parse_duration("2m", "--timeout"), std::chrono::minutes(2));
  try {
    parse_duration("1500", "--timeout");
    ADD_FAILURE() << "a bare number was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "expected a duration for --timeout, got '1500' (add a unit: ns, us, ms, s, m or h); e.g. 1500s for "
                 "seconds");
  }
  EXPECT_THROW(parse_duration("0s", "--poll"), std::invalid_argument);
  EXPECT_THROW(parse_duration("fast", "--poll"), std::invalid_argument);
  EXPECT_NE(check_duration("90", "timeout").problem.find("e.g. 90s"), std::string::npos);
  EXPECT_EQ(check_duration("250us", "delay").ns, 250'000);
}

TEST(Values, Bandwidths) {
  EXPECT_DOUBLE_EQ(*parse_bandwidth("3.14GB/s"), 3.14e9);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("100MB/s"), 1e8);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("1GiB/s"), 1073741824.0);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("5e6"), 5e6);
  EXPECT_FALSE(parse_bandwidth("fast").has_value());
  EXPECT_FALSE(parse_bandwidth("3 furlongs/s").has_value());
}

TEST(Values, Formatting) {
  EXPECT_EQ(format_number(1.2), "1.2");
  EXPECT_EQ(format_number(3.0), "3");
  EXPECT_EQ(format_number(3.14e9), "3140000000");
  EXPECT_EQ(format_number(0.25), "0.25");
  EXPECT_EQ(format_duration_ns(10'000), "10us");
  EXPECT_EQ(format_duration_ns(1'500'000'000), "1500ms");
  EXPECT_EQ(format_duration_ns(120'000'000'000), "2m");
  EXPECT_EQ(format_duration_ns(1'234), "1234ns");
}

}  // namespace
}  // namespace scalefuzz::harness::detail
