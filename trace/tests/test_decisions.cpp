// Decision logs (format 4): the typed writer and reader agree entry for
// entry; a cut or zero tail reads as a truncated log that keeps its complete
// entries; a format 3 run has no logs; bad headers are refused naming the file.
#include <gtest/gtest.h>

#include <fstream>

#include "scalefuzz/trace/decision_log.hpp"
#include "scalefuzz/trace/header.hpp"
#include "trace_test_util.hpp"

namespace fs = std::filesystem;
using namespace scalefuzz::trace;
using scalefuzz::trace::testing::TempRunDir;

namespace {

Decision match(std::uint64_t call, std::uint64_t ordinal, int source, int tag = kNoDecisionTag) {
  Decision d;
  d.kind = DecisionKind::Match;
  d.call = call;
  d.ordinal = ordinal;
  d.source = source;
  d.tag = tag;
  return d;
}
Decision of(DecisionKind k, std::uint64_t call, std::uint64_t failures = 0) {
  Decision d;
  d.kind = k;
  d.call = call;
  d.failures = failures;
  return d;
}

DecisionLog sample() {
  DecisionLog log;
  log.rank = 1;
  log.world_size = 4;
  log.run_id = "run-7";
  log.build_id = {0xde, 0xad, 0xbe, 0xef};
  log.decisions.push_back(match(3, 1, 2));
  log.decisions.push_back(match(5, 2, 0, 17));           // MPI_ANY_TAG: the tag too
  log.decisions.push_back(match(9, 5, 3));               // a later post completed first
  log.decisions.push_back(match(9, 3, 200));             // a source beyond the short form
  log.decisions.push_back(match(11, 4, kNoMessage));     // cancelled
  log.decisions.push_back(of(DecisionKind::Poll, 40, 25));
  log.decisions.push_back(of(DecisionKind::Poll, 41));
  Decision idx = of(DecisionKind::Index, 50, 2);
  idx.index = 3;
  log.decisions.push_back(idx);
  Decision some = of(DecisionKind::Some, 60);
  some.indices = {0, 2, 5};
  log.decisions.push_back(some);
  log.decisions.push_back(of(DecisionKind::Fails, 70, 9));
  log.decisions.push_back(of(DecisionKind::End, 70));
  return log;
}

TEST(TraceDecisions, WrittenLogReadsBackEntryForEntry) {
  TempRunDir dir;
  const fs::path f = decision_log_file(dir.path(), 1);
  fs::create_directories(f.parent_path());
  const DecisionLog log = sample();
  write_decision_log(f, log);
  const DecisionLog back = read_decision_log(f);
  EXPECT_EQ(back.decisions, log.decisions);
  EXPECT_EQ(back.rank, 1);
  EXPECT_EQ(back.world_size, 4);
  EXPECT_EQ(back.run_id, "run-7");
  EXPECT_EQ(build_id_hex(back.build_id), "deadbeef");
  EXPECT_FALSE(back.truncated);
  EXPECT_TRUE(back.warnings.empty());
  EXPECT_NE(back.flags & kDecisionsWrittenByTool, 0u);
  // 5 matches; polls 25 + 1 and 1; the Index 2 + 1; the Some 1; 9 fails.
  EXPECT_EQ(back.decision_count(), 5u + 26u + 1u + 3u + 1u + 9u);
}

TEST(TraceDecisions, LoopMatchesTakeOneByteOthersTwo) {
  TempRunDir dir;
  const fs::path f = dir.path() / "0.decisions";
  DecisionLog log;
  log.rank = 0;
  log.world_size = 8;
  // A loop: a wildcard match every 2 calls; the first states the delta (2
  // bytes), the other 99 repeat it (1 byte each).
  for (std::uint64_t i = 1; i <= 100; ++i) log.decisions.push_back(match(2 * i, i, static_cast<int>(i % 7)));
  write_decision_log(f, log);
  DecisionLog back = read_decision_log(f);
  EXPECT_EQ(back.decisions, log.decisions);
  EXPECT_EQ(back.stream_bytes, 2u + 99u);
  EXPECT_TRUE(back.truncated);  // no End: a rank that never finalized
  // Deltas that change every time (1, 2, 1, 2, ...): 2 bytes each.
  log.decisions.clear();
  for (std::uint64_t i = 1, call = 0; i <= 100; ++i) log.decisions.push_back(match(call += 1 + i % 2, i, 3));
  write_decision_log(f, log);
  back = read_decision_log(f);
  EXPECT_EQ(back.decisions, log.decisions);
  EXPECT_EQ(back.stream_bytes, 200u);
  // Sources beyond the repeat byte's range (120..126) take the two-byte form.
  log.decisions.clear();
  for (std::uint64_t i = 1; i <= 10; ++i) log.decisions.push_back(match(3 * i, i, 120));
  log.world_size = 200;
  write_decision_log(f, log);
  back = read_decision_log(f);
  EXPECT_EQ(back.decisions, log.decisions);
  EXPECT_EQ(back.stream_bytes, 20u);
}

TEST(TraceDecisions, CutAndZeroTailsKeepTheCompleteEntries) {
  TempRunDir dir;
  const fs::path f = dir.path() / "1.decisions";
  DecisionLog log = sample();
  write_decision_log(f, log);
  const auto full = fs::file_size(f);
  // Zero tail (the mapped file's unwritten capacity).
  {
    std::ofstream out(f, std::ios::app | std::ios::binary);
    const std::string zeros(4096, '\0');
    out << zeros;
  }
  EXPECT_EQ(read_decision_log(f).decisions, log.decisions);
  // Cut inside the Some entry: everything before it stays.
  fs::resize_file(f, full - 6);
  const DecisionLog cut = read_decision_log(f);
  ASSERT_EQ(cut.decisions.size(), 8u);
  EXPECT_EQ(cut.decisions.back(), log.decisions[7]);
  EXPECT_TRUE(cut.truncated);
  ASSERT_FALSE(cut.warnings.empty());
  EXPECT_NE(cut.warnings[0].find("cut"), std::string::npos);
}

TEST(TraceDecisions, ForceMatchReplacesOneSourceAndEndsFree) {
  const DecisionLog log = sample();
  const DecisionLog forced = force_match(log, 2, 1);
  ASSERT_EQ(forced.decisions.size(), 4u);
  EXPECT_EQ(forced.decisions[2].source, 1);
  EXPECT_EQ(forced.decisions[2].ordinal, 5u);
  EXPECT_EQ(forced.decisions[0], log.decisions[0]);
  EXPECT_EQ(forced.decisions[3].kind, DecisionKind::Free);
  EXPECT_EQ(forced.decisions[3].call, 9u);
  EXPECT_THROW(force_match(log, 5, 1), std::invalid_argument);  // a Poll
  TempRunDir dir;
  const fs::path f = dir.path() / "1.decisions";
  write_decision_log(f, forced);
  const DecisionLog back = read_decision_log(f);
  EXPECT_EQ(back.decisions, forced.decisions);
  EXPECT_FALSE(back.truncated);
}

TEST(TraceDecisions, RunsWithoutLogsAndBadLogs) {
  TempRunDir dir;
  EXPECT_TRUE(read_decision_logs(dir.path()).empty());  // a format 3 run
  fs::create_directories(dir.path() / "ranks");
  DecisionLog log = sample();
  log.rank = 0;
  write_decision_log(decision_log_file(dir.path(), 0), log);
  EXPECT_THROW(read_decision_logs(dir.path()), TraceError);  // ranks 1..3 missing
  // Another file kind under the name.
  FileHeader h = make_header(FileKind::Events, 0, 4, sizeof(Event), 0, 0, "x");
  {
    std::ofstream out(decision_log_file(dir.path(), 0), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
  }
  try {
    read_decision_log(decision_log_file(dir.path(), 0));
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("0.decisions"), std::string::npos) << e.what();
  }
}

TEST(TraceDecisions, MismatchNamesRankCountAndBinary) {
  std::vector<DecisionLog> logs(4, sample());
  for (int r = 0; r < 4; ++r) logs[r].rank = r;
  EXPECT_EQ(replay_mismatch(logs, 4, "deadbeef"), "");
  EXPECT_EQ(replay_mismatch(logs, 4, ""), "");
  EXPECT_NE(replay_mismatch(logs, 3, "deadbeef").find("4 ranks"), std::string::npos);
  EXPECT_NE(replay_mismatch(logs, 4, "cafe").find("another binary"), std::string::npos);
}

}  // namespace
