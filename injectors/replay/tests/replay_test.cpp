// Decision logs and replay under real mpiexec: a recorded run's logs hold its
// wildcard matches, polls and indices; a replay that enforces them prints
// what the recorded run printed and logs the same decisions; a timing branch
// is reported as a divergence at the recorded call; logs of another rank
// count are refused; a cut log replays to its end and says so.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "run_helpers.hpp"
#include "scalefuzz/trace/decision_log.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace fs = std::filesystem;
using namespace scalefuzz::trace;
using namespace scalefuzz::inject::testing;
using namespace std::chrono_literals;

namespace {

// `replay_programs args` on `n` ranks, recorded into a fresh directory;
// enforcing the logs in `replay_dir` when given.
Result run(const std::string& name, int n, const std::vector<std::string>& args, const fs::path& replay_dir = {},
           std::vector<std::string> env = {}) {
  const fs::path dir = fresh_dir(name);
  std::vector<std::string> program{SCALEFUZZ_REPLAY_PROGRAMS};
  program.insert(program.end(), args.begin(), args.end());
  Launch l = recording_launch(dir, n, program, 120);
  l.env.insert(l.env.end(), env.begin(), env.end());
  if (!replay_dir.empty()) l.env.push_back("SCALEFUZZ_REPLAY_DIR=" + replay_dir.string());
  return run_launch(std::move(l), dir, 180s);
}

std::string replay_note(const Result& r, int rank) {
  std::ifstream in(r.dir / "ranks" / (std::to_string(rank) + ".replay"));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const DecisionLog& log, DecisionKind k) {
  std::size_t n = 0;
  for (const Decision& d : log.decisions) n += d.kind == k;
  return n;
}

// Decisions without their call numbers' absolute values? No: a replay makes
// the same calls, so the logs must be equal entry for entry.
void expect_same_decisions(const std::vector<DecisionLog>& a, const std::vector<DecisionLog>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t r = 0; r < a.size(); ++r) EXPECT_EQ(a[r].decisions, b[r].decisions) << "rank " << r;
}

constexpr int kRanks = 4;
constexpr int kPerSender = 8;
constexpr std::size_t kTotal = kPerSender * (kRanks - 1);

TEST(DecisionLog, RecordsEveryWildcardMatchPollAndIndex) {
  Result rec = run("record", kRanks, {"race", std::to_string(kPerSender)});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  std::vector<DecisionLog> logs = read_decision_logs(rec.dir);
  ASSERT_EQ(logs.size(), static_cast<std::size_t>(kRanks));
  const DecisionLog& l0 = logs[0];
  EXPECT_FALSE(l0.truncated);
  EXPECT_EQ(l0.decisions.back().kind, DecisionKind::End);
  // Blocking, Waitany, Iprobe and Testsome phases: every message a wildcard match.
  EXPECT_EQ(count(l0, DecisionKind::Match), 4 * kTotal);
  EXPECT_EQ(count(l0, DecisionKind::Index), kTotal);
  EXPECT_EQ(count(l0, DecisionKind::Poll), kTotal);  // successful Iprobes
  std::size_t some = 0;
  for (const Decision& d : l0.decisions) some += d.kind == DecisionKind::Some ? d.indices.size() : 0;
  EXPECT_EQ(some, kTotal);
  // The blocking phase named no tag (MPI_ANY_TAG): its matches carry the tag.
  EXPECT_NE(l0.decisions.front().tag, kNoDecisionTag);
  EXPECT_EQ(l0.world_size, kRanks);
  EXPECT_FALSE(l0.build_id.empty());
  EXPECT_EQ(build_id_hex(l0.build_id), gnu_build_id(SCALEFUZZ_REPLAY_PROGRAMS));
  for (int r = 1; r < kRanks; ++r) EXPECT_EQ(logs[r].decisions.size(), 1u) << "rank " << r << ": only End";
}

// A rank stopped at the entry of its 20th call after MPI_Init (stall
// injection) and killed by mpiexec's timeout keeps every decision it logged.
TEST(DecisionLog, KilledRankKeepsWhatItLogged) {
  Result rec = run("killed", kRanks, {"race", std::to_string(kPerSender)}, {},
                   {"SCALEFUZZ_STALL_RANK=0", "SCALEFUZZ_STALL_CALL=20", "MPIEXEC_TIMEOUT=5"});
  EXPECT_NE(rec.rc, 0);
  const DecisionLog l0 = read_decision_log(decision_log_file(rec.dir, 0));
  EXPECT_TRUE(l0.truncated);
  ASSERT_FALSE(l0.decisions.empty());
  // Calls 1 and 2 are MPI_Init and MPI_Comm_dup, 3..20 the 18 wildcard
  // receives before the stalled one.
  EXPECT_EQ(l0.decisions.size(), 18u);
  EXPECT_EQ(l0.decisions.back().call, 20u);
  for (const Decision& d : l0.decisions) EXPECT_EQ(d.kind, DecisionKind::Match);
}

TEST(Replay, EnforcedLogRepeatsTheRunExactly) {
  Result rec = run("record_for_replay", kRanks, {"race", std::to_string(kPerSender)});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  const std::vector<DecisionLog> recorded = read_decision_logs(rec.dir);
  for (int i = 0; i < 3; ++i) {
    Result rep = run("replay_" + std::to_string(i), kRanks, {"race", std::to_string(kPerSender)}, rec.dir / "ranks");
    ASSERT_EQ(rep.rc, 0) << rep.err;
    EXPECT_EQ(rep.out, rec.out) << "replay " << i;
    EXPECT_EQ(replay_note(rep, 0).rfind("complete", 0), 0u) << replay_note(rep, 0);
    expect_same_decisions(recorded, read_decision_logs(rep.dir));
  }
}

TEST(Replay, TimingBranchIsADivergenceAtTheRecordedCallNotAHang) {
  Result rec = run("wtime_record", 3, {"wtime"}, {}, {"REPLAY_TEST_SLEEP_US=0"});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  ASSERT_NE(rec.out.find("quick"), std::string::npos) << rec.out;
  const DecisionLog log = read_decision_log(decision_log_file(rec.dir, 0));
  ASSERT_EQ(log.decisions.front().kind, DecisionKind::Match);
  Result rep = run("wtime_replay", 3, {"wtime"}, rec.dir / "ranks", {"REPLAY_TEST_SLEEP_US=300000"});
  ASSERT_EQ(rep.rc, 0) << rep.err;
  EXPECT_NE(rep.out.find("slow"), std::string::npos) << rep.out;
  const std::string note = replay_note(rep, 0);
  EXPECT_EQ(note.rfind("diverged call=" + std::to_string(log.decisions.front().call) + " ", 0), 0u) << note;
  EXPECT_NE(note.find("got=MPI_Send"), std::string::npos) << note;
  EXPECT_NE(note.find("recorded=wildcard receive #1"), std::string::npos) << note;
}

TEST(Replay, LogsOfAnotherRankCountAreRefused) {
  Result rec = run("ranks_record", 3, {"wtime"});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  Result rep = run("ranks_replay", 2, {"wtime"}, rec.dir / "ranks");
  ASSERT_EQ(rep.rc, 0) << rep.err;
  EXPECT_EQ(replay_note(rep, 0).rfind("refused ", 0), 0u) << replay_note(rep, 0);
  EXPECT_NE(replay_note(rep, 0).find("recorded with 3 ranks"), std::string::npos);
}

TEST(Replay, CutLogReplaysToItsEndAndSaysSo) {
  Result rec = run("cut_record", kRanks, {"race", std::to_string(kPerSender)});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  const fs::path dir = fresh_dir("cut_logs");
  std::vector<DecisionLog> logs = read_decision_logs(rec.dir);
  logs[0].decisions.resize(kTotal / 2);  // a rank killed in the blocking phase
  for (const DecisionLog& l : logs) write_decision_log(replay_log_file(dir, l.rank), l);
  Result rep = run("cut_replay", kRanks, {"race", std::to_string(kPerSender)}, dir, {"SCALEFUZZ_REPLAY_CUT=free"});
  ASSERT_EQ(rep.rc, 0) << rep.err;
  const std::string note = replay_note(rep, 0);
  EXPECT_EQ(note.rfind("log-ended call=", 0), 0u) << note;
  EXPECT_NE(note.find("forced=" + std::to_string(kTotal / 2)), std::string::npos) << note;
  // The forced half printed the recorded order.
  const std::string head = rec.out.substr(0, rec.out.find(' ', 10));
  EXPECT_EQ(rep.out.substr(0, head.size()), head);
}

// By default a cut log holds the rank where the recorded one ended: here at
// the first wildcard receive it never saw matched (no live state in the
// directory), until mpiexec's timeout ends the run.
TEST(Replay, CutLogHoldsTheRankWhereTheRecordedOneEnded) {
  Result rec = run("hold_record", kRanks, {"race", std::to_string(kPerSender)});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  const fs::path dir = fresh_dir("hold_logs");
  std::vector<DecisionLog> logs = read_decision_logs(rec.dir);
  logs[0].decisions.resize(5);
  for (const DecisionLog& l : logs) write_decision_log(replay_log_file(dir, l.rank), l);
  Result rep = run("hold_replay", kRanks, {"race", std::to_string(kPerSender)}, dir, {"MPIEXEC_TIMEOUT=5"});
  EXPECT_NE(rep.rc, 0);
  const std::string note = replay_note(rep, 0);
  EXPECT_NE(note.find("log-ended call="), std::string::npos) << note;
  EXPECT_NE(note.find("held call=" + std::to_string(logs[0].decisions.back().call + 1) + " forced=5 "), std::string::npos)
      << note;
}

TEST(Replay, OneForcedMatchThenFree) {
  Result rec = run("force_record", kRanks, {"race", std::to_string(kPerSender)});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  std::vector<DecisionLog> logs = read_decision_logs(rec.dir);
  const Decision first = logs[0].decisions.front();
  ASSERT_EQ(first.kind, DecisionKind::Match);
  const int other = first.source == 1 ? 2 : 1;
  const fs::path dir = fresh_dir("forced_logs");
  logs[0] = force_match(logs[0], 0, other);
  EXPECT_EQ(logs[0].decisions.back().kind, DecisionKind::Free);
  for (const DecisionLog& l : logs) write_decision_log(replay_log_file(dir, l.rank), l);
  // Round trip of the writer.
  EXPECT_EQ(read_decision_log(replay_log_file(dir, 0)).decisions, logs[0].decisions);
  Result rep = run("force_replay", kRanks, {"race", std::to_string(kPerSender)}, dir);
  ASSERT_EQ(rep.rc, 0) << rep.err;
  // Sender r's first phase-0 message is r * 1000 with tag 0.
  EXPECT_EQ(rep.out.rfind("blocking: " + std::to_string(other * 1000) + "/0 ", 0), 0u) << rep.out;
  EXPECT_EQ(replay_note(rep, 0).rfind("free call=", 0), 0u) << replay_note(rep, 0);
  EXPECT_EQ(read_decision_logs(rep.dir)[0].decisions.front().source, other);
}

}  // namespace
