#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_fixture.hpp"
#include "scalefuzz/harness/finding_json.hpp"

namespace scalefuzz::harness {
namespace {

using nlohmann::json;

TEST(JsonReporter, WritesParseableFindingsWithSummary) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  JsonReporter reporter;
  reporter.write(data);
  EXPECT_EQ(reporter.output_path(data), tmp.path() / "findings.json");
  const auto doc = json::parse(testing::read_file(tmp.path() / "findings.json"));
  EXPECT_EQ(doc.at("campaign"), "ringdemo");
  EXPECT_EQ(doc.at("verdict"), "findings");
  const auto& s = doc.at("summary");
  EXPECT_EQ(s.at("runs"), 8);
  EXPECT_EQ(s.at("finished"), 7);
  EXPECT_EQ(s.at("unfinished"), 1);
  EXPECT_EQ(s.at("failed_runs"), 4);
  EXPECT_EQ(s.at("by_outcome").at("ok"), 3);
  EXPECT_EQ(s.at("by_outcome").at("hang"), 1);
  EXPECT_EQ(s.at("by_outcome").at("unfinished"), 1);
  EXPECT_EQ(s.at("findings_by_detector").at("races"), 2);

  const auto& runs = doc.at("runs");
  ASSERT_EQ(runs.size(), 8u);
  EXPECT_EQ(runs[2].at("run_id"), "np4-none-r2");
  EXPECT_EQ(runs[2].at("outcome"), "hang");
  EXPECT_EQ(runs[2].at("detail"), "timeout after 10s " + testing::kNasty);
  EXPECT_EQ(runs[2].at("stack_ranks"), json::array({0, 1}));
  EXPECT_EQ(runs[6].at("outcome"), "unfinished");
  EXPECT_FALSE(runs[6].contains("wall_seconds"));

  const auto& findings = doc.at("findings");
  ASSERT_EQ(findings.size(), 4u);
  const auto lp = finding_from_json(findings[0]);
  EXPECT_EQ(lp.title, data.findings[0].title);
  EXPECT_EQ(lp.artifacts.at(0).content, data.findings[0].artifacts[0].content);
  EXPECT_EQ(findings[1].at("rank_ranges"), "0-3,7");
  EXPECT_EQ(findings[1].at("details").at("threshold"), 0.8);
  EXPECT_EQ(findings[0].at("scope"), "run");
  EXPECT_EQ(findings[1].at("scope"), "campaign");
  EXPECT_FALSE(findings[1].contains("run_id")) << "a campaign-wide finding is not shaped as a run";
}

TEST(JsonReporter, SeedsAreStringsThatKeepAll64Bits) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.runs[2].spec.seed = 10688990830136140372ull;  // > 2^53: a JSON number would lose it
  JsonReporter().write(data);
  const auto doc = json::parse(testing::read_file(tmp.path() / "findings.json"));
  EXPECT_EQ(doc.at("format_version"), JsonReporter::kFindingsFormatVersion);
  EXPECT_EQ(doc.at("runs")[2].at("seed"), "10688990830136140372");
  for (const auto& r : doc.at("runs")) EXPECT_TRUE(r.at("seed").is_string());
  bool seen = false;
  for (const auto& b : doc.at("bugs"))
    for (const auto& o : b.at("occurrences")) {
      EXPECT_TRUE(o.at("seed").is_string());
      if (o.at("run_id") == "np4-none-r2") seen = o.at("seed") == "10688990830136140372";
    }
  EXPECT_TRUE(seen);
}

TEST(JsonReporter, FindingsFormBugsAndKnowTheirFingerprint) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  JsonReporter().write(data);
  const auto doc = json::parse(testing::read_file(tmp.path() / "findings.json"));
  const auto& bugs = doc.at("bugs");
  // The pdg finding localizes no outcome finding here (the fixture has none),
  // so every finding is a bug of its own: errors (the race first, then the
  // PDG's), the warning, the info race last.
  ASSERT_EQ(bugs.size(), 4u);
  EXPECT_EQ(doc.at("summary").at("bugs"), 4);
  EXPECT_EQ(doc.at("summary").at("serious_bugs"), 3);
  EXPECT_EQ(bugs[0].at("signature"), "races/nondeterminism");
  EXPECT_EQ(bugs[1].at("signature"), "pdg/lp-task at ring_step ring.c:42");
  EXPECT_EQ(bugs[1].at("runs"), json::array({"np4-none-r2"}));
  EXPECT_EQ(bugs[2].at("severity"), "warning");
  EXPECT_EQ(bugs[3].at("severity"), "info");
  for (const auto& f : doc.at("findings")) EXPECT_EQ(f.at("fingerprint").get<std::string>().size(), 16u);
  EXPECT_EQ(doc.at("findings")[0].at("fingerprint"), bugs[1].at("fingerprint"));
}

TEST(JsonReporter, CleanCampaignHasCleanVerdict) {
  testing::TempDir tmp;
  ReportData data = testing::report_of(tmp.path(), "clean",
                                            {testing::make_run(tmp.path(), "a", 2, "none", 0, OutcomeKind::Ok)});
  JsonReporter(tmp.path() / "elsewhere" / "f.json").write(data);
  const auto doc = json::parse(testing::read_file(tmp.path() / "elsewhere" / "f.json"));
  EXPECT_EQ(doc.at("verdict"), "clean");
  EXPECT_TRUE(doc.at("findings").empty());
}

TEST(JsonReporter, UnwritableLocationIsAReportError) {
  testing::TempDir tmp;
  std::ofstream(tmp.path() / "file") << "x";
  ReportData data;
  data.out_dir = tmp.path() / "file";  // a file, not a directory
  EXPECT_THROW(JsonReporter().write(data), ReportError);
}

TEST(Summary, InfoFindingsAloneKeepACampaignClean) {
  testing::TempDir tmp;
  ReportData data;
  data.runs.push_back(testing::make_run(tmp.path(), "a", 2, "none", 0, OutcomeKind::Ok));
  detectors::Finding info;
  info.severity = detectors::Severity::Info;
  data.findings.push_back(info);
  EXPECT_EQ(summarize(data).verdict, "clean");
  EXPECT_EQ(summarize(data).serious_findings, 0u);
  data.findings.push_back(detectors::Finding{});  // severity error by default
  EXPECT_EQ(summarize(data).verdict, "findings");
  data.findings.clear();
  data.runs.push_back(testing::make_run(tmp.path(), "b", 2, "none", 1, std::nullopt));
  EXPECT_EQ(summarize(data).verdict, "incomplete");
}

}  // namespace
}  // namespace scalefuzz::harness
