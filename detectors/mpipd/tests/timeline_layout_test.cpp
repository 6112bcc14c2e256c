// The timeline's layout: no two event boxes overlap, also when two events of a
// rank were entered at the same instant (the halves of MPI_Sendrecv), and
// columns keep time order across ranks.
#include <gtest/gtest.h>

#include <regex>

#include "run_builder.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {
namespace {

using testing::RunBuilder;

TEST(TimelineColumns, EventsOfOneRankAtOneInstantGetTheirOwnColumns) {
  // rank 0: Sendrecv (two halves at t=10), then a send at t=20; rank 1 likewise at t=10 and t=15.
  const std::vector<TimelineEvent> events = {{0, 10}, {0, 10}, {0, 20}, {1, 10}, {1, 10}, {1, 15}};
  const auto col = timeline_columns(events);
  ASSERT_EQ(col.size(), events.size());
  EXPECT_LT(col[0], col[1]);
  EXPECT_LT(col[1], col[2]);
  EXPECT_LT(col[3], col[4]);
  EXPECT_LT(col[4], col[5]);
  // Time order across ranks: what was entered later is drawn further right.
  for (std::size_t a = 0; a < events.size(); ++a)
    for (std::size_t b = 0; b < events.size(); ++b)
      if (events[a].t_enter_ns < events[b].t_enter_ns) EXPECT_LT(col[a], col[b]) << a << " " << b;
}

TEST(TimelineColumns, NoTwoEventsOfARankShareAColumnOnRandomInput) {
  std::uint64_t state = 12345;
  auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  std::vector<TimelineEvent> events;
  for (int rank = 0; rank < 6; ++rank) {
    std::uint64_t t = next() % 5;
    for (int i = 0; i < 20; ++i) {
      events.push_back({rank, t});
      if (next() % 3 != 0) t += next() % 4;  // often the same instant again
    }
  }
  const auto col = timeline_columns(events);
  for (std::size_t a = 0; a < events.size(); ++a)
    for (std::size_t b = a + 1; b < events.size(); ++b) {
      if (events[a].rank == events[b].rank) {
        EXPECT_NE(col[a], col[b]);
        EXPECT_LT(col[a], col[b]) << "a rank's events keep their order";
      }
      if (events[a].t_enter_ns < events[b].t_enter_ns) EXPECT_LT(col[a], col[b]);
    }
}

struct Box {
  double x, y, w, h;
};

// The event boxes of a timeline SVG: the rounded rectangles inside <g>.
std::vector<Box> event_boxes(const std::string& svg) {
  std::vector<Box> out;
  const std::regex rect(R"re(<g><title>[^<]*</title><rect x="([0-9.-]+)" y="([0-9.-]+)" width="([0-9.]+)" height="([0-9.]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it)
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])});
  return out;
}

TEST(TimelineSvg, SendrecvHalvesAndAllOtherBoxesDoNotOverlap) {
  RunBuilder b(3);
  // Ranks 0 and 1 exchange with MPI_Sendrecv: the recorder writes a send and a
  // receive entered at the same instant.
  const auto s0 = b.send(0, 1);
  const auto r0 = b.recv(0, 1);
  const auto s1 = b.send(1, 0);
  const auto r1 = b.recv(1, 0);
  b.ev(0, r0).t_enter_ns = b.ev(0, s0).t_enter_ns;
  b.ev(1, r1).t_enter_ns = b.ev(1, s1).t_enter_ns;
  // Then a cycle of synchronous sends that never return.
  for (int r = 0; r < 3; ++r) b.ssend(r, (r + 1) % 3, 1, false);
  trace::RunTrace run = b.run;
  MpipdInput input;
  input.outcome = "hang";
  const auto res = localize_failure(run, input);
  ASSERT_TRUE(res.graph);
  const std::string svg = timeline_svg(res, run, *res.graph);
  const auto boxes = event_boxes(svg);
  ASSERT_GE(boxes.size(), 7u) << svg;
  for (std::size_t a = 0; a < boxes.size(); ++a)
    for (std::size_t c = a + 1; c < boxes.size(); ++c) {
      const Box& p = boxes[a];
      const Box& q = boxes[c];
      const bool overlap = p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
      EXPECT_FALSE(overlap) << "boxes " << a << " and " << c << " at x=" << p.x << "," << q.x << " y=" << p.y;
    }
}

}  // namespace
}  // namespace scalefuzz::detectors::mpipd
