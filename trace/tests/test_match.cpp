// match_messages over hand-built traces.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "scalefuzz/trace/model.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

using testing::RankBuilder;

RunTrace make_run(std::vector<RankBuilder> builders) {
  RunTrace run;
  for (auto& b : builders) run.ranks.push_back(b.rt);
  return run;
}

// The matched message whose receive was posted at (rank, index); a test
// without one fails (the exception) instead of reading through a null pointer.
const MatchedMessage& by_recv(const Matching& m, int rank, std::size_t index) {
  for (const auto& msg : m.messages)
    if (msg.recv_post == EventRef{rank, index}) return msg;
  throw std::runtime_error("no message matched to the receive posted at rank " + std::to_string(rank) + " event " +
                           std::to_string(index));
}

TEST(TraceMatch, NonOvertakingSameTag) {
  RankBuilder r0(0, 2), r1(1, 2);
  std::size_t s[3], r[3];
  for (int i = 0; i < 3; ++i) s[i] = r0.send(1, 5, 8 * (i + 1));
  for (int i = 0; i < 3; ++i) r[i] = r1.recv(0, 5, 0, 5);
  Matching m = match_messages(make_run({r0, r1}));
  ASSERT_EQ(m.messages.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const MatchedMessage& msg = by_recv(m, 1, r[i]);
    EXPECT_EQ(msg.send, (EventRef{0, s[i]}));
    EXPECT_EQ(msg.recv_done, msg.recv_post);
    EXPECT_EQ(msg.bytes, 8 * (i + 1));
    EXPECT_EQ(msg.tag, 5);
  }
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

TEST(TraceMatch, DifferentTagsMayCross) {
  RankBuilder r0(0, 2), r1(1, 2);
  std::size_t sa = r0.send(1, 1), sb = r0.send(1, 2);
  std::size_t rb = r1.recv(0, 2, 0, 2), ra = r1.recv(0, 1, 0, 1);
  Matching m = match_messages(make_run({r0, r1}));
  ASSERT_EQ(m.messages.size(), 2u);
  EXPECT_EQ(by_recv(m, 1, rb).send, (EventRef{0, sb}));
  EXPECT_EQ(by_recv(m, 1, ra).send, (EventRef{0, sa}));
  // messages are listed per destination in receive-posting order
  EXPECT_EQ(m.messages[0].recv_post, (EventRef{1, rb}));
}

TEST(TraceMatch, AnySourceResolvedByStatus) {
  RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
  std::size_t s1 = r1.send(0, 7), s2 = r2.send(0, 7);
  std::size_t first = r0.recv(kAnySource, kAnyTag, 2, 7);
  std::size_t second = r0.recv(kAnySource, kAnyTag, 1, 7);
  Matching m = match_messages(make_run({r0, r1, r2}));
  ASSERT_EQ(m.messages.size(), 2u);
  EXPECT_EQ(by_recv(m, 0, first).send, (EventRef{2, s2}));
  EXPECT_EQ(by_recv(m, 0, second).send, (EventRef{1, s1}));
  EXPECT_EQ(by_recv(m, 0, first).tag, 7);
}

TEST(TraceMatch, SendrecvRing) {
  const int n = 4;
  std::vector<RankBuilder> ranks;
  for (int r = 0; r < n; ++r) {
    RankBuilder b(r, n);
    b.add(OpClass::Sendrecv, (r + 1) % n, 9);
    Event& child = b.add(OpClass::Recv, (r + n - 1) % n, 9, 0, kFlagChild);
    child.status_source = (r + n - 1) % n;
    child.status_tag = 9;
    ranks.push_back(b);
  }
  Matching m = match_messages(make_run(ranks));
  ASSERT_EQ(m.messages.size(), static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const MatchedMessage& msg = by_recv(m, r, 1);
    EXPECT_EQ(msg.send, (EventRef{(r + n - 1) % n, 0}));
  }
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

TEST(TraceMatch, PersistentRequestsAcrossSeveralStarts) {
  RankBuilder r0(0, 2), r1(1, 2);
  r0.add(OpClass::SendInit, 1, 4, 7);
  r1.add(OpClass::RecvInit, 0, 4, 7);  // same id on both ranks: ids are per rank
  std::vector<std::size_t> starts0, starts1, dones1;
  for (int i = 0; i < 3; ++i) {
    r0.add(OpClass::Start, 1, 4, 7, kFlagPersistent);
    starts0.push_back(r0.last());
    r0.wait(7);
    r1.add(OpClass::Start, 0, 4, 7, kFlagPersistent);
    starts1.push_back(r1.last());
    dones1.push_back(r1.wait(7, 0, 4));
  }
  r0.add(OpClass::RequestFree, kNoPeer, kNoTag, 7);
  Matching m = match_messages(make_run({r0, r1}));
  ASSERT_EQ(m.messages.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const MatchedMessage& msg = by_recv(m, 1, starts1[i]);
    EXPECT_EQ(msg.send, (EventRef{0, starts0[i]}));
    EXPECT_EQ(msg.recv_done, (EventRef{1, dones1[i]}));
  }
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

TEST(TraceMatch, IsendIrecvWithWaitallChildrenMatchInPostingOrder) {
  RankBuilder r0(0, 2), r1(1, 2);
  std::size_t s1 = r0.isend(1, 3, 1), s2 = r0.isend(1, 3, 2);
  r0.add(OpClass::Completion);
  r0.done(1);
  r0.done(2);
  std::size_t p1 = r1.irecv(0, 3, 10), p2 = r1.irecv(0, 3, 11);
  r1.add(OpClass::Completion);
  std::size_t d2 = r1.done(11, 0, 3);  // Waitall reports the later post first
  std::size_t d1 = r1.done(10, 0, 3);
  Matching m = match_messages(make_run({r0, r1}));
  ASSERT_EQ(m.messages.size(), 2u);
  EXPECT_EQ(by_recv(m, 1, p1).send, (EventRef{0, s1}));
  EXPECT_EQ(by_recv(m, 1, p1).recv_done, (EventRef{1, d1}));
  EXPECT_EQ(by_recv(m, 1, p2).send, (EventRef{0, s2}));
  EXPECT_EQ(by_recv(m, 1, p2).recv_done, (EventRef{1, d2}));
}

TEST(TraceMatch, UnmatchedSendsAndReceives) {
  RankBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 1);
  std::size_t extra = r0.send(1, 1);
  r1.recv(0, 1, 0, 1);
  std::size_t never = r1.irecv(0, 2, 5);
  r1.add(OpClass::Completion, kNoPeer, kNoTag, 0, kFlagTestFailed);
  r1.done(5, kNoPeer, kNoTag, kFlagTestFailed);  // a failed test is not a completion
  r1.recv(0, 3, 0, 3);                           // hung: never returned
  std::size_t hung = r1.last();
  r1.rt.events.back().t_exit_ns = 0;
  Matching m = match_messages(make_run({r0, r1}));
  EXPECT_EQ(m.messages.size(), 1u);
  EXPECT_EQ(m.unmatched_sends, (std::vector<EventRef>{{0, extra}}));
  EXPECT_EQ(m.unmatched_recvs, (std::vector<EventRef>{{1, never}, {1, hung}}));
}

TEST(TraceMatch, ReceiveWithoutSenderRecordIsUnmatched) {
  RankBuilder r0(0, 2), r1(1, 2);
  std::size_t r = r1.recv(kAnySource, 1, 0, 1);  // rank 0's trace lost that send
  Matching m = match_messages(make_run({r0, r1}));
  EXPECT_TRUE(m.messages.empty());
  EXPECT_EQ(m.unmatched_recvs, (std::vector<EventRef>{{1, r}}));
}

TEST(TraceMatch, ProcNullAndCancelledAreIgnored) {
  RankBuilder r0(0, 2), r1(1, 2);
  r0.send(kProcNull, 1);
  r0.isend(1, 2, 3);
  r0.add(OpClass::RequestFree, kNoPeer, kNoTag, 3);  // MPI_Cancel
  r0.add(OpClass::Completion);
  r0.done(3, kNoPeer, kNoTag, kFlagCancelled);
  r1.recv(kProcNull, 1, kProcNull, kAnyTag);
  r1.irecv(0, 9, 4);
  r1.add(OpClass::RequestFree, kNoPeer, kNoTag, 4);
  r1.wait(4);
  r1.rt.events.back().flags |= kFlagCancelled;  // MPI_Test_cancelled said yes
  Matching m = match_messages(make_run({r0, r1}));
  EXPECT_TRUE(m.messages.empty());
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

TEST(TraceMatch, CollectivesAndProbesAreNotMessages) {
  RankBuilder r0(0, 2), r1(1, 2);
  r0.add(OpClass::Collective, kNoPeer, kNoTag, 0, 0, 64);
  r0.add(OpClass::Icollective, kNoPeer, kNoTag, 8);
  r0.wait(8);
  r1.add(OpClass::Probe, 0, 1);
  r1.add(OpClass::Collective, kNoPeer, kNoTag, 0, 0, 64);
  Matching m = match_messages(make_run({r0, r1}));
  EXPECT_TRUE(m.messages.empty());
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

// Rank 0 receives from 1 and 2 with ANY_SOURCE; `first` is who came first.
RunTrace wildcard_run(int first, int polls) {
  RankBuilder r0(0, 3), r1(1, 3), r2(2, 3);
  for (int p = 0; p < polls; ++p) r1.add(OpClass::Probe, 0, 0, 0, kFlagTestFailed);  // timing-dependent polling
  r1.send(0, 0);
  r2.send(0, 0);
  r0.recv(kAnySource, 0, first, 0);
  r0.recv(kAnySource, 0, 3 - first, 0);
  return make_run({r0, r1, r2});
}

TEST(TraceMatch, OrderHashTellsMatchingOrders) {
  std::uint64_t a = match_messages(wildcard_run(1, 0)).order_hash;
  std::uint64_t again = match_messages(wildcard_run(1, 0)).order_hash;
  std::uint64_t polled = match_messages(wildcard_run(1, 5)).order_hash;
  std::uint64_t swapped = match_messages(wildcard_run(2, 0)).order_hash;
  EXPECT_EQ(a, again);
  EXPECT_EQ(a, polled);  // extra records, same matching
  EXPECT_NE(a, swapped);
}

}  // namespace
}  // namespace scalefuzz::trace
