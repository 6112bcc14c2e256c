// Seqlock reading of the live-state file, including a concurrent writer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

using testing::RankBuilder;
using testing::TempRunDir;
using testing::has_warning;

void write_with_live(const TempRunDir& dir, std::uint64_t version) {
  RankBuilder b(0, 1);
  b.add(OpClass::Init);
  LiveState live{};
  live.version = version;
  live.calls = 3;
  b.rt.live = live;
  write_rank(dir.path(), b.rt);
}

TEST(TraceLive, StableEvenVersionReadsCleanly) {
  TempRunDir dir;
  write_with_live(dir, 10);
  RankTrace rt = read_rank(dir.path(), 0);
  ASSERT_TRUE(rt.live.has_value());
  EXPECT_EQ(rt.live->calls, 3u);
  EXPECT_FALSE(has_warning(rt, "live"));
}

TEST(TraceLive, OddVersionAfterRetriesReturnsCopyWithWarning) {
  TempRunDir dir;
  write_with_live(dir, 11);  // writer died between the two version stores
  RankTrace rt = read_rank(dir.path(), 0);
  ASSERT_TRUE(rt.live.has_value());
  EXPECT_EQ(rt.live->calls, 3u);
  EXPECT_TRUE(has_warning(rt, "live: torn read")) << ::testing::PrintToString(rt.warnings);
}

TEST(TraceLive, TruncatedLiveFileIsAWarning) {
  TempRunDir dir;
  write_with_live(dir, 2);
  std::filesystem::resize_file(dir.file(0, "live"), sizeof(FileHeader) + 100);
  RankTrace rt = read_rank(dir.path(), 0);
  EXPECT_FALSE(rt.live.has_value());
  EXPECT_TRUE(has_warning(rt, "live: file too short"));
}

// A writer thread updates the mapped record as the injector does (odd, fill
// every counter with the same value, even); every read must see one
// consistent update, never a mix. The injector updates once per intercepted
// call, and a call costs the application at least ~100 ns outside the update
// (bench/injector: the cheapest bare calls plus the recorder's ~1,400
// instructions per call), so the writer leaves that much between updates. An
// unpaced writer is always mid-update and measures the scheduler, not the
// reader: CI saw 187 of 300 reads torn with one.
TEST(TraceLive, ConcurrentWriterNeverYieldsAMixedCopy) {
  TempRunDir dir;
  write_with_live(dir, 0);
  int fd = ::open(dir.file(0, "live").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  const std::size_t len = sizeof(FileHeader) + sizeof(LiveState);
  void* map = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  ASSERT_NE(map, MAP_FAILED);
  auto* live = reinterpret_cast<LiveState*>(static_cast<unsigned char*>(map) + sizeof(FileHeader));

  live->calls = 0;  // k = 0: every counter equal before the writer starts
  live->npending = 4;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (std::uint64_t k = 1; !stop.load(std::memory_order_relaxed); ++k) {
      __atomic_store_n(&live->version, 2 * k - 1, __ATOMIC_RELAXED);
      std::atomic_thread_fence(std::memory_order_release);
      live->calls = live->sends = live->recvs = live->collectives = k;
      live->bytes_sent = live->bytes_received = k;
      live->current_seq = k;
      for (std::uint32_t i = 0; i < 4; ++i) live->pending[i].request = k;
      __atomic_store_n(&live->version, 2 * k, __ATOMIC_RELEASE);
      const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(100);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
  });
  int reads = 0, torn = 0;
  std::uint64_t last_seen = 0;
  for (; reads < 300; ++reads) {
    RankTrace rt = read_rank(dir.path(), 0);
    ASSERT_TRUE(rt.live.has_value());
    const LiveState& s = *rt.live;
    if (has_warning(rt, "live: torn read")) {
      ++torn;
      continue;
    }
    std::uint64_t k = s.calls;
    EXPECT_EQ(s.version, 2 * k);
    EXPECT_EQ(s.sends, k);
    EXPECT_EQ(s.bytes_received, k);
    EXPECT_EQ(s.current_seq, k);
    EXPECT_EQ(s.pending[0].request, k);
    EXPECT_EQ(s.pending[3].request, k);
    EXPECT_EQ(s.pending[4].request, 0u);  // beyond npending: not copied
    EXPECT_GE(k, last_seen);
    last_seen = k;
  }
  stop = true;
  writer.join();
  ::munmap(map, len);
  RecordProperty("torn_reads", torn);
  EXPECT_LT(torn, reads / 2);  // retries must normally succeed against a live writer
  EXPECT_GT(last_seen, 0u);
}

}  // namespace
}  // namespace scalefuzz::trace
