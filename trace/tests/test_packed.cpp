// Format 3 packed events files: bit-exact round trips, size, damaged files,
// and the older format still read.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/decision_log.hpp"
#include "scalefuzz/trace/packed.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

using testing::read_rank_error;
using testing::set_header_version;
using testing::TempRunDir;

bool has_warning(const RankTrace& rt, const std::string& needle) {
  for (const auto& w : rt.warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

RankTrace with_events(std::vector<Event> events) {
  RankTrace rt;
  rt.rank = 0;
  rt.world_size = 4;
  rt.pid = 77;
  rt.start_ns = 1'700'000'000'000'000'000ull;
  rt.events = std::move(events);
  return rt;
}

// Every byte of every field random (timestamps too, so deltas are negative
// and huge): the encoding must round-trip anything a writer stores.
std::vector<Event> random_events(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Event> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto* bytes = reinterpret_cast<unsigned char*>(&out[i]);
    for (std::size_t b = 0; b < sizeof(Event); ++b) bytes[b] = static_cast<unsigned char>(rng());
    out[i].seq = i + 1;
    out[i].callsite = static_cast<std::uint32_t>(rng() % 5);   // contexts get reused
    if (i % 7 == 0) out[i].t_exit_ns = 0;                      // in progress
    if (i % 11 == 0) out[i].callsite = 0xFFFFFFFFu;            // site table full
  }
  return out;
}

// A halo exchange as the injector records it: per iteration 2 Irecv, 2 Isend,
// a Waitall with 4 RequestDone children; an Allreduce every 10 iterations.
std::vector<Event> stencil_like(std::size_t iterations) {
  std::vector<Event> out;
  std::uint64_t t = 1'700'000'000'000'000'000ull, req = 0;
  auto add = [&](OpClass cls, std::uint32_t site, std::int32_t peer, std::uint64_t dur) -> Event& {
    Event e{};
    e.seq = out.size() + 1;
    e.op_class = static_cast<std::uint8_t>(cls);
    e.op = static_cast<std::uint16_t>(site + 10);
    e.callsite = site;
    e.peer = peer;
    e.tag = 7;
    e.root = kNoPeer;
    e.status_source = kNoPeer;
    e.status_tag = kNoTag;
    e.count = 4096;
    e.bytes = 32768;
    e.buffer = 0x7f00'1234'5000ull + site * 0x8000;
    e.dtype = 11;
    e.scount_arg = 4096;
    t += 800 + (out.size() * 37) % 400;
    e.t_enter_ns = t;
    t += dur + (out.size() * 13) % 100;
    e.t_exit_ns = t;
    out.push_back(e);
    return out.back();
  };
  for (std::size_t it = 0; it < iterations; ++it) {
    std::uint64_t first = req + 1;
    add(OpClass::Irecv, 0, 1, 300).request = ++req;
    add(OpClass::Irecv, 1, 3, 300).request = ++req;
    add(OpClass::Isend, 2, 1, 500).request = ++req;
    add(OpClass::Isend, 3, 3, 500).request = ++req;
    add(OpClass::Completion, 4, kNoPeer, 20000).count = 4;
    for (std::uint64_t r = first; r <= req; ++r) {
      Event& d = add(OpClass::RequestDone, 4, kNoPeer, 0);
      d.request = r;
      d.flags = kFlagChild;
      d.status_source = r - first < 2 ? static_cast<std::int32_t>(1 + 2 * (r - first)) : kNoPeer;
      d.status_tag = 7;
      d.status_bytes = 32768;
    }
    if (it % 10 == 9) {
      Event& a = add(OpClass::Collective, 5, kNoPeer, 5000);
      a.count = 1;
      a.bytes = 8;
      a.reduce_op = static_cast<std::uint8_t>(ReduceOp::Max);
    }
  }
  return out;
}

void expect_same_events(const std::vector<Event>& got, const std::vector<Event>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(Event))) << "event " << i;
}

TEST(TracePacked, RandomRecordsRoundTripBitExactAcrossBlocks) {
  TempRunDir dir;
  RankTrace in = with_events(random_events(2 * packed::kBlockEvents + 123, 5));
  write_rank(dir.path(), in, "run-p");
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_FALSE(has_warning(out, "packed")) << ::testing::PrintToString(out.warnings);
  expect_same_events(out.events, in.events);
  EXPECT_EQ(out.pid, 77);
  EXPECT_EQ(out.start_ns, in.start_ns);
}

// Format 4 only added ranks/N.decisions: a format 3 run (no decision log)
// reads as before.
TEST(TracePacked, Format3RunsAreStillRead) {
  TempRunDir dir;
  const RankTrace rt = with_events(stencil_like(4));
  write_rank(dir.path(), rt);
  set_header_version(dir.file(0, "events"), 3);
  const RankTrace back = read_rank(dir.path(), 0);
  EXPECT_EQ(back.events.size(), rt.events.size());
  EXPECT_TRUE(read_decision_logs(dir.path()).empty());
}

TEST(TracePacked, HeaderSaysPackedFormat3) {
  TempRunDir dir;
  write_rank(dir.path(), with_events(stencil_like(3)));
  std::ifstream f(dir.file(0, "events"), std::ios::binary);
  FileHeader h{};
  f.read(reinterpret_cast<char*>(&h), sizeof h);
  EXPECT_EQ(h.version, kFormatVersion);  // packed since 3; format 4 only added the decision log
  EXPECT_EQ(h.kind, static_cast<std::uint32_t>(FileKind::PackedEvents));
  EXPECT_EQ(header_problem(h, FileKind::PackedEvents), nullptr);
}

TEST(TracePacked, StencilLikeTraceTakesFewBytesPerEvent) {
  TempRunDir dir;
  RankTrace in = with_events(stencil_like(2000));
  write_rank(dir.path(), in);
  auto bytes = std::filesystem::file_size(dir.file(0, "events")) - sizeof(FileHeader);
  double per_event = static_cast<double>(bytes) / static_cast<double>(in.events.size());
  std::printf("stencil-like: %zu events, %.2f bytes per event packed (raw %zu)\n", in.events.size(), per_event,
              sizeof(Event));
  EXPECT_LE(per_event, 24.0);
  expect_same_events(read_rank(dir.path(), 0).events, in.events);
}

TEST(TracePacked, DamagedBlockCutsTheTraceWithAWarning) {
  TempRunDir dir;
  RankTrace in = with_events(stencil_like(3000));  // > 2 blocks
  ASSERT_GT(in.events.size(), 2 * packed::kBlockEvents);
  write_rank(dir.path(), in);
  // Find the second block and flip a payload byte.
  std::fstream f(dir.file(0, "events"), std::ios::binary | std::ios::in | std::ios::out);
  packed::BlockHeader b{};
  f.seekg(sizeof(FileHeader));
  f.read(reinterpret_cast<char*>(&b), sizeof b);
  std::streamoff second = static_cast<std::streamoff>(sizeof(FileHeader) + sizeof b + b.payload_bytes);
  f.seekg(second + static_cast<std::streamoff>(sizeof b) + 5);
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x40);
  f.seekp(second + static_cast<std::streamoff>(sizeof b) + 5);
  f.write(&c, 1);
  f.close();
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), packed::kBlockEvents);
  EXPECT_TRUE(has_warning(out, "packed block 1")) << ::testing::PrintToString(out.warnings);
  EXPECT_TRUE(has_warning(out, "checksum")) << ::testing::PrintToString(out.warnings);
}

TEST(TracePacked, CutFileKeepsTheWholeBlocksBeforeTheCut) {
  TempRunDir dir;
  RankTrace in = with_events(stencil_like(2000));
  write_rank(dir.path(), in);
  auto size = std::filesystem::file_size(dir.file(0, "events"));
  std::filesystem::resize_file(dir.file(0, "events"), size - 10);
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size() % packed::kBlockEvents, 0u);
  EXPECT_GT(out.events.size(), 0u);
  EXPECT_TRUE(has_warning(out, "payload cut")) << ::testing::PrintToString(out.warnings);
  in.events.resize(out.events.size());
  expect_same_events(out.events, in.events);
}

TEST(TracePacked, MalformedPayloadsAreRefusedNotOverread) {
  // Garbage payloads of every small length: decode_block must fail cleanly.
  std::mt19937 rng(3);
  packed::ContextTable context;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<unsigned char> p(static_cast<std::size_t>(rng() % 64));
    for (auto& c : p) c = static_cast<unsigned char>(rng());
    std::vector<Event> out;
    const char* why = packed::decode_block(p.data(), p.size(), 1 + rng() % 4, 1, out, context);
    if (why == nullptr) {
      EXPECT_FALSE(out.empty());
    }
  }
}

TEST(TracePacked, Format2RawFilesAreStillRead) {
  TempRunDir dir;
  RankTrace in = with_events(stencil_like(5));
  write_rank(dir.path(), in, "", Encoding::Raw);
  for (const char* ext : {"events", "sites", "features", "markov"}) set_header_version(dir.file(0, ext), 2);
  RankTrace out = read_rank(dir.path(), 0);
  expect_same_events(out.events, in.events);
}

TEST(TracePacked, Format1IsRefusedNamingBothVersions) {
  TempRunDir dir;
  write_rank(dir.path(), with_events(stencil_like(5)), "", Encoding::Raw);
  set_header_version(dir.file(0, "events"), 1);
  std::string what = read_rank_error(dir.path(), 0);
  EXPECT_NE(what.find("0.events"), std::string::npos) << what;
  EXPECT_NE(what.find("file version 1, this reader reads versions 2 to 4"), std::string::npos) << what;
}

TEST(TracePacked, MarkovOfAFinishedRankIsDense) {
  TempRunDir dir;
  RankTrace in = with_events(stencil_like(2));
  for (std::uint32_t i = 0; i < 5; ++i) in.markov.edges.push_back({i, i + 1, 10ull + i, 100ull * i});
  write_rank(dir.path(), in);
  EXPECT_EQ(std::filesystem::file_size(dir.file(0, "markov")), sizeof(FileHeader) + 5 * sizeof(MarkovEdge));
  EXPECT_EQ(read_rank(dir.path(), 0).markov.edges.size(), 5u);
}

}  // namespace
}  // namespace scalefuzz::trace
