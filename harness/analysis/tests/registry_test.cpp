// The registry is what a campaign's detectors: list is checked against:
// every entry is complete and constructible, names are unique, and a
// technique that is not built (DMTracker this round) is refused by the loader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "scalefuzz/analysis/engine.hpp"
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
    if (d.section) {
      EXPECT_STREQ(d.report_section, d.section->id) << d.name << ": its own section has another id";
    }
    ASSERT_NE(d.make, nullptr) << d.name;
    auto detector = d.make(context);
    ASSERT_NE(detector, nullptr) << d.name;
    EXPECT_TRUE(detector->finish().empty()) << d.name << ": findings without any run";
    EXPECT_EQ(analysis::find_detector(d.name), &d);
  }
  // The project's techniques, in detectors/CMakeLists.txt's folder order. A
  // technique added later joins the table without an edit here (issue 28:
  // one folder and one registration), so this checks order, not equality.
  const std::vector<std::string> registered = analysis::detector_names();
  auto after = registered.begin();
  for (const char* name : {"races", "kcca", "dmtracker", "mpipd", "pdg", "usage", "rma"}) {
    after = std::find(after, registered.end(), name);
    ASSERT_NE(after, registered.end()) << name << " is not registered, or not after the one before it";
  }
  EXPECT_EQ(analysis::find_detector("usage-checks"), nullptr);
}

detectors::Finding finding(const std::string& detector, const std::string& kind) {
  detectors::Finding f;
  f.detector = detector;
  f.kind = kind;
  return f;
}

// The harness names no technique (issue 28): bug grouping, replay, `analyze
// RUN_DIR`, `reproduce --until race` and the stall evaluation ask these
// queries, so a role a technique stops declaring fails here.
TEST(DetectorRegistry, TechniquesDeclareTheirRoles) {
  EXPECT_EQ(analysis::localizing_detectors(), (std::vector<std::string>{"mpipd", "pdg"}));
  EXPECT_EQ(analysis::replay_detectors(), (std::set<std::string>{"mpipd", "pdg", "races"}));
  EXPECT_EQ(analysis::race_detectors(), (std::set<std::string>{"races"}));

  using harness::bugs::FindingKind;
  const harness::bugs::Roles roles = analysis::bug_roles();
  EXPECT_TRUE(roles.is_race(finding("races", "unintended-match")));
  EXPECT_FALSE(roles.is_race(finding("races", "potential-race")));
  EXPECT_FALSE(roles.is_race(finding("usage", "unintended-match")));
  EXPECT_FALSE(roles.is_race(finding("outcome", "hang")));
  EXPECT_TRUE(roles.is_root_cause(finding("races", "unintended-match")));
  EXPECT_FALSE(roles.is_root_cause(finding("races", "nondeterministic-matching")));
  EXPECT_FALSE(roles.is_root_cause(finding("pdg", "lp-task")));
  EXPECT_EQ(roles.localizing, (std::vector<std::string>{"mpipd", "pdg"}));
  EXPECT_EQ(roles.root_causes, (std::vector<FindingKind>{{"races", "unintended-match"}}));
  EXPECT_EQ(roles.races, (std::vector<FindingKind>{{"races", "unintended-match"}}));
  EXPECT_EQ(roles.potential_races, (std::vector<FindingKind>{{"races", "potential-race"}}));

  std::vector<std::string> judges;
  for (const auto& d : analysis::registry())
    if (d.judge_stalls != nullptr) judges.emplace_back(d.name);
  EXPECT_EQ(judges, (std::vector<std::string>{"pdg"}));
}

// `scalefuzz analyze RUN_DIR`'s lines under a localizing finding: the
// technique's explanation (DetectorInfo::roles.explain_stop), then the source.
TEST(DetectorRegistry, LocalizingTechniquesExplainWhereARunStopped) {
  auto mpipd = finding("mpipd", "deadlock");
  mpipd.details = {{"explanation", "rank 0 waits for rank 1"},
                   {"code", {{"source", {{{"line", 41}, {"text", "a();"}, {"current", false}},
                                         {{"line", 42}, {"text", "MPI_Recv();"}, {"current", true}}}}}}};
  EXPECT_EQ(analysis::describe_localization(mpipd), "    rank 0 waits for rank 1\n    41 | a();\n  > 42 | MPI_Recv();\n");
  auto pdg = finding("pdg", "lp-task");
  pdg.details = {{"eliminated_tasks", "2-3"}};
  EXPECT_EQ(analysis::describe_localization(pdg), "    eliminated by the point-to-point step: 2-3\n");
  pdg.details = {{"eliminated_tasks", ""}};
  EXPECT_EQ(analysis::describe_localization(pdg), "");
  auto race = finding("races", "unintended-match");
  race.details = mpipd.details;
  EXPECT_EQ(analysis::describe_localization(race), "");  // not a localizing technique
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
