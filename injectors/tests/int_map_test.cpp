#include "int_map.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

using scalefuzz::inject::IntMap;

TEST(IntMap, InsertFindErase) {
  IntMap<int> m(4);
  m.insert(7, 70);
  m.insert(-3, 30);
  ASSERT_NE(m.find(7), nullptr);
  EXPECT_EQ(*m.find(7), 70);
  EXPECT_EQ(*m.find(-3), 30);
  EXPECT_EQ(m.find(8), nullptr);
  m.insert(7, 71);  // overwrite
  EXPECT_EQ(*m.find(7), 71);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_TRUE(m.erase(7));
  EXPECT_FALSE(m.erase(7));
  EXPECT_EQ(m.find(7), nullptr);
  EXPECT_EQ(*m.find(-3), 30);
}

// Random churn against std::map: backward-shift deletion must keep every
// remaining key reachable (the way MPI request handles come and go).
TEST(IntMap, ChurnMatchesStdMap) {
  IntMap<long> m(8);
  std::map<long, long> ref;
  std::mt19937 rng(12345);
  for (int i = 0; i < 200000; ++i) {
    long key = static_cast<long>(rng() % 512) * 0x2c000000L + (rng() % 3);  // MPICH-like handles
    if (rng() % 3 == 0) {
      EXPECT_EQ(m.erase(key), ref.erase(key) == 1);
    } else {
      m.insert(key, i);
      ref[key] = i;
    }
  }
  EXPECT_EQ(m.size(), ref.size());
  for (const auto& [k, v] : ref) {
    ASSERT_NE(m.find(k), nullptr) << k;
    EXPECT_EQ(*m.find(k), v);
  }
}
