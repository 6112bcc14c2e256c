#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "report_fixture.hpp"
#include "scalefuzz/harness/child_process.hpp"

namespace scalefuzz::harness {
namespace {

using nlohmann::json;

// Parses junit.xml with Python's strict expat parser; fails the test if it
// is not well-formed.
json parse_junit(const std::filesystem::path& file) {
  const auto r = run_process({SCALEFUZZ_TEST_PYTHON, SCALEFUZZ_TEST_JUNIT_SCRIPT, file.string()}, "",
                             std::chrono::seconds(60));
  EXPECT_TRUE(r.succeeded()) << "junit.xml is not well-formed XML:\n" << r.err;
  return r.succeeded() ? json::parse(r.out) : json::object();
}

const json* find_case(const json& doc, const std::string& name) {
  for (const auto& suite : doc.at("suites"))
    for (const auto& c : suite.at("cases"))
      if (c.at("name") == name) return &c;
  return nullptr;
}

const json* find_prefix(const json& doc, const std::string& prefix) {
  for (const auto& suite : doc.at("suites"))
    for (const auto& c : suite.at("cases"))
      if (c.at("name").get<std::string>().rfind(prefix, 0) == 0) return &c;
  return nullptr;
}

TEST(JunitReporter, OneTestcasePerCampaignPointAndPerBug) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(doc.at("root"), "testsuites");
  ASSERT_EQ(doc.at("suites").size(), 2u);
  const auto& points = doc.at("suites")[0];
  EXPECT_EQ(points.at("attrs").at("name"), "ringdemo.points");
  // np4 none (3 runs), np4 system, np8 none (2 runs), np8 system (2 runs).
  ASSERT_EQ(points.at("cases").size(), 4u);
  EXPECT_EQ(points.at("cases")[0].at("name"), "np4 count=64 noise=none");
  EXPECT_EQ(points.at("cases")[1].at("name"), "np4 count=64 noise=system-s1.0");
  EXPECT_EQ(points.at("cases")[0].at("classname"), "ringdemo.np4");
  const auto& bugs = doc.at("suites")[1];
  EXPECT_EQ(bugs.at("attrs").at("name"), "ringdemo.bugs");
  ASSERT_EQ(bugs.at("cases").size(), 4u);
  const auto bug_list = report_bugs(data);
  EXPECT_EQ(bugs.at("cases")[0].at("name"), bug_list[0].fingerprint + " " + bug_list[0].signature);
  EXPECT_EQ(doc.at("attrs").at("tests"), "8");
}

TEST(JunitReporter, NamesCarryNoCountsIndicesOrDottedValuesInClassnames) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.campaign = "ninja.case3";
  for (auto& r : data.runs) r.spec.noise.settings = {{"scale", "1.2"}};
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  for (const auto& suite : doc.at("suites"))
    for (const auto& c : suite.at("cases")) {
      const auto cls = c.at("classname").get<std::string>();
      EXPECT_EQ(std::count(cls.begin(), cls.end(), '.'), 1) << cls;
      EXPECT_EQ(cls.rfind("ninja_case3.", 0), 0u) << cls;
    }
}

// A run with a decision log (ranks/0.decisions) replays exactly: its replay
// property is `scalefuzz replay RUN_DIR`, the campaign rerun the fallback.
// The replay property of the failing point (np4-none-r2) after `file`
// (relative to the run's own directory) is written with `content`.
std::string replay_property_with(const std::string& file, const std::string& content, std::filesystem::path* run_dir) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.campaign_file = "/work/configs/ring.yaml";
  auto& run = data.runs[2];
  run.dir = tmp.path() / "runs" / run.spec.run_id;
  *run_dir = run.dir;
  std::filesystem::create_directories((run.dir / file).parent_path());
  scalefuzz::testing::write_file(run.dir / file, content);
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  const json* point = find_case(doc, "np4 count=64 noise=none");
  return point ? point->at("properties").at("replay").get<std::string>() : "(no testcase)";
}

TEST(JunitReporter, RunWithADecisionLogIsReplayedFromIt) {
  std::filesystem::path run_dir;
  const std::string replay = replay_property_with("ranks/0.decisions", "", &run_dir);
  EXPECT_EQ(replay, "scalefuzz replay " + run_dir.string());
}

// The run's replay.txt (written by run and reproduce) comes first: its first
// command line is the replay a person pastes (issue 34 item 3, issue 36
// item 4: it carries an application-centric run's system run and works for
// a reproduce try, where `run --filter` finds no such run).
TEST(JunitReporter, ReplayIsTheFirstCommandLineOfTheRunsReplayTxt) {
  std::filesystem::path run_dir;
  const std::string replay = replay_property_with(
      "replay.txt",
      "# same seed and noise; timing-dependent\n"
      "/bin/scalefuzz exec --noise application --noise-set analysis=/out/runs/sys -- x\n"
      "/bin/scalefuzz exec --other\n",
      &run_dir);
  EXPECT_EQ(replay, "/bin/scalefuzz exec --noise application --noise-set analysis=/out/runs/sys -- x");
}

TEST(JunitReporter, FailingPointHasShortMessagePropertiesAndDetailsInSystemOut) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.campaign_file = "/work/configs/ring.yaml";
  data.runs[2].spec.seed = 10688990830136140372ull;
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  const json* point = find_case(doc, "np4 count=64 noise=none");
  ASSERT_NE(point, nullptr);
  const auto& failure = point->at("failure");
  EXPECT_EQ(failure.at("type"), "hang");
  const auto message = failure.at("message").get<std::string>();
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_LT(message.size(), 400u);
  EXPECT_NE(message.find("(1 of 3 runs, bugs "), std::string::npos) << message;
  const auto& props = point->at("properties");
  EXPECT_EQ(props.at("seed"), "10688990830136140372");
  EXPECT_EQ(props.at("run_id"), "np4-none-r2");
  EXPECT_EQ(props.at("noise"), "none");
  EXPECT_EQ(props.at("replay"), "scalefuzz run /work/configs/ring.yaml --filter id=np4-none-r2 --out " +
                                    (tmp.path() / "replay" / "np4-none-r2").string());
  const auto out = point->at("system-out").at("text").get<std::string>();
  EXPECT_NE(out.find(testing::kHangStack0), std::string::npos) << out;
  EXPECT_NE(out.find("--- rank 1 (pid 4243) ---\n#0 MPI_Recv"), std::string::npos);
  EXPECT_NE(out.find("[pdg/lp-task]"), std::string::npos) << "the finding about a run belongs to its point";
  const auto err = point->at("system-err").at("text").get<std::string>();
  EXPECT_NE(err.find("warning: <unexpected> & odd"), std::string::npos);
  EXPECT_NE(err.find("\\x01\xEF\xBF\xBD tail"), std::string::npos) << "control and invalid bytes are made safe";
}

TEST(JunitReporter, OutcomeKindsMapToJunitStatuses) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.runs.push_back(testing::make_run(tmp.path(), "np16-none-r0", 16, "none", 0, OutcomeKind::LaunchError, 0,
                                        "mpiexec not found"));
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  EXPECT_FALSE(find_case(doc, "np4 count=64 noise=system-s1.0")->contains("failure"));
  EXPECT_EQ(find_case(doc, "np4 count=64 noise=system-s1.0")->at("time"), "1.500");
  EXPECT_EQ(find_case(doc, "np8 count=64 noise=none")->at("failure").at("type"), "crashed");
  EXPECT_EQ(find_case(doc, "np8 count=64 noise=system-s1.0")->at("failure").at("type"), "wrong-result");
  EXPECT_EQ(find_case(doc, "np16 count=64 noise=none")->at("error").at("type"), "launch-error");
  // Bugs: serious ones fail with a one-line message, informational ones pass.
  const json* kcca = find_prefix(doc, bugs::fingerprint({"kcca", "scale-anomaly", {}, ""}));
  ASSERT_NE(kcca, nullptr);
  EXPECT_EQ(kcca->at("failure").at("type"), "kcca/scale-anomaly");
  EXPECT_NE(kcca->at("system-out").at("text").get<std::string>().find("ranks 0-3,7"), std::string::npos);
  const json* race = find_prefix(doc, bugs::fingerprint({"races", "unintended-match", {}, ""}));
  ASSERT_NE(race, nullptr);
  EXPECT_FALSE(race->contains("failure"));
}

TEST(JunitReporter, AllRunsUnfinishedIsSkipped) {
  testing::TempDir tmp;
  ReportData data = testing::report_of(tmp.path(), "c",
                                            {testing::make_run(tmp.path(), "np2-none-r0", 2, "none", 0, std::nullopt)});
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  EXPECT_TRUE(find_case(doc, "np2 count=64 noise=none")->contains("skipped"));
}

}  // namespace
}  // namespace scalefuzz::harness
