// Findings, Graphviz output and the fault-injection metrics.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg.hpp"
#include "trace_builders.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

using testing::make_rank;
using testing::RankPath;

trace::RunTrace collective_hang() {
  // Ranks 0-3 and 5-7 in an Allreduce (0x33) wait for rank 4, computing after a Bcast (0x22).
  trace::RunTrace run;
  run.run_id = "hang-1";
  for (int r = 0; r < 8; ++r) {
    run.ranks.push_back(make_rank(r, 8, r == 4 ? RankPath{{0x11, 0x22}, false} : RankPath{{0x11, 0x22, 0x33}, true}));
  }
  return run;
}

TEST(Findings, LpTaskFinding) {
  const PdgResult res = analyze_progress(collective_hang());
  const std::vector<Finding> fs = pdg_findings(res, "hang-1");
  ASSERT_EQ(fs.size(), 1u);
  const Finding& f = fs[0];
  EXPECT_EQ(f.detector, "pdg");
  EXPECT_EQ(f.kind, "lp-task");
  EXPECT_EQ(f.run_id, "hang-1");
  EXPECT_EQ(f.ranks, std::vector<int>{4});
  EXPECT_TRUE(f.location.empty());
  EXPECT_NE(f.title.find("task 4"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("computing after"), std::string::npos) << f.title;
  EXPECT_EQ(f.details["site"]["rank"], 4);
  EXPECT_EQ(f.details["site"]["id"], 1);
  EXPECT_EQ(f.details["site"]["stable_hash"], "0x0000000000000022");
  EXPECT_EQ(f.details["variant"], "semi-dist");
  EXPECT_EQ(f.details["graph"]["nodes"].size(), 2u);
  ASSERT_EQ(f.artifacts.size(), 1u);
  EXPECT_EQ(f.artifacts[0].media_type, "text/vnd.graphviz");
  EXPECT_EQ(f.artifacts[0].content, res.dot);
  EXPECT_NO_THROW((void)f.details.dump());
}

TEST(Findings, DotHasRankRangesAndHighlightsTheLpNode) {
  PdgOptions o;
  o.state_label = [](const ProgramState& s) { return s.is_start ? std::string("start") : "site \"" + std::to_string(s.stable_hash) + "\""; };
  const PdgResult res = analyze_progress(collective_hang(), o);
  const std::string& dot = res.dot;
  EXPECT_NE(dot.find("tasks 0-3,5-7"), std::string::npos) << dot;
  EXPECT_NE(dot.find("site \\\"34\\\""), std::string::npos) << dot;  // escaped label
  const std::size_t lp = dot.find("tasks 4\\n");
  ASSERT_NE(lp, std::string::npos);
  const std::size_t line_end = dot.find('\n', lp);
  EXPECT_NE(dot.substr(lp, line_end - lp).find("fillcolor"), std::string::npos);
  EXPECT_NE(dot.find("n0 -> n1"), std::string::npos);  // ranks 0-3,5-7 wait for rank 4
}

TEST(Coverage, AccuracyAndPrecisionAsInTheFaultInjectionStudy) {
  const std::vector<InjectionOutcome> outcomes{
      {3, {3}, true},        // accurate and precise
      {3, {3, 5, 6}, false}, // accurate, not precise
      {3, {5}, true},        // neither; isolated (semi-successful)
      {2, {}, false},        // nothing found: not accurate, no false positive
  };
  const Coverage c = coverage(outcomes);
  EXPECT_EQ(c.injections, 4u);
  EXPECT_EQ(c.accurate, 2u);
  EXPECT_EQ(c.precise, 2u);
  EXPECT_EQ(c.isolated, 1u);
  EXPECT_DOUBLE_EQ(c.accuracy, 0.5);
  EXPECT_DOUBLE_EQ(c.precision, 0.5);
  EXPECT_EQ(coverage({}).accuracy, 0.0);
}

TEST(Coverage, IsolationFromThePdg) {
  const PdgResult res = analyze_progress(collective_hang());
  EXPECT_TRUE(is_isolated(res, 4));
  EXPECT_FALSE(is_isolated(res, 0));
  EXPECT_FALSE(is_isolated(res, 42));
}

}  // namespace
}  // namespace scalefuzz::detectors::pdg
