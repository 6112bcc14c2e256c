#include "scalefuzz/harness/bug_diff.hpp"

#include <gtest/gtest.h>

namespace scalefuzz::harness::bugs {
namespace {

BugSummary bug(const std::string& fp, detectors::Severity severity = detectors::Severity::Error,
               const std::string& first_seen = "2026-11-20T01:00:00Z") {
  BugSummary b;
  b.fingerprint = fp;
  b.signature = "outcome/hang at f x.c:" + fp.substr(15);
  b.severity = severity;
  b.occurrences = 1;
  b.first_seen = first_seen;
  return b;
}

const std::string kA = "000000000000000a", kB = "000000000000000b", kC = "000000000000000c";

TEST(BugDiff, NewStillThereAndGone) {
  const auto d = diff_bugs({bug(kA), bug(kB, detectors::Severity::Error, "2026-11-01T00:00:00Z")},
                           {bug(kB, detectors::Severity::Error, "2026-11-21T00:00:00Z"), bug(kC)}, {}, "2026-11-21");
  ASSERT_EQ(d.new_bugs.size(), 1u);
  EXPECT_EQ(d.new_bugs[0].bug.fingerprint, kC);
  ASSERT_EQ(d.still_there.size(), 1u);
  EXPECT_EQ(d.still_there[0].first_seen, "2026-11-01T00:00:00Z") << "first seen on the older night";
  ASSERT_EQ(d.gone.size(), 1u);
  EXPECT_EQ(d.gone[0].bug.fingerprint, kA);
  EXPECT_TRUE(d.fails(FailOn::New));
  EXPECT_TRUE(d.fails(FailOn::Any));
  EXPECT_FALSE(d.fails(FailOn::Never));
}

// Issue 34 item 2: a bug seen two nights ago, not last night, back tonight
// is still there (not new) when the earlier night is in the window; it was
// not gone last night for tonight's diff either.
TEST(BugDiff, ABugSeenInAnEarlierNightOfTheWindowIsNotNew) {
  const auto without = diff_bugs({bug(kB)}, {bug(kA), bug(kB)}, {}, "2026-11-21");
  ASSERT_EQ(without.new_bugs.size(), 1u) << "one night back only: the flickering bug looks new";
  const auto d = diff_bugs({bug(kB)}, {bug(kA), bug(kB)}, {}, "2026-11-21", {bug(kA, detectors::Severity::Error,
                                                                                   "2026-11-19T01:00:00Z")});
  EXPECT_TRUE(d.new_bugs.empty());
  ASSERT_EQ(d.still_there.size(), 2u);
  EXPECT_TRUE(d.gone.empty());
  EXPECT_FALSE(d.fails(FailOn::New));
  const auto gone = diff_bugs({bug(kB)}, {}, {}, "2026-11-21", {bug(kA)});
  ASSERT_EQ(gone.gone.size(), 1u) << "gone compares with the last night alone";
  EXPECT_EQ(gone.gone[0].bug.fingerprint, kB);
}

TEST(BugDiff, SameBugsFailOnlyWithAny) {
  const auto d = diff_bugs({bug(kA)}, {bug(kA)}, {}, "2026-11-21");
  EXPECT_EQ(d.new_bugs.size(), 0u);
  EXPECT_FALSE(d.fails(FailOn::New));
  EXPECT_TRUE(d.fails(FailOn::Any));
}

TEST(BugDiff, InformationalBugsAreCountedNotCompared) {
  const auto d = diff_bugs({bug(kB, detectors::Severity::Info)}, {bug(kA, detectors::Severity::Info)}, {}, "2026-11-21");
  EXPECT_TRUE(d.new_bugs.empty());
  EXPECT_TRUE(d.gone.empty());
  EXPECT_EQ(d.informational, 1u);
  EXPECT_FALSE(d.fails(FailOn::Any));
  // The same fingerprint turning from info into an error is new.
  const auto e = diff_bugs({bug(kA, detectors::Severity::Info)}, {bug(kA)}, {}, "2026-11-21");
  EXPECT_EQ(e.new_bugs.size(), 1u);
}

TEST(BugDiff, SuppressedBugsDoNotFailAndExpiredOnesAreListed) {
  auto supp = parse_suppressions("suppressions:\n"
                                 "  - fingerprint: " + kC + "\n"
                                 "    reason: known, ticket 12\n"
                                 "  - fingerprint: " + kA + "\n"
                                 "    reason: old\n"
                                 "    expires: 2026-11-20\n"
                                 "  - fingerprint: " + kB + "\n"
                                 "    reason: not today\n"
                                 "    expires: 2026-11-21\n",
                                 "supp.yaml");
  const auto d = diff_bugs({}, {bug(kC)}, supp, "2026-11-21");
  ASSERT_EQ(d.new_bugs.size(), 1u);
  ASSERT_NE(d.new_bugs[0].suppression, nullptr);
  EXPECT_EQ(d.new_bugs[0].suppression->reason, "known, ticket 12");
  EXPECT_FALSE(d.fails(FailOn::Any));
  ASSERT_EQ(d.expired.size(), 1u) << "expires is the last day a suppression applies";
  EXPECT_EQ(d.expired[0]->fingerprint, kA);
  EXPECT_EQ(d.expired[0]->where, "supp.yaml:4:5");
  EXPECT_EQ(d.unused.size(), 2u);
  const auto j = diff_to_json(d, FailOn::New);
  EXPECT_EQ(j.at("counts").at("new"), 1);
  EXPECT_EQ(j.at("fails"), false);
  EXPECT_EQ(j.at("new")[0].at("suppressed").at("reason"), "known, ticket 12");
}

TEST(Suppressions, BadFilesNameFileLineColumn) {
  auto message = [](const std::string& text) {
    try {
      parse_suppressions(text, "s.yaml");
    } catch (const SuppressionError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("suppressions:\n  - fingerprint: 12\n    reason: r\n"),
            "s.yaml:2:18: fingerprint must be 16 lowercase hex digits, got '12'");
  EXPECT_EQ(message("suppressions:\n  - fingerprint: " + kA + "\n"), "s.yaml:2:5: suppression of " + kA + " without a reason");
  EXPECT_EQ(message("suppressions:\n  - fingerprint: " + kA + "\n    reason: r\n    expires: tomorrow\n"),
            "s.yaml:4:14: expires must be a date YYYY-MM-DD, got 'tomorrow'");
  EXPECT_EQ(message("suppressions:\n  - fingerprint: " + kA + "\n    reson: r\n"),
            "s.yaml:3:5: unknown key 'reson' (expected fingerprint, reason, expires)");
  EXPECT_EQ(message("suppressions:\n  - {fingerprint: " + kA + ", reason: r}\n  - {fingerprint: " + kA + ", reason: s}\n"),
            "s.yaml:3:5: fingerprint " + kA + " is already suppressed at s.yaml:2:5");
  EXPECT_EQ(message("suppress: []\n"), "s.yaml:1:1: expected a map with a 'suppressions' list");
  EXPECT_NE(message("suppressions: [\n").find("s.yaml:"), std::string::npos);
  EXPECT_TRUE(parse_suppressions("suppressions:\n", "s.yaml").empty());
}

TEST(BugsOfFindings, RefusesOlderFormatsClearly) {
  nlohmann::json v1 = {{"format", "scalefuzz-findings"}, {"format_version", 1}, {"findings", nlohmann::json::array()}};
  try {
    bugs_of_findings(v1);
    FAIL() << "format 1 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scalefuzz report DIR"), std::string::npos) << e.what();
  }
  nlohmann::json v2 = {{"format", "scalefuzz-findings"}, {"format_version", 2}, {"bugs", {{{"fingerprint", kA}}}}};
  EXPECT_THROW(bugs_of_findings(v2), std::invalid_argument);
}

}  // namespace
}  // namespace scalefuzz::harness::bugs
