// Reader tests over real files produced by write_rank().
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

using testing::RankBuilder;
using testing::TempRunDir;
using testing::has_warning;

RankTrace sample_rank(int rank, int world) {
  RankBuilder b(rank, world);
  b.add(OpClass::Init);
  b.isend((rank + 1) % world, 3, 11);
  b.irecv(kAnySource, kAnyTag, 12);
  b.add(OpClass::Completion, kNoPeer, kNoTag, 0, 0, 0);
  b.done(11);
  b.done(12, (rank + world - 1) % world, 3);
  b.add(OpClass::Collective, kNoPeer, kNoTag, 0, 0, 64).root = 0;
  b.add(OpClass::Finalize);
  RankTrace rt = b.rt;
  for (std::uint32_t id = 0; id < 3; ++id) {
    CallSiteInfo s;
    s.id = id;
    s.stable_hash = 0x1234'0000ull + id;
    s.op = static_cast<std::uint16_t>(7 + id);
    for (std::uint32_t f = 0; f <= id; ++f) s.frames.push_back(0x400000 + 0x10 * f + id);
    rt.sites.push_back(s);
    rt.features.push_back({id + 1ull, 100ull * id, 50ull * id});
  }
  rt.markov.edges = {{kMarkovStart, 0, 1, 10}, {0, 1, 5, 2000}, {1, 2, 4, 300}, {2, 1, 3, 40}};
  LiveState live{};
  live.version = 42;
  live.current_seq = rt.events.size();
  live.op = 9;
  live.in_call = 0;
  live.finalized = 1;
  live.calls = 8;
  live.npending = 1;
  live.pending[0] = PendingRequest{12, static_cast<std::uint8_t>(OpClass::Irecv), {}, kAnySource, kAnyTag, 0, 1, 0};
  rt.live = live;
  return rt;
}

void append_bytes(const std::filesystem::path& file, const void* data, std::size_t n) {
  std::ofstream out(file, std::ios::binary | std::ios::app);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

TEST(TraceReader, RoundTripAllFiles) {
  TempRunDir dir;
  RankTrace in = sample_rank(1, 3);
  write_rank(dir.path(), in, "run-42");
  RankTrace out = read_rank(dir.path(), 1);

  EXPECT_TRUE(out.warnings.empty()) << out.warnings.front();
  EXPECT_EQ(out.rank, 1);
  EXPECT_EQ(out.world_size, 3);
  EXPECT_EQ(out.pid, in.pid);
  EXPECT_EQ(out.start_ns, in.start_ns);
  ASSERT_EQ(out.events.size(), in.events.size());
  EXPECT_EQ(0, std::memcmp(out.events.data(), in.events.data(), in.events.size() * sizeof(Event)));
  EXPECT_FALSE(out.last_event_in_progress);
  ASSERT_EQ(out.sites.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out.sites[i].id, in.sites[i].id);
    EXPECT_EQ(out.sites[i].stable_hash, in.sites[i].stable_hash);
    EXPECT_EQ(out.sites[i].op, in.sites[i].op);
    EXPECT_EQ(out.sites[i].frames, in.sites[i].frames);
  }
  ASSERT_EQ(out.features.size(), 3u);
  EXPECT_EQ(out.features[2].calls, 3u);
  EXPECT_EQ(out.features[2].bytes_sent, 200u);
  EXPECT_EQ(out.features[2].bytes_received, 100u);
  ASSERT_EQ(out.markov.edges.size(), 4u);  // sorted by (from, to); kMarkovStart sorts last
  EXPECT_EQ(out.markov.edges[0].from, 0u);
  EXPECT_EQ(out.markov.edges[0].to, 1u);
  EXPECT_EQ(out.markov.edges[0].count, 5u);
  EXPECT_EQ(out.markov.edges[0].total_ns, 2000u);
  EXPECT_EQ(out.markov.edges[3].from, kMarkovStart);
  ASSERT_TRUE(out.live.has_value());
  EXPECT_EQ(out.live->version, 42u);
  EXPECT_EQ(out.live->finalized, 1);
  EXPECT_EQ(out.live->npending, 1u);
  EXPECT_EQ(out.live->pending[0].request, 12u);
  EXPECT_EQ(out.live->pending[0].peer, kAnySource);
}

TEST(TraceReader, ReadRunCollectsRanksAndRunId) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 3), "run-7");
  write_rank(dir.path(), sample_rank(2, 3), "run-7");
  RunTrace run = read_run(dir.path());
  EXPECT_EQ(run.run_id, "run-7");
  ASSERT_EQ(run.ranks.size(), 3u);
  EXPECT_EQ(run.ranks[0].rank, 0);
  EXPECT_EQ(run.ranks[1].rank, -1);  // no files for rank 1
  EXPECT_EQ(run.ranks[2].rank, 2);
  EXPECT_EQ(run.ranks[2].events.size(), 8u);
}

// Issue 37: a production code creates a datatype for most transfers; the
// reader indexes ranks/N.types so find_type is a hash lookup (it was a scan
// of every line: quadratic analysis), later lines still winning.
TEST(TraceReader, DatatypesAreIndexedAndLaterLinesWin) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 1), "run-t");
  {
    std::ofstream types(dir.path() / "ranks" / "0.types");
    types << "4c000405 4 4 0 1 1 MPI_INT 1 1 4c000405:1\n";
    for (int k = 1; k <= 20000; ++k) types << std::hex << k << std::dec << " 8 8 0 1 0 - " << k << " 1 4c000405:2\n";
    types << "7 16 16 0 1 0 again 99 1 4c000405:4\n";  // key 7 described again: this line wins
  }
  RankTrace rt = read_rank(dir.path(), 0);
  ASSERT_EQ(rt.types.size(), 20002u);
  EXPECT_EQ(rt.types_indexed, rt.types.size());
  EXPECT_EQ(rt.type_index.size(), 20001u);
  ASSERT_NE(find_type(rt, 0x4c000405), nullptr);
  EXPECT_EQ(find_type(rt, 0x4c000405)->name, "MPI_INT");
  ASSERT_NE(find_type(rt, 7), nullptr);
  EXPECT_EQ(find_type(rt, 7)->name, "again");
  EXPECT_EQ(find_type(rt, 20000)->size, 8);
  EXPECT_EQ(find_type(rt, 20001), nullptr);
  // Lines added by hand after reading are not in the index: found by a scan.
  TypeEntry extra;
  extra.key = 0xabcdef;
  extra.name = "extra";
  rt.types.push_back(extra);
  ASSERT_NE(find_type(rt, 0xabcdef), nullptr);
  EXPECT_EQ(find_type(rt, 0xabcdef)->name, "extra");
  index_types(rt);
  EXPECT_EQ(rt.type_index.at(0xabcdef), rt.types.size() - 1);
}

TEST(TraceReader, PreallocatedZeroTailIsNormal) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  write_rank(dir.path(), in, "", Encoding::Raw);  // as a running or killed rank leaves it
  std::vector<unsigned char> zeros(10 * sizeof(Event) + 32, 0);  // chunked preallocation, not record-aligned
  append_bytes(dir.file(0, "events"), zeros.data(), zeros.size());
  std::vector<unsigned char> site_zeros(5 * sizeof(CallSite), 0);
  append_bytes(dir.file(0, "sites"), site_zeros.data(), site_zeros.size());
  std::vector<unsigned char> feat_zeros(7 * sizeof(SiteFeature), 0);
  append_bytes(dir.file(0, "features"), feat_zeros.data(), feat_zeros.size());

  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_TRUE(out.warnings.empty()) << out.warnings.front();
  EXPECT_EQ(out.events.size(), in.events.size());
  EXPECT_EQ(out.sites.size(), 3u);
  EXPECT_EQ(out.features.size(), 3u);  // trimmed to the call-site table
}

TEST(TraceReader, PartialLastRecordIsIgnoredWithWarning) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  write_rank(dir.path(), in, "", Encoding::Raw);  // as a running or killed rank leaves it
  Event next = in.events.back();
  next.seq = in.events.size() + 1;
  append_bytes(dir.file(0, "events"), &next, 40);  // cut in the middle
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), in.events.size());
  EXPECT_TRUE(has_warning(out, "40 trailing bytes")) << ::testing::PrintToString(out.warnings);
}

TEST(TraceReader, RecordBeingWrittenWithoutSeqIsNotAnEvent) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  write_rank(dir.path(), in, "", Encoding::Raw);  // as a running or killed rank leaves it
  Event next = in.events.back();
  next.seq = 0;  // fields stored, seq (stored last) not yet
  append_bytes(dir.file(0, "events"), &next, sizeof next);
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), in.events.size());
  EXPECT_TRUE(out.warnings.empty());
}

TEST(TraceReader, OutOfSequenceRecordCutsTheTrace) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  in.events[4].seq = 99;
  write_rank(dir.path(), in, "", Encoding::Raw);  // as a running or killed rank leaves it
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), 4u);
  EXPECT_TRUE(has_warning(out, "seq 99, expected 5"));
}

TEST(TraceReader, InProgressLastRecordIsKept) {
  TempRunDir dir;
  RankBuilder b(0, 2);
  b.add(OpClass::Init);
  b.send(1, 0);
  b.recv(1, 0, kNoPeer, kNoTag);
  b.rt.events.back().t_exit_ns = 0;  // hung in MPI_Recv
  write_rank(dir.path(), b.rt);
  RankTrace out = read_rank(dir.path(), 0);
  ASSERT_EQ(out.events.size(), 3u);
  EXPECT_EQ(out.events[2].t_exit_ns, 0u);
  EXPECT_TRUE(out.last_event_in_progress);
  EXPECT_FALSE(has_warning(out, "events")) << ::testing::PrintToString(out.warnings);
}

TEST(TraceReader, InProgressParentWithChildrenCounts) {
  TempRunDir dir;
  RankBuilder b(0, 2);
  b.irecv(1, 0, 5);
  b.add(OpClass::Completion, kNoPeer, kNoTag, 0, 0, 0).t_exit_ns = 0;  // Waitall stored children, not its exit
  b.done(5, 1, 0);
  write_rank(dir.path(), b.rt);
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), 3u);
  EXPECT_TRUE(out.last_event_in_progress);
}

TEST(TraceReader, CompletedTraceIsNotInProgress) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  EXPECT_FALSE(read_rank(dir.path(), 0).last_event_in_progress);
}

TEST(TraceReader, WrongVersionIsRejectedNamingTheFile) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  testing::set_header_version(dir.file(0, "events"), kFormatVersion + 1);
  std::string what = testing::read_rank_error(dir.path(), 0);
  EXPECT_NE(what.find(dir.file(0, "events").string()), std::string::npos) << what;
  EXPECT_NE(what.find("version"), std::string::npos) << what;
}

TEST(TraceReader, WrongKindIsRejected) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  std::filesystem::copy_file(dir.file(0, "sites"), dir.file(0, "markov"),
                             std::filesystem::copy_options::overwrite_existing);
  std::string what = testing::read_rank_error(dir.path(), 0);
  EXPECT_NE(what.find("0.markov"), std::string::npos) << what;
  EXPECT_NE(what.find("wrong file kind"), std::string::npos) << what;
}

TEST(TraceReader, HeaderForAnotherRankIsRejected) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(1, 2));
  std::filesystem::create_directories(dir.path() / "ranks");
  std::filesystem::rename(dir.file(1, "events"), dir.file(0, "events"));
  EXPECT_THROW(read_rank(dir.path(), 0), TraceError);
}

TEST(TraceReader, MissingOptionalFilesAreWarnings) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  for (const char* ext : {"sites", "features", "markov", "live"}) std::filesystem::remove(dir.file(0, ext));
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.events.size(), 8u);
  EXPECT_TRUE(out.sites.empty());
  EXPECT_TRUE(out.markov.edges.empty());
  EXPECT_FALSE(out.live.has_value());
  EXPECT_EQ(out.warnings.size(), 4u);
  EXPECT_TRUE(has_warning(out, "live: file missing"));
}

TEST(TraceReader, MissingEventsFileIsAnError) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  write_rank(dir.path(), sample_rank(1, 2));
  std::filesystem::remove(dir.file(1, "events"));
  EXPECT_THROW(read_rank(dir.path(), 1), TraceError);
  EXPECT_THROW(read_run(dir.path()), TraceError);
}

TEST(TraceReader, MissingRanksDirectoryIsAnError) {
  TempRunDir dir;
  EXPECT_THROW(read_run(dir.path()), TraceError);
}

TEST(TraceReader, UnwrittenHeaderMeansNoData) {
  TempRunDir dir;
  write_rank(dir.path(), sample_rank(0, 2));
  std::vector<unsigned char> zeros(4096, 0);  // created and preallocated, killed before the header store
  std::ofstream(dir.file(0, "events"), std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(zeros.data()), static_cast<std::streamsize>(zeros.size()));
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_TRUE(out.events.empty());
  EXPECT_TRUE(has_warning(out, "events: header never written"));
  EXPECT_EQ(out.world_size, 2);  // taken from the other files
}

TEST(TraceReader, CorruptSiteSlotCutsTable) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  write_rank(dir.path(), in);
  CallSite bad{};
  bad.id = 3;
  bad.nframes = kMaxFrames + 1;
  bad.stable_hash = 1;
  append_bytes(dir.file(0, "sites"), &bad, sizeof bad);
  RankTrace out = read_rank(dir.path(), 0);
  EXPECT_EQ(out.sites.size(), 3u);
  EXPECT_TRUE(has_warning(out, "sites: slot 3 is corrupt"));
}

TEST(TraceReader, MarkovTableWithEmptySlots) {
  TempRunDir dir;
  RankTrace in = sample_rank(0, 2);
  in.markov.edges.clear();
  for (std::uint32_t i = 0; i < 5; ++i) in.markov.edges.push_back({i, i + 1, 10ull + i, 100ull * i});
  write_rank(dir.path(), in, "", Encoding::Raw);  // as a running or killed rank leaves it
  auto size = std::filesystem::file_size(dir.file(0, "markov"));
  std::size_t slots = (size - sizeof(FileHeader)) / sizeof(MarkovEdge);
  EXPECT_GE(slots, 10u);  // the table has more slots than edges

  RankTrace out = read_rank(dir.path(), 0);
  ASSERT_EQ(out.markov.edges.size(), 5u);
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(out.markov.edges[i].from, i);
    EXPECT_EQ(out.markov.edges[i].to, i + 1);
    EXPECT_EQ(out.markov.edges[i].count, 10ull + i);
    EXPECT_EQ(out.markov.edges[i].total_ns, 100ull * i);
  }
}

TEST(TraceHeader, ValidationReasons) {
  FileHeader h = make_header(FileKind::Events, 1, 4, sizeof(Event), 5, 6, "abc");
  EXPECT_EQ(header_problem(h, FileKind::Events), nullptr);
  EXPECT_STREQ(h.run_id, "abc");
  EXPECT_NE(header_problem(h, FileKind::Markov), nullptr);
  FileHeader bad = h;
  bad.record_size = 95;
  EXPECT_STREQ(header_problem(bad, FileKind::Events), "record size mismatch");
  bad = h;
  bad.magic[0] = 'X';
  EXPECT_NE(header_problem(bad, FileKind::Events), nullptr);
  std::string long_id(100, 'r');
  FileHeader l = make_header(FileKind::Live, 0, 1, sizeof(LiveState), 0, 0, long_id.c_str());
  EXPECT_EQ(std::strlen(l.run_id), 63u);
}

}  // namespace
}  // namespace scalefuzz::trace
