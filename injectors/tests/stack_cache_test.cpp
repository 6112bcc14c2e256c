// StackCache without MPI: "stack slots" are entries of a local array.
#include <gtest/gtest.h>

#include <cstdint>

#include "stack_cache.hpp"

using scalefuzz::inject::StackCache;

namespace {

struct FakeStack {
  std::uintptr_t words[8] = {0x1000, 0x2000, 0x3000, 0x4000, 0, 0, 0, 0};
  void* frames[4] = {reinterpret_cast<void*>(0xA0), reinterpret_cast<void*>(0x2000), reinterpret_cast<void*>(0x3000),
                     reinterpret_cast<void*>(0x4000)};
  std::uintptr_t slots[4] = {0, reinterpret_cast<std::uintptr_t>(&words[1]), reinterpret_cast<std::uintptr_t>(&words[2]),
                             reinterpret_cast<std::uintptr_t>(&words[3])};
};

TEST(StackCache, HitsWhileEverySavedReturnAddressIsInPlace) {
  static StackCache cache;
  FakeStack st;
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), StackCache::kMiss);
  cache.insert(7, 0xA0, 0x5000, st.slots, st.frames, 4, 42);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 42u);
  EXPECT_TRUE(cache.holds(7, 0xA0, 0x5000, st.frames, 4));
  EXPECT_FALSE(cache.holds(7, 0xA0, 0x5000, st.frames, 3));
  st.words[3] = 0x4444;  // the outermost caller changed
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), StackCache::kMiss);
  st.words[3] = 0x4000;
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 42u);
}

TEST(StackCache, KeyIsReturnAddressStackPointerAndOp) {
  static StackCache cache;
  FakeStack st;
  cache.insert(7, 0xA0, 0x5000, st.slots, st.frames, 4, 42);
  EXPECT_EQ(cache.find(8, 0xA0, 0x5000), StackCache::kMiss);
  EXPECT_EQ(cache.find(7, 0xA8, 0x5000), StackCache::kMiss);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5010), StackCache::kMiss);
  cache.clear();
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), StackCache::kMiss);
}

// Two callers at the same depth share the key; both stay cached (two ways),
// a third evicts the least recently used one.
TEST(StackCache, OneKeyHoldsTwoCallersAndEvictsTheLeastRecentlyUsed) {
  static StackCache cache;
  FakeStack st;
  auto as_caller = [&](std::uintptr_t ret) {
    st.words[1] = ret;
    st.frames[1] = reinterpret_cast<void*>(ret);
  };
  as_caller(0x2000);
  cache.insert(7, 0xA0, 0x5000, st.slots, st.frames, 4, 42);
  as_caller(0x2222);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), StackCache::kMiss);
  cache.insert(7, 0xA0, 0x5000, st.slots, st.frames, 4, 43);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 43u);
  as_caller(0x2000);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 42u);  // now the most recently used
  as_caller(0x2444);
  cache.insert(7, 0xA0, 0x5000, st.slots, st.frames, 4, 44);  // evicts 43
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 44u);
  as_caller(0x2000);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 42u);
  as_caller(0x2222);
  EXPECT_EQ(cache.find(7, 0xA0, 0x5000), StackCache::kMiss);
}

TEST(StackCache, SingleFrameNeedsNoSlots) {
  static StackCache cache;
  void* frames[1] = {reinterpret_cast<void*>(0xB0)};
  cache.insert(3, 0xB0, 0, nullptr, frames, 1, 5);
  EXPECT_EQ(cache.find(3, 0xB0, 0), 5u);
  cache.insert(3, 0xB0, 0, nullptr, frames, 0, 9);  // ignored: no frames
  EXPECT_EQ(cache.find(3, 0xB0, 0), 5u);
}

}  // namespace
