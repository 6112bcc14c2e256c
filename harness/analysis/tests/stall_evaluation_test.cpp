// Scoring of stall fault injection (stall_evaluation.cpp): which runs count,
// and accuracy / precision as AutomaDeD §5.2 defines them.
#include "scalefuzz/analysis/stall_evaluation.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "scalefuzz/testing/files.hpp"

namespace {

namespace fs = std::filesystem;
using scalefuzz::analysis::StallEvaluation;
using scalefuzz::detectors::Finding;
using scalefuzz::harness::OutcomeKind;
using scalefuzz::harness::RunRecord;

class StallEvaluationTest : public ::testing::Test {
 protected:
  // A finished run of 8 ranks that planned a stall of `rank`; `fired` writes the marker.
  RunRecord run(const std::string& id, int rank, bool fired, OutcomeKind kind = OutcomeKind::Hang) {
    RunRecord r;
    r.spec.run_id = id;
    r.spec.nprocs = 8;
    r.spec.stall = scalefuzz::harness::StallPoint{rank, 12};
    r.dir = tmp_.path() / id;
    fs::create_directories(r.dir);
    if (fired) std::ofstream(r.dir / "stall") << "rank " << rank << " call 12\n";
    r.outcome.emplace();
    r.outcome->kind = kind;
    return r;
  }
  static Finding lp(std::vector<int> ranks) {
    Finding f;
    f.detector = "pdg";
    f.kind = "lp-task";
    f.ranks = std::move(ranks);
    return f;
  }
  scalefuzz::testing::TempDir tmp_{"sf-stall-eval"};
};

TEST_F(StallEvaluationTest, AccuracyAndPrecisionFollowThePaperDefinitions) {
  StallEvaluation e;
  e.add(run("exact", 3, true), {lp({3})});               // accurate and precise
  e.add(run("two-groups", 5, true), {lp({5}), lp({1})});  // accurate, not precise
  e.add(run("missed", 2, true), {lp({6})});               // neither
  e.add(run("none-found", 4, true), {});                  // not accurate, yet no false positive
  e.add(run("not-fired", 1, false, OutcomeKind::Ok), {});  // the rank finished first: not evaluated
  e.add(run("fired-no-hang", 1, true, OutcomeKind::Crashed), {lp({1})});
  RunRecord plain = run("no-stall", 0, false, OutcomeKind::Hang);
  plain.spec.stall.reset();
  e.add(plain, {lp({0})});  // no injection planned: ignored

  const auto& stalls = e.stalls();
  EXPECT_EQ(stalls.injected, 6u);
  EXPECT_EQ(stalls.fired, 5u);
  EXPECT_EQ(stalls.fired_without_hang, 1u);
  ASSERT_EQ(stalls.hung.size(), 4u);
  EXPECT_EQ(stalls.hung[1].run_id, "two-groups");
  EXPECT_EQ(stalls.hung[1].rank, 5);
  EXPECT_EQ(stalls.hung[1].call, 12);
  EXPECT_EQ(stalls.hung[1].findings.size(), 2u);

  // Judged by the technique that declares DetectorInfo::judge_stalls (the PDG).
  std::ostringstream log;
  const auto findings = e.finish(&log);
  ASSERT_EQ(findings.size(), 4u);  // the summary + a warning per imprecise or missed run
  EXPECT_EQ(findings[0].detector, "pdg");
  EXPECT_EQ(findings[0].kind, "stall-evaluation");
  EXPECT_EQ(findings[0].details["injected"], 6);
  EXPECT_EQ(findings[0].details["fired"], 5);
  EXPECT_EQ(findings[0].details["fired_without_hang"], 1);
  EXPECT_EQ(findings[0].details["evaluated"], 4);
  EXPECT_EQ(findings[0].details["accurate"], 2);
  EXPECT_EQ(findings[0].details["precise"], 2);  // "exact", and "none-found": no non-faulty task named
  EXPECT_DOUBLE_EQ(findings[0].details["accuracy"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(findings[0].details["precision"].get<double>(), 0.5);
  EXPECT_EQ(findings[0].details["runs"].size(), 4u);
  EXPECT_EQ(findings[1].kind, "stall-imprecise");
  EXPECT_EQ(findings[1].run_id, "two-groups");
  EXPECT_EQ(findings[2].kind, "stall-missed");
  EXPECT_EQ(findings[3].kind, "stall-missed");
  EXPECT_NE(log.str().find("LP-task accuracy 50.0 % (2 of 4), precision 50.0 % (2 of 4)"), std::string::npos)
      << log.str();
}

TEST_F(StallEvaluationTest, NothingInjectedNothingReported) {
  StallEvaluation e;
  EXPECT_TRUE(e.finish(nullptr).empty());
}

}  // namespace
