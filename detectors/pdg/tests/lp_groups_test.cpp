// drop_lp_groups_waiting_on_lp on hand-made PDGs.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

PdgResult three_groups() {
  PdgResult r;
  r.nodes.resize(3);
  r.nodes[0].ranks = {0, 1};
  r.nodes[1].ranks = {2};
  r.nodes[2].ranks = {3, 4};
  for (auto& n : r.nodes) n.lp = true;
  r.lp_nodes = {0, 1, 2};
  r.lp_tasks = {0, 1, 2, 3, 4};
  return r;
}

PdgEdge p2p(std::size_t from, std::size_t to) {
  PdgEdge e;
  e.from = from;
  e.to = to;
  e.kind = EdgeKind::PointToPoint;
  return e;
}

TEST(DropLpGroupsWaitingOnLp, GroupsWaitingOneWayOnAnotherLpGroupAreDropped) {
  PdgResult r = three_groups();
  r.edges = {p2p(0, 1), p2p(2, 1)};  // 0 and 2 wait on 1, 1 waits on nobody
  drop_lp_groups_waiting_on_lp(r);
  EXPECT_EQ(r.lp_nodes, (std::vector<std::size_t>{1}));
  EXPECT_EQ(r.lp_tasks, (std::vector<int>{2}));
  EXPECT_EQ(r.eliminated_tasks, (std::vector<int>{0, 1, 3, 4}));
  EXPECT_FALSE(r.nodes[0].lp);
  EXPECT_TRUE(r.nodes[1].lp);
  EXPECT_EQ(r.notes.size(), 1u);
}

TEST(DropLpGroupsWaitingOnLp, MutualWaitsAndProgressEdgesKeepEveryGroup) {
  PdgResult r = three_groups();
  PdgEdge progress;
  progress.from = 2;
  progress.to = 1;
  r.edges = {p2p(0, 1), p2p(1, 0), progress};  // a cycle (deadlock) and a non-p2p edge
  drop_lp_groups_waiting_on_lp(r);
  EXPECT_EQ(r.lp_nodes.size(), 3u);
  EXPECT_EQ(r.lp_tasks.size(), 5u);
  EXPECT_TRUE(r.notes.empty());
}

TEST(DropLpGroupsWaitingOnLp, NeverDropsEveryGroupOrASingleOne) {
  PdgResult r = three_groups();
  r.edges = {p2p(0, 1), p2p(1, 2), p2p(2, 0)};  // each waits one way on the next: all would go
  drop_lp_groups_waiting_on_lp(r);
  EXPECT_EQ(r.lp_nodes.size(), 3u);
  PdgResult one;
  one.nodes.resize(1);
  one.nodes[0].ranks = {7};
  one.nodes[0].lp = true;
  one.lp_nodes = {0};
  one.lp_tasks = {7};
  drop_lp_groups_waiting_on_lp(one);
  EXPECT_EQ(one.lp_tasks, (std::vector<int>{7}));
}

}  // namespace
}  // namespace scalefuzz::detectors::pdg
