// RequestTable: live requests that share one MPI handle stay apart.
#include <gtest/gtest.h>

#include <cstdint>

#include "request_table.hpp"

namespace {
using scalefuzz::inject::RequestTable;

struct Info {
  std::uint64_t id = 0;
  std::uintptr_t slot = 0;
  int peer = -1;
};

constexpr std::int64_t kShared = 0x6c000001;  // MPICH 4.0.2's handle of every Isend completed at once

TEST(RequestTable, UniqueHandlesBehaveLikeAMap) {
  RequestTable<Info> t;
  t.add(10, Info{1, 100, 4});
  t.add(11, Info{2, 108, 5});
  ASSERT_NE(t.pick(10, 0), nullptr);
  EXPECT_EQ(t.pick(10, 0)->peer, 4);
  EXPECT_EQ(t.pick(11, 0)->peer, 5);
  EXPECT_EQ(t.pick(12, 0), nullptr);
  EXPECT_FALSE(t.shared(10));
  EXPECT_TRUE(t.erase(10, 1));
  EXPECT_EQ(t.pick(10, 0), nullptr);
  EXPECT_FALSE(t.erase(11, 99)) << "another request's id does not erase";
  EXPECT_EQ(t.size(), 1u);
}

TEST(RequestTable, SharedHandlePicksBySlotThenPostingOrder) {
  RequestTable<Info> t;
  for (int p = 0; p < 3; ++p) t.add(kShared, Info{static_cast<std::uint64_t>(p + 1), 100 + 8u * p, p});
  EXPECT_TRUE(t.shared(kShared));
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.pick(kShared, 116)->peer, 2);
  EXPECT_EQ(t.pick(kShared, 108)->peer, 1);
  EXPECT_EQ(t.pick(kShared, 999)->peer, 0) << "unknown slot: oldest first";
  // A Waitall over a copy of the handles: each position gets a distinct request.
  std::uint64_t taken[3] = {};
  for (int i = 0; i < 3; ++i) {
    Info* p = t.pick(kShared, 500 + 8u * i, taken, i);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->peer, i);
    taken[i] = p->id;
  }
  EXPECT_EQ(t.pick(kShared, 0, taken, 3), nullptr);
}

TEST(RequestTable, EraseKeepsTheOtherRequestsOfAHandle) {
  RequestTable<Info> t;
  for (int p = 0; p < 4; ++p) t.add(kShared, Info{static_cast<std::uint64_t>(p + 1), 0, p});
  EXPECT_TRUE(t.erase(kShared, 1));  // the one in the map: the oldest remaining takes its place
  EXPECT_EQ(t.pick(kShared, 0)->peer, 1);
  EXPECT_TRUE(t.erase(kShared, 3));
  EXPECT_EQ(t.find(kShared, 3), nullptr);
  ASSERT_NE(t.find(kShared, 4), nullptr);
  EXPECT_EQ(t.find(kShared, 4)->peer, 3);
  EXPECT_TRUE(t.erase(kShared, 2));
  EXPECT_FALSE(t.shared(kShared));
  EXPECT_TRUE(t.erase(kShared, 4));
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.pick(kShared, 0), nullptr);
}

}  // namespace
