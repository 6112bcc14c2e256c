// The whole analysis on hand-made traces shaped like the MPI-PD scenarios:
// failure events (stage 1), situation and faulty set, findings and timeline.
#include <gtest/gtest.h>

#include "run_builder.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {
namespace {

using testing::RunBuilder;
using V = std::vector<int>;

MpipdResult analyse(const trace::RunTrace& run, const std::string& outcome = "hang",
                    std::optional<int> crashed = std::nullopt) {
  MpipdInput in;
  in.outcome = outcome;
  in.crashed_rank = crashed;
  in.signal = crashed ? 11 : 0;
  return localize_failure(run, in);
}

// Spine's crash_in_compute: rank 2 dies between MPI calls; 0 and 1 wait for it.
TEST(Localize, CrashInComputeIsACalculationFault) {
  RunBuilder b(4);
  b.send(2, 0);
  b.recv(0, 2);
  auto r0 = b.recv(0, 2, 0, 8, false);
  b.recv(1, 2, 0, 8, false);
  b.collective(3, 0, false);  // rank 3 already in the final barrier
  auto res = analyse(b.run, "crashed");
  EXPECT_EQ(res.situation, Situation::CalculationFault);
  EXPECT_EQ(res.situation_label, "calculation-fault");
  EXPECT_EQ(res.faulty, V({2}));
  EXPECT_EQ(res.failure_events[2].kind, FailureKind::Calculation);
  EXPECT_EQ(res.failure_events[0].kind, FailureKind::Communication);
  EXPECT_EQ(res.failure_events[0].event, r0);
  EXPECT_EQ(res.failure_events[0].ptr, 2);
  EXPECT_EQ(res.failure_events[3].ptr, 0);  // lowest member missing from the barrier
}

// The crash tears the job down while the others are still inside an
// allreduce that the crashed rank already left: they depend on it, not on
// each other.
TEST(Localize, TornDownCollectiveFollowsTheMemberThatLeftIt) {
  RunBuilder b(4);
  for (int r = 0; r < 4; ++r) b.collective(r);
  b.collective(1);  // rank 1 completes the second allreduce, then crashes in compute
  b.collective(0, 0, false);
  b.collective(2, 0, false);
  b.collective(3, 0, false);
  auto res = analyse(b.run, "crashed");
  EXPECT_EQ(res.situation, Situation::CalculationFault);
  EXPECT_EQ(res.faulty, V({1}));
  EXPECT_EQ(res.failure_events[0].ptr, 1);
}

// All members inside a collective that never returns (e.g. mismatched
// arguments): they wait on each other.
TEST(Localize, CollectiveStuckForAllMembersIsADeadlock) {
  RunBuilder b(3);
  for (int r = 0; r < 3; ++r) b.collective(r, 0, false);
  auto res = analyse(b.run);
  EXPECT_EQ(res.situation, Situation::Deadlock);
  EXPECT_EQ(res.faulty, V({0, 1}));  // rank 0 -> 1 -> 0: the first cycle found
}

// A crashed rank named by the harness is a calculation fault even with an
// isolated send of its own recorded before the crash.
TEST(Localize, CrashedRankFromTheHarnessWins) {
  RunBuilder b(2);
  b.send(1, 0, 3);  // never received: rank 0 was killed before its receive
  b.collective(0, 0, false);
  auto res = analyse(b.run, "crashed", 1);
  EXPECT_EQ(res.situation, Situation::CalculationFault);
  EXPECT_EQ(res.faulty, V({1}));
}

// A rank exits without MPI_Finalize and without the send its peer waits for.
TEST(Localize, RankExitingWithoutItsSendIsACalculationFault) {
  RunBuilder b(3);
  b.collective(0);
  b.collective(1);
  b.collective(2);
  b.recv(0, 2, 1, 8, false);
  b.collective(1, 0, false);
  auto res = analyse(b.run, "failed");
  EXPECT_EQ(res.situation, Situation::CalculationFault);
  EXPECT_EQ(res.faulty, V({2}));
}

// The same rank calls MPI_Finalize instead: Figure 4(b), both ranks reported.
TEST(Localize, RankFinalizingWithoutItsSendIsANonOccurredEvent) {
  RunBuilder b(3);
  b.recv(0, 2, 1, 8, false);
  b.finalize(2, false);  // MPICH may block in Finalize: still a normal termination
  b.finalize(1);
  auto res = analyse(b.run);
  EXPECT_EQ(res.situation, Situation::NonOccurredEvent);
  EXPECT_EQ(res.faulty, V({0, 2}));
  EXPECT_EQ(res.failure_events[2].kind, FailureKind::None);
}

// Spine's deadlock_cycle: synchronous sends around a ring of three, a fourth rank in a barrier.
TEST(Localize, CyclicSynchronousSendsAreADeadlock) {
  RunBuilder b(4);
  for (int r = 0; r < 3; ++r) b.ssend(r, (r + 1) % 3, 0, false);
  b.collective(3, 0, false);
  auto res = analyse(b.run);
  EXPECT_EQ(res.situation, Situation::Deadlock);
  EXPECT_EQ(res.faulty, V({0, 1, 2}));
  ASSERT_EQ(res.origins.size(), 1u);
}

// A task farm (scenarios/mpipd/task_farm_abort.c): worker 2 finds a corrupt
// task and calls MPI_Abort; the master (0) waits in a wildcard receive, the
// other workers wait for tasks, and worker 2's result of an earlier task was
// never received (an isolated send). The abort is the verdict (issue 35):
// not the master's unnamed dependency, not a cycle through the isolated send.
TEST(Localize, AnAbortIsTheAbortingRanksVerdict) {
  RunBuilder b(4);
  b.send(0, 2, 1);
  b.recv(2, 0, 1);
  b.send(2, 0, 3);  // never received: the master was killed first
  b.send(0, 2, 1);
  b.recv(2, 0, 1);
  auto abort = b.abort(2);
  b.ev(2, abort).count = 3;
  b.recv(0, trace::kAnySource, 3, 8, false);
  b.recv(1, 0, 1, 8, false);
  b.recv(3, 0, 1, 8, false);
  auto res = analyse(b.run, "mpi-abort");
  EXPECT_EQ(res.situation, Situation::CalculationFault) << res.explanation;
  EXPECT_EQ(res.faulty, V({2}));
  EXPECT_EQ(res.aborted, V({2}));
  ASSERT_EQ(res.origins.size(), 1u);
  EXPECT_EQ(res.failure_events[2].kind, FailureKind::Calculation);
  EXPECT_EQ(res.failure_events[2].event, abort);
  EXPECT_EQ(res.failure_events[2].reason, "called MPI_Abort with error code 3");
  EXPECT_NE(res.explanation.find("Rank 2 called MPI_Abort"), std::string::npos) << res.explanation;
  auto findings = mpipd_findings(res, b.run, "r");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "calculation-fault");
  EXPECT_EQ(findings[0].ranks, V({2}));
  EXPECT_NE(findings[0].title.find("rank 2 called MPI_Abort"), std::string::npos) << findings[0].title;
  // The same run hung without the abort record is localized by Figure 3.
  b.run.ranks[2].events.pop_back();
  EXPECT_TRUE(analyse(b.run, "hang").aborted.empty());
}

// Receive buffer smaller than the message: the receiver aborted inside MPI_Recv.
TEST(Localize, TruncatedReceiveIsABufferOverflow) {
  RunBuilder b(3);
  auto s = b.send(0, 1, 0, 400);
  b.collective(0, 0, false);
  b.recv(1, 0, 0, 40, false);
  b.collective(2, 0, false);
  auto res = analyse(b.run, "mpi-abort");
  EXPECT_EQ(res.situation, Situation::BufferOverflow);
  EXPECT_EQ(res.faulty, V({0, 1}));
  EXPECT_EQ(res.failure_events[0].event, s);  // the sender's error is its send, not the barrier
  EXPECT_NE(res.failure_events[0].reason.find("400 B"), std::string::npos);
}

// Irecv from a rank that never sends (should have been rank 0), then a barrier.
TEST(Localize, InvalidSourceInIrecvIsADeadlockIncludingTheFaultyRank) {
  RunBuilder b(3);
  b.isend(0, 1, 1);
  b.irecv(0, 2, 2);
  b.isend(1, 2, 3);
  b.irecv(1, 2, 4);  // BUG: source 2 instead of 0
  b.isend(2, 0, 5);
  b.irecv(2, 1, 6);
  b.send(2, 0);  // keeps the model simple: rank 2's message to 0 below
  b.recv(0, 2);
  b.wait(0, 1);
  b.wait(0, 2, true, 2);
  b.wait(2, 5);
  b.wait(2, 6, true, 1);
  b.wait(1, 3);
  b.wait(1, 4, false);  // never returns
  b.collective(0, 0, false);
  b.collective(2, 0, false);
  auto res = analyse(b.run);
  EXPECT_EQ(res.situation, Situation::Deadlock);
  EXPECT_EQ(res.faulty, V({1, 2}));
  EXPECT_EQ(res.failure_events[1].ptr, 2);
  EXPECT_EQ(res.failure_events[0].ptr, 1);  // its isolated Isend to 1
}

// Root Bsends one message too many: a worker reads it as the next header and
// waits for items that never come while the root waits for its result.
TEST(Localize, ExtraBufferedSendIsADeadlockWithTheRoot) {
  RunBuilder b(3);
  for (int w = 1; w < 3; ++w) {
    b.send(0, w);
    b.send(0, w);
  }
  b.send(0, 1);  // the extra message (buffered: returns at once)
  for (int w = 1; w < 3; ++w) {
    b.recv(w, 0);
    b.recv(w, 0);
  }
  b.recv(1, 0);                 // reads the extra message as a header ...
  b.recv(1, 0, 0, 8, false);    // ... and waits for the items it announced
  b.send(2, 0);
  b.recv(0, 2);
  b.recv(0, 1, 0, 8, false);    // the root waits for rank 1's result
  b.collective(2, 0, false);    // rank 2 went on to the final barrier
  auto res = analyse(b.run);
  EXPECT_EQ(res.situation, Situation::Deadlock);
  EXPECT_EQ(res.faulty, V({0, 1}));
}

TEST(Localize, PollingLoopIsAWaitNotAComputation) {
  RunBuilder b(2);
  b.irecv(0, 1, 8);
  for (int k = 0; k < 3; ++k) b.test_failed(0, 8);
  b.finalize(1);
  auto res = analyse(b.run);
  EXPECT_EQ(res.failure_events[0].kind, FailureKind::Communication);
  EXPECT_EQ(res.failure_events[0].ptr, 1);
  EXPECT_EQ(res.situation, Situation::NonOccurredEvent);
  EXPECT_EQ(res.faulty, V({0, 1}));
}

TEST(Localize, SuccessfulRunHasNothingToLocalize) {
  RunBuilder b(2);
  b.send(0, 1);
  b.recv(1, 0);
  b.finalize(0);
  b.finalize(1);
  auto res = analyse(b.run, "ok");
  EXPECT_EQ(res.situation, Situation::None);
  EXPECT_TRUE(res.faulty.empty());
  EXPECT_TRUE(mpipd_findings(res, b.run, "r1").empty());
}

TEST(Localize, MissingRankTraceIsACalculationFault) {
  RunBuilder b(3);
  b.run.ranks[2] = trace::RankTrace{};  // rank -1: no files
  b.recv(0, 2, 0, 8, false);
  b.finalize(1);
  auto res = analyse(b.run, "crashed");
  EXPECT_EQ(res.faulty, V({2}));
  EXPECT_EQ(res.situation, Situation::CalculationFault);
}

TEST(Findings, CarryTheSituationFaultySetAndATimeline) {
  RunBuilder b(4);
  for (int r = 0; r < 3; ++r) b.ssend(r, (r + 1) % 3, 0, false);
  b.collective(3, 0, false);
  auto res = analyse(b.run);
  auto findings = mpipd_findings(res, b.run, "run-7");
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.detector, "mpipd");
  EXPECT_EQ(f.kind, "deadlock");
  EXPECT_EQ(f.run_id, "run-7");
  EXPECT_EQ(f.ranks, V({0, 1, 2}));
  EXPECT_EQ(f.details["faulty"], nlohmann::json({0, 1, 2}));
  EXPECT_EQ(f.details["failure_events"].size(), 4u);
  EXPECT_EQ(f.details["failure_events"][3]["depends_on"], 0);
  ASSERT_EQ(f.artifacts.size(), 1u);
  EXPECT_EQ(f.artifacts[0].media_type, "image/svg+xml");
  const std::string& svg = f.artifacts[0].content;
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("rank 1 (faulty)"), std::string::npos);
  EXPECT_EQ(svg.find("rank 3 (faulty)"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"5,3\""), std::string::npos);  // failed communication
  EXPECT_NE(svg.find("matched message"), std::string::npos);           // legend
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(Findings, RebuildTheGraphWhenTheResultHasNone) {
  RunBuilder b(2);
  b.recv(0, 1, 0, 8, false);
  b.finalize(1);
  auto res = analyse(b.run);
  res.graph.reset();
  auto findings = mpipd_findings(res, b.run, "r");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "non-occurred-event");
}

}  // namespace
}  // namespace scalefuzz::detectors::mpipd
