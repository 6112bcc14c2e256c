// The registry is what a campaign's detectors: list is checked against:
// every entry is complete and constructible, names are unique, and a
// technique that is not built (DMTracker this round) is refused by the loader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/detectors/api/exploration.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/testing/errors.hpp"

namespace {

using namespace scalefuzz;
using ::testing::HasSubstr;

TEST(DetectorRegistry, EveryEntryIsCompleteUniqueAndConstructible) {
  std::set<std::string> names;
  const std::vector<analysis::RunInfo> runs;
  analysis::AnalysisContext context;
  context.runs = &runs;
  for (const auto& d : analysis::registry()) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name << " registered twice";
    EXPECT_NE(std::string(d.summary), "") << d.name;
    EXPECT_NE(std::string(d.report_section), "") << d.name;
    if (d.section) EXPECT_STREQ(d.report_section, d.section->id) << d.name << ": its own section has another id";
    ASSERT_NE(d.make, nullptr) << d.name;
    auto detector = d.make(context);
    ASSERT_NE(detector, nullptr) << d.name;
    EXPECT_TRUE(detector->finish().empty()) << d.name << ": findings without any run";
    EXPECT_EQ(analysis::find_detector(d.name), &d);
  }
  EXPECT_EQ(analysis::detector_names(), (std::vector<std::string>{"races", "kcca", "dmtracker", "mpipd", "pdg", "usage", "rma"}));
  EXPECT_EQ(analysis::find_detector("usage-checks"), nullptr);
}

// Issue 28: the engine's exploration and `scalefuzz kcca-eval` reach the
// technique through these hooks, not its library.
TEST(DetectorRegistry, FindsTheScheduleAnalysisAndTheModelEvaluation) {
  const auto* races = analysis::find_detector("races");
  ASSERT_NE(races, nullptr);
  ASSERT_NE(races->schedule_analysis, nullptr);
  EXPECT_EQ(analysis::schedule_analysis(), races->schedule_analysis);
  const auto& schedules = *analysis::schedule_analysis();
  EXPECT_NE(schedules.wildcard_alternatives, nullptr);
  EXPECT_NE(schedules.completion_alternatives, nullptr);
  EXPECT_NE(schedules.potential_races, nullptr);
  EXPECT_NE(schedules.findings, nullptr);
  const auto* kcca = analysis::find_detector("kcca");
  ASSERT_NE(kcca, nullptr);
  ASSERT_NE(kcca->evaluation, nullptr);
  EXPECT_EQ(analysis::find_evaluation("kcca-eval"), kcca->evaluation);
  EXPECT_NE(kcca->evaluation->evaluate, nullptr);
  EXPECT_EQ(analysis::find_evaluation("kcca"), nullptr);
}

std::string load_error(const std::string& detectors_line) {
  harness::LoadOptions options;
  options.detectors = analysis::detector_names();
  return scalefuzz::testing::error_of<harness::CampaignError>([&] {
    harness::parse_campaign("campaign: t\napp: { command: [x] }\nscales: [2]\n" + detectors_line, "/c/t.yaml",
                            options);
  });
}

TEST(DetectorRegistry, CampaignNamesAreCheckedAgainstIt) {
  EXPECT_EQ(load_error("detectors: [races, pdg]\n"), "");
  EXPECT_EQ(load_error("detectors: [races, dmtracker]\n"), "");
  EXPECT_THAT(load_error("detectors: [races, memtracker]\n"),
              HasSubstr("/c/t.yaml:4:20: unknown detector 'memtracker'"));
  EXPECT_THAT(load_error("detectors: [memtracker]\n"),
              HasSubstr("registered in this build: races, kcca, dmtracker, mpipd, pdg, usage"));
  EXPECT_THAT(load_error("detectors: [kca]\n"), HasSubstr("did you mean 'kcca'?"));
}

}  // namespace
