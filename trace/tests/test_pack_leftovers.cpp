// pack_leftover_files: the harness packs what ranks that never returned from
// MPI_Finalize left raw — same trace read back, smaller files, damaged files
// left alone, and a kill at any moment of the packing loses nothing.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "scalefuzz/trace/allocs.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

namespace fs = std::filesystem;
using testing::TempRunDir;

// A rank's files as the injector leaves them when the rank is killed: raw
// records followed by the zeroed rest of the preallocated chunk, a sparse
// Markov hash table, call-site and feature tables with unwritten slots.
RankTrace killed_rank(const fs::path& run_dir, int rank, std::size_t events) {
  RankTrace rt;
  rt.rank = rank;
  rt.world_size = 2;
  rt.pid = 4242;
  rt.start_ns = 1'700'000'000'000'000'000ull;
  std::uint64_t t = rt.start_ns;
  for (std::size_t i = 0; i < events; ++i) {
    Event e{};
    e.seq = i + 1;
    e.callsite = static_cast<std::uint32_t>(i % 3);
    e.op_class = static_cast<std::uint8_t>(i % 3 == 2 ? OpClass::Completion : OpClass::Isend);
    e.peer = 1 - rank;
    e.tag = 5;
    e.request = i / 3 + 1;
    e.bytes = 64;
    e.buffer = 0x7f0000001000ull;
    e.t_enter_ns = t += 900;
    e.t_exit_ns = i + 1 == events ? 0 : (t += 300);  // the last call never returned
    rt.events.push_back(e);
  }
  for (std::uint32_t s = 0; s < 3; ++s) {
    CallSiteInfo site;
    site.id = s;
    site.stable_hash = 0x1000 + s;
    site.op = 1;
    site.frames = {0x401000ull + s, 0x402000ull};
    rt.sites.push_back(site);
    rt.features.push_back(SiteFeature{});
    rt.features.back().calls = 10 + s;
  }
  for (std::uint32_t i = 0; i < 3; ++i) rt.markov.edges.push_back({i, (i + 1) % 3, 7ull + i, 50ull * i});
  write_rank(run_dir, rt, "killed-run", Encoding::Raw);
  // The rest of the preallocated space: zero records and slots.
  auto append_zeros = [&](const char* ext, std::size_t bytes) {
    std::ofstream f(run_dir / "ranks" / (std::to_string(rank) + "." + ext), std::ios::binary | std::ios::app);
    std::vector<char> zeros(bytes, 0);
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  };
  append_zeros("events", 300 * sizeof(Event));
  append_zeros("sites", 500 * sizeof(CallSite));
  append_zeros("features", 500 * sizeof(SiteFeature));
  // The allocation log (injectors/alloc): two completed records, then zeros.
  {
    std::ofstream f(run_dir / "ranks" / (std::to_string(rank) + ".allocs"), std::ios::binary);
    FileHeader h = make_header(FileKind::Allocs, rank, 2, sizeof(AllocRecord), rt.start_ns, rt.pid, "killed-run");
    f.write(reinterpret_cast<const char*>(&h), sizeof h);
    std::vector<AllocRecord> log(400);
    log[0] = {rt.start_ns + 5, 0x10000, 64, 0x401000, 0, 0};
    log[1] = {rt.start_ns + 9, 0x20000, 128, 0x401000, 0, 0};
    f.write(reinterpret_cast<const char*>(log.data()), static_cast<std::streamsize>(log.size() * sizeof(AllocRecord)));
  }
  return rt;
}

std::uintmax_t rank_bytes(const TempRunDir& dir, int rank) {
  std::uintmax_t n = 0;
  for (const char* ext : {"events", "sites", "features", "markov", "allocs"}) n += fs::file_size(dir.file(rank, ext));
  return n;
}

void expect_same_trace(const RankTrace& got, const RankTrace& want) {
  ASSERT_EQ(got.events.size(), want.events.size());
  for (std::size_t i = 0; i < want.events.size(); ++i)
    ASSERT_EQ(0, std::memcmp(&got.events[i], &want.events[i], sizeof(Event))) << "event " << i;
  EXPECT_EQ(got.last_event_in_progress, want.last_event_in_progress);
  ASSERT_EQ(got.sites.size(), want.sites.size());
  for (std::size_t i = 0; i < want.sites.size(); ++i) {
    EXPECT_EQ(got.sites[i].stable_hash, want.sites[i].stable_hash);
    EXPECT_EQ(got.sites[i].frames, want.sites[i].frames);
  }
  ASSERT_EQ(got.features.size(), want.features.size());
  for (std::size_t i = 0; i < want.features.size(); ++i) EXPECT_EQ(got.features[i].calls, want.features[i].calls);
  ASSERT_EQ(got.markov.edges.size(), want.markov.edges.size());
  for (std::size_t i = 0; i < want.markov.edges.size(); ++i) {
    EXPECT_EQ(got.markov.edges[i].from, want.markov.edges[i].from);
    EXPECT_EQ(got.markov.edges[i].count, want.markov.edges[i].count);
  }
}

std::uint32_t header_kind(const fs::path& file) {
  FileHeader h{};
  std::ifstream(file, std::ios::binary).read(reinterpret_cast<char*>(&h), sizeof h);
  return h.kind;
}

TEST(TracePackLeftovers, KilledRanksFilesArePackedToTheSameTrace) {
  TempRunDir dir;
  killed_rank(dir.path(), 0, 5000);
  killed_rank(dir.path(), 1, 40);
  const RankTrace before0 = read_rank(dir.path(), 0), before1 = read_rank(dir.path(), 1);
  ASSERT_TRUE(before0.last_event_in_progress);
  const std::uintmax_t bytes0 = rank_bytes(dir, 0);

  LeftoverPacking p = pack_leftover_files(dir.path());
  EXPECT_EQ(p.ranks_packed, 2);
  EXPECT_TRUE(p.kept_raw.empty()) << p.kept_raw.front();
  EXPECT_GT(p.bytes_before, 4 * p.bytes_after);
  EXPECT_EQ(header_kind(dir.file(0, "events")), static_cast<std::uint32_t>(FileKind::PackedEvents));
  EXPECT_LT(rank_bytes(dir, 0) * 4, bytes0);
  EXPECT_EQ(fs::file_size(dir.file(0, "markov")), sizeof(FileHeader) + 3 * sizeof(MarkovEdge));
  EXPECT_EQ(fs::file_size(dir.file(0, "sites")), sizeof(FileHeader) + 3 * sizeof(CallSite));
  EXPECT_EQ(fs::file_size(dir.file(0, "allocs")), sizeof(FileHeader) + 2 * sizeof(AllocRecord));
  EXPECT_EQ(read_allocs(dir.path(), 0).size(), 2u);
  EXPECT_FALSE(fs::exists(dir.file(0, "events.tmp")));
  expect_same_trace(read_rank(dir.path(), 0), before0);
  expect_same_trace(read_rank(dir.path(), 1), before1);

  // Packed files are left alone: a second pass does nothing.
  LeftoverPacking again = pack_leftover_files(dir.path());
  EXPECT_EQ(again.ranks_packed, 0);
  EXPECT_TRUE(again.kept_raw.empty());
  expect_same_trace(read_rank(dir.path(), 0), before0);
}

TEST(TracePackLeftovers, ARecordOutOfSequenceLeavesTheFileRawWithItsWarning) {
  TempRunDir dir;
  killed_rank(dir.path(), 0, 100);
  {
    std::fstream f(dir.file(0, "events"), std::ios::binary | std::ios::in | std::ios::out);
    const std::uint64_t bad_seq = 999;
    f.seekp(static_cast<std::streamoff>(sizeof(FileHeader) + 60 * sizeof(Event) + offsetof(Event, seq)));
    f.write(reinterpret_cast<const char*>(&bad_seq), sizeof bad_seq);
  }
  const auto size = fs::file_size(dir.file(0, "events"));
  LeftoverPacking p = pack_leftover_files(dir.path());
  EXPECT_EQ(p.ranks_packed, 0);
  ASSERT_EQ(p.kept_raw.size(), 1u);
  EXPECT_NE(p.kept_raw[0].find("0.events: record 60 is out of sequence"), std::string::npos) << p.kept_raw[0];
  EXPECT_EQ(fs::file_size(dir.file(0, "events")), size);
  EXPECT_FALSE(fs::exists(dir.file(0, "events.tmp")));
  RankTrace after = read_rank(dir.path(), 0);
  EXPECT_EQ(after.events.size(), 60u);
  ASSERT_FALSE(after.warnings.empty());
}

// SIGKILL at spread-out moments of the packing: every time, the rank reads
// back the same (whole raw or whole packed file, never a mix), and a later
// packing finishes the job over the stray temp file.
TEST(TracePackLeftovers, AKillDuringPackingLosesNothing) {
  TempRunDir dir;
  killed_rank(dir.path(), 0, 100'000);  // 12.8 MB raw: packing takes a while
  const RankTrace want = read_rank(dir.path(), 0);
  const fs::path copy = dir.path() / "raw-copy";
  fs::copy_file(dir.file(0, "events"), copy);
  const fs::path markov_copy = dir.path() / "markov-copy";
  fs::copy_file(dir.file(0, "markov"), markov_copy);
  auto timed_pack = [&] {
    auto t0 = std::chrono::steady_clock::now();
    pack_leftover_files(dir.path());
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  };
  const long full_us = std::max<long>(1000, timed_pack());
  int killed_mid_way = 0;
  for (int trial = 0; trial < 12; ++trial) {
    fs::copy_file(copy, dir.file(0, "events"), fs::copy_options::overwrite_existing);
    fs::copy_file(markov_copy, dir.file(0, "markov"), fs::copy_options::overwrite_existing);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      pack_leftover_files(dir.path());
      ::_exit(0);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(full_us * trial / 10));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) ++killed_mid_way;
    expect_same_trace(read_rank(dir.path(), 0), want);
    LeftoverPacking p = pack_leftover_files(dir.path());
    EXPECT_TRUE(p.kept_raw.empty());
    expect_same_trace(read_rank(dir.path(), 0), want);
    EXPECT_FALSE(fs::exists(dir.file(0, "events.tmp")));
  }
  EXPECT_GT(killed_mid_way, 0) << "no kill landed before the packing ended";
}

}  // namespace
}  // namespace scalefuzz::trace
