// The decision logs a forced schedule is made of (explore_runs.hpp), on
// hand-written logs and traces: no MPI.
#include <gtest/gtest.h>

#include "scalefuzz/engine/explore_runs.hpp"

namespace se = scalefuzz::engine;
namespace st = scalefuzz::trace;

namespace {

st::Decision match(std::uint64_t call, std::uint64_t ordinal, int source) {
  st::Decision d;
  d.kind = st::DecisionKind::Match;
  d.call = call;
  d.ordinal = ordinal;
  d.source = source;
  return d;
}

st::Decision poll(std::uint64_t call) {
  st::Decision d;
  d.kind = st::DecisionKind::Poll;
  d.call = call;
  return d;
}

st::Decision end(std::uint64_t call) {
  st::Decision d;
  d.kind = st::DecisionKind::End;
  d.call = call;
  return d;
}

st::DecisionLog log_of(int rank, std::vector<st::Decision> decisions) {
  st::DecisionLog l;
  l.rank = rank;
  l.world_size = 3;
  l.run_id = "base";
  l.decisions = std::move(decisions);
  return l;
}

st::Event event(std::uint8_t flags = 0, std::uint32_t repeats = 0) {
  st::Event e{};
  e.flags = flags;
  e.repeats = repeats;
  return e;
}

}  // namespace

TEST(ExploreRuns, CallNumbersCountCallsNotChildRecordsAndFoldedPolls) {
  st::RunTrace run;
  run.ranks.resize(1);
  // call 1; call 2 with a child record; a poll folded 3 more times (calls 3..6); call 7
  run.ranks[0].events = {event(), event(), event(st::kFlagChild), event(st::kFlagTestFailed, 3), event()};
  EXPECT_EQ(se::call_numbers(run)[0], (std::vector<std::uint64_t>{1, 2, 2, 6, 7}));
}

TEST(ExploreRuns, ForcedLogsReplayTheCausalPastForceOneReceiveAndRunFree) {
  // Rank 0 took rank 1's message at call 4 (its receive #2, completed by
  // event 3) and rank 2's at call 6 (#3); an Irecv posted later (#4)
  // completed at call 5. Ranks 1 and 2 each decided three polls.
  std::vector<st::DecisionLog> logs = {
      log_of(0, {match(2, 1, 2), match(4, 2, 1), match(5, 4, 2), match(6, 3, 2), end(9)}),
      log_of(1, {poll(1), poll(3), poll(5), end(6)}),
      log_of(2, {poll(2), poll(4), poll(6), end(7)})};
  std::vector<std::vector<std::uint64_t>> calls = {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6},
                                                   {1, 2, 3, 4, 5, 6, 7}};
  se::ForcedSchedule s;
  s.rank = 0;
  s.done_event = 3;  // call 4
  s.base_source = 1;
  s.source = 2;
  s.replay_events = {3, 4, 0};  // rank 1: its first 4 events (calls 1..4) are in the past; rank 2: none
  std::uint64_t ordinal = 0;
  auto out = se::forced_logs(logs, calls, s, ordinal);
  EXPECT_EQ(ordinal, 2u);
  ASSERT_EQ(out.size(), 3u);
  // Rank 0: #1 as recorded, #2 forced to rank 2, then free (#4, posted
  // later, and #3, completed later, are not forced).
  ASSERT_EQ(out[0].decisions.size(), 3u);
  EXPECT_EQ(out[0].decisions[0], match(2, 1, 2));
  EXPECT_EQ(out[0].decisions[1].source, 2);
  EXPECT_EQ(out[0].decisions[1].ordinal, 2u);
  EXPECT_EQ(out[0].decisions[2].kind, st::DecisionKind::Free);
  // Rank 1: the polls of calls 1 and 3, then free from call 3 on.
  ASSERT_EQ(out[1].decisions.size(), 3u);
  EXPECT_EQ(out[1].decisions[1], poll(3));
  EXPECT_EQ(out[1].decisions[2].kind, st::DecisionKind::Free);
  EXPECT_EQ(out[1].decisions[2].call, 3u);
  // Rank 2: nothing in the past, free from the start.
  ASSERT_EQ(out[2].decisions.size(), 1u);
  EXPECT_EQ(out[2].decisions[0].kind, st::DecisionKind::Free);
  // A receive the log does not have (another run's log) is refused.
  s.base_source = 0;
  EXPECT_THROW(se::forced_logs(logs, calls, s, ordinal), std::runtime_error);
}

TEST(ExploreRuns, ForcedCompletionReturnsTheLaterCallsRequestFirstAndRunsFree) {
  // Rank 0's MPI_Waitany loop: call 3 returned request 1, call 4 request 0,
  // call 5 request 2. Forcing call 3 (event 2) to return what call 5
  // (event 4) returned: decisions before it as recorded, then index 2, then free.
  auto index = [](std::uint64_t call, std::int32_t i) {
    st::Decision d;
    d.kind = st::DecisionKind::Index;
    d.call = call;
    d.index = i;
    return d;
  };
  std::vector<st::DecisionLog> logs = {log_of(0, {match(2, 1, 1), index(3, 1), index(4, 0), index(5, 2), end(6)}),
                                       log_of(1, {poll(1), end(2)})};
  std::vector<std::vector<std::uint64_t>> calls = {{1, 2, 3, 4, 5, 6}, {1, 2}};
  se::ForcedSchedule s;
  s.rank = 0;
  s.completion = true;
  s.done_event = 2;        // call 3
  s.alternative_call = 4;  // call 5
  s.replay_events = {2, 0};
  std::uint64_t position = 99;
  auto out = se::forced_logs(logs, calls, s, position);
  EXPECT_EQ(position, 0u);  // the rank's first Index decision
  ASSERT_EQ(out[0].decisions.size(), 3u);
  EXPECT_EQ(out[0].decisions[0], match(2, 1, 1));
  EXPECT_EQ(out[0].decisions[1].kind, st::DecisionKind::Index);
  EXPECT_EQ(out[0].decisions[1].call, 3u);
  EXPECT_EQ(out[0].decisions[1].index, 2);
  EXPECT_EQ(out[0].decisions[2].kind, st::DecisionKind::Free);
  ASSERT_EQ(out[1].decisions.size(), 1u);
  EXPECT_EQ(out[1].decisions[0].kind, st::DecisionKind::Free);
  // A call without a completion decision (another run's log) is refused.
  s.alternative_call = 1;
  EXPECT_THROW(se::forced_logs(logs, calls, s, position), std::runtime_error);
}

namespace {

namespace sr = scalefuzz::exploration;

// A run of rank 0's receive site 0xA0 whose wildcard receives took `senders` in turn.
se::ExploreBase run_of(const std::string& id, const std::string& outcome, std::vector<int> senders) {
  se::ExploreBase b;
  b.run_id = id;
  b.outcome = outcome;
  for (int s : senders) {
    sr::ObservedMatch m;
    m.recv_rank = 0;
    m.recv_site_hash = 0xA0;
    m.send_rank = s;
    m.send_site_hash = 0xB0 + static_cast<std::uint64_t>(s);
    m.wildcard = true;
    b.matches.push_back(m);
  }
  return b;
}

sr::MatchTuple tuple_from(int sender) { return {0, 0xA0, sender, 0xB0 + static_cast<std::uint64_t>(sender), 0}; }

}  // namespace

// Issue 30: a noise run that produced a tuple no earlier run had becomes a
// base; a quiet run that is not the base, and a noise run with nothing new,
// do not, but their tuples count as seen (exploration forces first what no
// run produced).
TEST(ExploreRuns, ANoiseRunWithANewTupleIsABaseAndEveryRunsTuplesAreSeen) {
  se::BaseChooser chooser;
  EXPECT_TRUE(chooser.offer(run_of("q0", "ok", {1, 1}), true));    // the main base
  EXPECT_FALSE(chooser.offer(run_of("q1", "ok", {1, 2}), true));   // quiet: not a base, rank 2 seen
  EXPECT_FALSE(chooser.offer(run_of("n0", "ok", {2, 1}), false));  // nothing new (q1 had rank 2)
  EXPECT_TRUE(chooser.offer(run_of("n1", "ok", {3, 1}), false));   // rank 3: new
  EXPECT_EQ(chooser.bases(), 2u);
  for (int s : {1, 2, 3}) EXPECT_TRUE(chooser.coverage().seen(tuple_from(s))) << s;
  EXPECT_FALSE(chooser.coverage().seen(tuple_from(4)));
  // At most kMaxNoiseBases noise runs join, however new their tuples.
  for (int s = 4; s < 4 + static_cast<int>(se::kMaxNoiseBases) + 2; ++s)
    chooser.offer(run_of("n" + std::to_string(s), "ok", {s}), false);
  EXPECT_EQ(chooser.bases(), 1 + se::kMaxNoiseBases);
  EXPECT_TRUE(chooser.coverage().seen(tuple_from(4 + static_cast<int>(se::kMaxNoiseBases) + 1)));
}

// A failing main base: the first run that ended ok joins it, quiet or not,
// and only the first.
TEST(ExploreRuns, TheFirstOkRunJoinsAFailingMainBase) {
  se::BaseChooser chooser;
  EXPECT_TRUE(chooser.offer(run_of("q0", "wrong-result", {2, 1}), true));
  EXPECT_FALSE(chooser.offer(run_of("q1", "wrong-result", {2, 1}), true));
  EXPECT_TRUE(chooser.offer(run_of("q2", "ok", {1, 2}), true));
  EXPECT_FALSE(chooser.offer(run_of("q3", "ok", {1, 2}), true));
  EXPECT_EQ(chooser.bases(), 2u);
}
