// Event graph relations and communication errors (paper §2.1, §2.3) on
// hand-made traces, matched by trace::match_messages.
#include <gtest/gtest.h>

#include <algorithm>

#include "run_builder.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {
namespace {

using testing::RunBuilder;

EventGraph graph_of(const trace::RunTrace& run) { return build_event_graph(run, trace::match_messages(run)); }

bool has_edge(const std::vector<Edge>& edges, trace::EventRef from, trace::EventRef to) {
  return std::any_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.from == from && e.to == to; });
}

TEST(EventGraph, MatchedMessageIsConcurrentAndNotIsolated) {
  RunBuilder b(2);
  auto s = b.send(0, 1, 5);
  auto r = b.recv(1, 0, 5);
  auto g = graph_of(b.run);
  EXPECT_TRUE(has_edge(g.concurrent, {0, s}, {1, r}));
  EXPECT_FALSE(g.info[0][s].isolated);
  EXPECT_FALSE(g.info[1][r].isolated);
  EXPECT_EQ(g.info[0][s].partner, (trace::EventRef{1, r}));
  EXPECT_TRUE(g.info[0][s].communication);
  EXPECT_FALSE(g.info[0][0].communication);  // MPI_Init
}

TEST(EventGraph, UnreceivedSendAndUnansweredReceiveAreIsolated) {
  RunBuilder b(3);
  auto s = b.send(0, 2, 1);                        // nobody receives it
  auto r = b.recv(1, 0, 1, 8, /*done=*/false);     // waits for a message that never comes
  auto g = graph_of(b.run);
  EXPECT_TRUE(g.info[0][s].isolated);
  EXPECT_FALSE(g.info[0][s].unfinished);
  EXPECT_TRUE(g.info[1][r].isolated);
  EXPECT_TRUE(g.info[1][r].unfinished);
}

TEST(EventGraph, NonblockingPostIsLinkedToItsCompletion) {
  RunBuilder b(2);
  auto ir = b.irecv(1, 0, 77, 3);
  auto s = b.send(0, 1, 3);
  auto w = b.wait(1, 77, true, 0, 3);
  auto g = graph_of(b.run);
  const std::size_t done = w + 1;  // the RequestDone child
  EXPECT_TRUE(has_edge(g.nonblocking, {1, ir}, {1, done}));
  EXPECT_EQ(g.info[1][ir].nb_partner, (trace::EventRef{1, done}));
  EXPECT_TRUE(has_edge(g.concurrent, {0, s}, {1, ir}));
  EXPECT_FALSE(g.info[1][ir].isolated);
}

TEST(EventGraph, PostWithNeitherMessageNorCompletionIsIsolated) {
  RunBuilder b(3);
  auto ir = b.irecv(1, 2, 9);     // invalid source: rank 2 never sends
  b.send(0, 1);                   // the message meant for it
  auto w = b.wait(1, 9, false);   // never returns
  auto g = graph_of(b.run);
  EXPECT_TRUE(g.info[1][ir].isolated);
  EXPECT_TRUE(g.info[1][w].unfinished);
  EXPECT_FALSE(g.info[1][w].isolated);  // the Wait call itself has no partner to miss
}

TEST(EventGraph, MatchedButUncompletedPostIsNotAnError) {
  RunBuilder b(2);
  auto ir = b.irecv(1, 0, 4);
  b.send(0, 1);
  b.recv(1, 0, 99, 8, false);  // stuck elsewhere before waiting for request 4
  auto g = graph_of(b.run);
  // Whether the matcher pairs the message with the post or not, the post has a partner.
  EXPECT_GE(g.info[1][ir].partner.rank, 0);
  EXPECT_FALSE(g.info[1][ir].isolated);
}

// One message from rank 0 into a receive on rank 1: an overflow pair exactly
// when the message is longer than the receive buffer, whether MPI aborts
// inside the receive or returns the error; matched either way.
TEST(EventGraph, MessageLongerThanReceiveBufferIsAnOverflowPair) {
  struct Case {
    const char* what;
    std::int64_t sent, capacity;
    bool returned;       // the receive returned (else it aborted inside MPI_Recv)
    std::int32_t error;  // what it returned
    bool overflow;
  };
  for (const Case& c : {Case{"aborted inside MPI_Recv (MPI_ERR_TRUNCATE)", 400, 40, false, 0, true},
                        Case{"MPI_ERR_TRUNCATE returned under MPI_ERRORS_RETURN", 400, 40, true, 15, true},
                        Case{"shorter message", 40, 400, true, 0, false}}) {
    SCOPED_TRACE(c.what);
    RunBuilder b(2);
    auto s = b.send(0, 1, 0, c.sent);
    auto r = b.recv(1, 0, 0, c.capacity, c.returned);
    b.ev(1, r).error = c.error;
    auto g = graph_of(b.run);
    EXPECT_EQ(g.info[0][s].overflow, c.overflow);
    EXPECT_EQ(g.info[1][r].overflow, c.overflow);
    EXPECT_EQ(g.info[1][r].mpi_error, c.error != 0);
    EXPECT_FALSE(g.info[0][s].isolated);
    EXPECT_TRUE(has_edge(g.concurrent, {0, s}, {1, r}));
  }
}

TEST(EventGraph, CollectiveInstancesMatchByOrderPerCommunicator) {
  RunBuilder b(3);
  for (int r = 0; r < 3; ++r) b.collective(r);           // instance 0: complete
  auto a0 = b.collective(0, 0, false);                    // instance 1: rank 2 never arrives
  auto a1 = b.collective(1, 0, false);
  auto g = graph_of(b.run);
  ASSERT_EQ(g.collectives.size(), 2u);
  EXPECT_TRUE(g.collectives[0].missing.empty());
  EXPECT_EQ(g.collectives[1].missing, std::vector<int>({2}));
  EXPECT_TRUE(g.info[0][a0].isolated);
  EXPECT_TRUE(g.info[1][a1].isolated);
  EXPECT_FALSE(g.info[0][1].isolated);
}

TEST(EventGraph, SubCommunicatorMembersComeFromTheirRecords) {
  RunBuilder b(4);
  const std::uint32_t sub = 42;
  for (int r : {1, 3}) b.comm_create(r, sub);
  auto c = b.collective(1, sub, false);
  auto g = graph_of(b.run);
  ASSERT_EQ(g.collectives.size(), 1u);
  EXPECT_EQ(g.collectives[0].missing, std::vector<int>({3}));  // 0 and 2 are not members
  EXPECT_TRUE(g.info[1][c].isolated);
}

}  // namespace
}  // namespace scalefuzz::detectors::mpipd
