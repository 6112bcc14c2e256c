// StackCache without MPI: "stack slots" are entries of a local array.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

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

// valid() compares the saved words two at a time (an odd count is padded):
// whatever the frame count, a change in any one word, the deepest included,
// is a miss.
TEST(StackCache, EverySavedWordCountsWhateverTheFrameCount) {
  static StackCache cache;
  std::uintptr_t words[16] = {};
  void* frames[16];
  std::uintptr_t slots[16];
  for (int k = 0; k < 16; ++k) {
    words[k] = 0x1000 + 0x10 * static_cast<std::uintptr_t>(k);
    frames[k] = reinterpret_cast<void*>(words[k]);
    slots[k] = reinterpret_cast<std::uintptr_t>(&words[k]);
  }
  frames[0] = reinterpret_cast<void*>(0xA0);
  for (int n = 1; n <= 16; ++n) {
    SCOPED_TRACE("frames " + std::to_string(n));
    cache.clear();
    cache.insert(7, 0xA0, 0x5000, slots, frames, n, 40u + static_cast<std::uint32_t>(n));
    EXPECT_EQ(cache.find(7, 0xA0, 0x5000), 40u + static_cast<std::uint32_t>(n));
    for (int k = 1; k < 16; ++k) {
      words[k] ^= 0x8;
      EXPECT_EQ(cache.find(7, 0xA0, 0x5000), k < n ? StackCache::kMiss : 40u + static_cast<std::uint32_t>(n))
          << "word " << k;
      words[k] ^= 0x8;
    }
  }
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
