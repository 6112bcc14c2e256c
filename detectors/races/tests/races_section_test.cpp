// The Races section of report.html (report/races_section.cpp).
#include "races_section.hpp"
#include "scalefuzz/detectors/race_details.hpp"

#include <gtest/gtest.h>

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using scalefuzz::detectors::Finding;

// What harness/report hands the section: the findings and the runs.
struct ReportData {
  std::vector<Finding> findings;
  std::vector<scalefuzz::analysis::RunInfo> runs;
};

std::string races_section(const ReportData& data) {
  return scalefuzz::detectors::races::races_section({data.findings, data.runs});
}

Finding unintended(const std::string& run, const std::string& noise) {
  return {.detector = "races", .kind = "unintended-match", .run_id = run, .ranks = {3, 1},
          .details = {{"receive_routine", "routine_a (case2.c:62)"}, {"send_routine", "routine_b (case2.c:68)"},
                      {"tag", 11}, {"communicator", 0}, {"receiving_rank", 1}, {"sending_rank", 3},
                      {"occurrences_in_run", 5}, {"noise", noise}, {"campaign_point", "np4"}}};
}

TEST(HtmlRaces, TableNamesBothRoutinesTagCommRanksAndNoise) {
  ReportData data;
  data.findings.push_back(Finding{});  // an outcome finding first: links use the global index
  data.findings.push_back(unintended("np4-application-r0", "application-scale1.2"));
  const std::string html = races_section(data);
  EXPECT_NE(html.find("<section id=\"races\"><h2>Races (1 unintended matches)"), std::string::npos) << html;
  EXPECT_NE(html.find("<code>routine_a (case2.c:62)</code>"), std::string::npos);
  EXPECT_NE(html.find("<code>routine_b (case2.c:68)</code>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">11</td><td class=\"num\">0</td><td class=\"num\">3 &#8594; 1</td>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("data-noise=\"application-scale1.2\""), std::string::npos);
  EXPECT_NE(html.find("href=\"#finding-2\""), std::string::npos);
}

TEST(HtmlRaces, NondeterministicPointsAreListedAndEscaped) {
  ReportData data;
  data.findings.push_back(
      {.detector = "races", .kind = "nondeterministic-matching", .severity = scalefuzz::detectors::Severity::Info,
       .details = {{"campaign_point", "np4 x=<b>"}, {"runs", 6}, {"distinct_order_hashes", 4}, {"quiet_runs", 2}}});
  const std::string html = races_section(data);
  EXPECT_NE(html.find("No unintended message match."), std::string::npos);
  EXPECT_NE(html.find("<li>np4 x=&lt;b&gt;: 4 matching orders in 6 runs (2 quiet)</li>"), std::string::npos) << html;
}

// The typed details are findings.json's keys, written once and read back equal.
TEST(RaceDetails, UnintendedMatchRoundTripsWithTheKeysOfFindingsJson) {
  using scalefuzz::detectors::races::UnintendedMatchDetails;
  const UnintendedMatchDetails d{"a (x.c:1)", "b (x.c:2)", 3, 4, 5, 11, 2, "MPI_COMM_WORLD", 1, 0, 7, 8, 2,
                                 "random-delay", "np2"};
  const nlohmann::json j = d;
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"campaign_point", "communicator", "communicator_name", "noise",
                                            "occurrences_in_run", "receive_instance", "receive_round",
                                            "receive_routine", "receive_seq", "receiving_rank", "send_instance",
                                            "send_routine", "send_seq", "sending_rank", "tag"}));
  EXPECT_EQ(j.at("tag"), 11);
  EXPECT_EQ(j.at("communicator_name"), "MPI_COMM_WORLD");
  const auto back = j.get<UnintendedMatchDetails>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.sending_rank, 0);
  EXPECT_EQ(back.occurrences_in_run, 2u);
}

TEST(RaceDetails, NondeterministicMatchingRoundTrips) {
  using scalefuzz::detectors::races::NondeterministicMatchingDetails;
  const NondeterministicMatchingDetails d{"np4", 6, 3, 2, {"r0", "r2", "r5"}};
  const nlohmann::json j = d;
  EXPECT_EQ(j, nlohmann::json({{"campaign_point", "np4"}, {"runs", 6}, {"distinct_order_hashes", 3},
                               {"quiet_runs", 2}, {"first_run_of_each_order", {"r0", "r2", "r5"}}}));
  EXPECT_EQ(nlohmann::json(j.get<NondeterministicMatchingDetails>()), j);
}

}  // namespace
