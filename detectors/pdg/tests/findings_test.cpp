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

// A task farm (scenarios/mpipd/task_farm_abort.c): master 0 waits in a
// wildcard receive (0x33), workers 1 and 3 wait for tasks (0x22), worker 2
// received its task (0x22) and called MPI_Abort (0x44). Without the abort
// the LP analysis names the waiting master or workers; the abort is the
// verdict (issue 35).
TEST(Findings, AnAbortedTaskIsTheFindingNotTheLeastProgressed) {
  trace::RunTrace run;
  run.run_id = "abort-1";
  run.ranks.push_back(make_rank(0, 4, RankPath{{0x11, 0x33, 0x11, 0x33}, true, trace::OpClass::Recv, trace::kAnySource}));
  run.ranks.push_back(make_rank(1, 4, RankPath{{0x22, 0x55, 0x22}, true, trace::OpClass::Recv, 0}));
  run.ranks.push_back(make_rank(2, 4, RankPath{{0x22, 0x55, 0x22, 0x44}, true, trace::OpClass::Abort}));
  run.ranks.push_back(make_rank(3, 4, RankPath{{0x22, 0x55, 0x22}, true, trace::OpClass::Recv, 0}));
  trace::Event abort{};
  abort.op_class = static_cast<std::uint8_t>(trace::OpClass::Abort);
  abort.callsite = 2;
  run.ranks[2].events.push_back(abort);
  const PdgResult res = analyze_progress(run);
  EXPECT_EQ(res.aborted_tasks, std::vector<int>{2});
  ASSERT_EQ(res.aborted_nodes.size(), 1u);
  EXPECT_TRUE(res.nodes[res.aborted_nodes[0]].aborted);
  EXPECT_NE(res.dot.find("called MPI_Abort"), std::string::npos) << res.dot;
  const std::vector<Finding> fs = pdg_findings(res, "abort-1");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, "aborted-task");
  EXPECT_EQ(fs[0].ranks, std::vector<int>{2});
  EXPECT_EQ(fs[0].details["site"]["stable_hash"], "0x0000000000000044");
  EXPECT_NE(fs[0].title.find("task 2 called MPI_Abort"), std::string::npos) << fs[0].title;
  EXPECT_NE(fs[0].title.find("3 other tasks were stopped"), std::string::npos) << fs[0].title;
  // Without the abort record the same states are a hang's LP analysis.
  run.ranks[2].events.clear();
  const auto hang = pdg_findings(analyze_progress(run), "abort-1");
  ASSERT_FALSE(hang.empty());
  EXPECT_EQ(hang[0].kind, "lp-task");
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
