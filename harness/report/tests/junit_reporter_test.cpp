#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "report_fixture.hpp"
#include "subprocess.hpp"

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

TEST(JunitReporter, WellFormedWithOneTestcasePerRun) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(doc.at("root"), "testsuites");
  // Suites: np4.none, np4.system, np8.none, np8.system, findings.
  ASSERT_EQ(doc.at("suites").size(), 5u);
  EXPECT_EQ(doc.at("suites")[0].at("attrs").at("name"), "ringdemo.np4.none");
  EXPECT_EQ(doc.at("suites")[0].at("attrs").at("tests"), "3");
  EXPECT_EQ(doc.at("suites")[0].at("attrs").at("failures"), "1");
  for (const auto& r : data.runs) EXPECT_NE(find_case(doc, r.spec.run_id), nullptr) << r.spec.run_id;
  // 8 runs + 2 campaign-wide findings (kcca, and the one naming an unknown run).
  EXPECT_EQ(doc.at("attrs").at("tests"), "10");
  EXPECT_EQ(doc.at("attrs").at("skipped"), "1");
}

TEST(JunitReporter, HangCarriesStacksAndRunFindingsUnescapedIntact) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  const json* hang = find_case(doc, "np4-none-r2");
  ASSERT_NE(hang, nullptr);
  ASSERT_TRUE(hang->contains("failure"));
  const auto& failure = hang->at("failure");
  EXPECT_EQ(failure.at("type"), "hang");
  EXPECT_EQ(failure.at("message").get<std::string>().rfind("hang: timeout after 10s " + testing::kNasty, 0), 0u);
  const auto body = failure.at("text").get<std::string>();
  EXPECT_NE(body.find(testing::kHangStack0), std::string::npos) << body;
  EXPECT_NE(body.find("--- rank 1 (pid 4243) ---\n#0 MPI_Recv"), std::string::npos);
  EXPECT_NE(body.find("[pdg/lp-task]"), std::string::npos) << "the finding about this run belongs to its testcase";
  const auto err = hang->at("system-err").at("text").get<std::string>();
  EXPECT_NE(err.find("warning: <unexpected> & odd"), std::string::npos);
  EXPECT_NE(err.find("\\x01\xEF\xBF\xBD tail"), std::string::npos) << "control and invalid bytes are made safe";
}

TEST(JunitReporter, OutcomeKindsMapToJunitStatuses) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path());
  data.runs.push_back(testing::make_run(tmp.path(), "np8-none-r9", 8, "none", 9, OutcomeKind::LaunchError, 0,
                                        "mpiexec not found"));
  JunitReporter().write(data);
  const auto doc = parse_junit(tmp.path() / "junit.xml");
  EXPECT_FALSE(find_case(doc, "np4-none-r0")->contains("failure"));
  EXPECT_EQ(find_case(doc, "np4-none-r0")->at("time"), "1.200");
  EXPECT_EQ(find_case(doc, "np8-none-r0")->at("failure").at("type"), "crashed");
  EXPECT_EQ(find_case(doc, "np8-none-r1")->at("failure").at("type"), "mpi-abort");
  EXPECT_EQ(find_case(doc, "np8-system-s1.0-r1")->at("failure").at("type"), "wrong-result");
  EXPECT_TRUE(find_case(doc, "np8-system-s1.0-r0")->contains("skipped"));
  EXPECT_EQ(find_case(doc, "np8-none-r9")->at("error").at("type"), "launch-error");
  // Campaign-wide findings are testcases of their own suite.
  const auto& last = doc.at("suites").back();
  EXPECT_EQ(last.at("attrs").at("name"), "ringdemo.findings");
  ASSERT_EQ(last.at("cases").size(), 2u);
  EXPECT_EQ(last.at("cases")[0].at("failure").at("type"), "finding");
  EXPECT_NE(last.at("cases")[0].at("failure").at("text").get<std::string>().find("ranks 0-3,7"), std::string::npos);
}

}  // namespace
}  // namespace scalefuzz::harness
