// The exploration plan (explore.hpp) with a fake ScheduleRunner: order of
// the alternatives, budget, depth, coverage, verdicts fed by outcomes.
#include <gtest/gtest.h>

#include <set>

#include "scalefuzz/detectors/exploration.hpp"  // the races detector judges what the plan forced
#include "scalefuzz/engine/explore.hpp"

namespace se = scalefuzz::engine;
namespace sr = scalefuzz::detectors::races;

namespace {

constexpr std::uint64_t kRecvSite = 0xA0, kSendSite = 0xB0;

// Rank 0's `receives` wildcard receives at one site, each took rank 1's
// send; ranks 2..nprocs-1 could have come first (one send site per rank).
se::ExploreBase base(int nprocs, std::size_t receives, std::string id = "q0") {
  se::ExploreBase b;
  b.run_id = id;
  b.run_dir = "/runs/" + id;
  b.outcome = "ok";
  for (std::size_t k = 0; k < receives; ++k) {
    sr::WildcardAlternatives w;
    w.actual.recv_rank = 0;
    w.actual.recv_site_hash = kRecvSite;
    w.actual.send_rank = 1;
    w.actual.send_site_hash = kSendSite + 1;
    w.actual.recv_instance = k;
    w.actual.wildcard = true;
    w.wildcard_ordinal = k;
    w.post_event = 2 * k + 1;
    w.post_past.assign(static_cast<std::size_t>(nprocs), 0);
    w.post_past[0] = static_cast<std::uint32_t>(2 * k + 2);
    w.post_past[1] = static_cast<std::uint32_t>(k);
    for (int s = 2; s < nprocs; ++s) {
      sr::AlternativeSend a;
      a.send_rank = s;
      a.send_site_hash = kSendSite + static_cast<std::uint64_t>(s);
      a.send_instance = k;
      a.past.assign(static_cast<std::size_t>(nprocs), 0);
      a.past[static_cast<std::size_t>(s)] = static_cast<std::uint32_t>(k + 1);
      a.past[0] = 1;
      w.alternatives.push_back(a);
    }
    b.matches.push_back(w.actual);
    b.wildcards.push_back(w);
  }
  return b;
}

// base() with each receive at a site of its own (receive k at kRecvSite + k):
// every alternative a tuple of its own.
se::ExploreBase base_of_sites(int nprocs, std::size_t receives) {
  auto b = base(nprocs, receives);
  for (std::size_t k = 0; k < receives; ++k) {
    b.wildcards[k].actual.recv_site_hash = kRecvSite + k;
    b.matches[k] = b.wildcards[k].actual;
  }
  return b;
}

// Forcing rank `harmful_source` at receive #harmful_ordinal hangs; anything
// else finishes. A forced run took its sender unless it is rank `refused`.
struct FakeRunner : se::ScheduleRunner {
  int nprocs = 4;
  int harmful_source = -1;
  std::uint64_t harmful_ordinal = 0;
  int refused = -1;
  std::vector<se::ForcedSchedule> schedules;
  se::ForcedRun run(const se::ForcedSchedule& s, const std::string& name) override {
    schedules.push_back(s);
    se::ForcedRun r;
    r.run_id = name;
    r.run_dir = "/runs/" + name;
    r.took_forced = s.source != refused;
    r.outcome = r.took_forced && s.source == harmful_source && s.ordinal == harmful_ordinal ? "hang" : "ok";
    r.replay_argv = {"scalefuzz", "replay", name};
    r.as_base = base(nprocs, std::max<std::size_t>(3, s.ordinal + 1), name);
    if (r.took_forced) {  // its receive took the forced sender: a new tuple seen
      r.as_base.matches[s.ordinal].send_rank = s.source;
      r.as_base.matches[s.ordinal].send_site_hash = kSendSite + static_cast<std::uint64_t>(s.source);
      r.as_base.wildcards[s.ordinal].actual = r.as_base.matches[s.ordinal];
    }
    return r;
  }
};

// A runner whose forced run of `source` at receive #ordinal hangs.
FakeRunner hanging_at(int source, std::uint64_t ordinal) {
  FakeRunner r;
  r.harmful_source = source;
  r.harmful_ordinal = ordinal;
  return r;
}

std::string name(const std::string&, int rank, std::uint32_t site) {
  return "site" + std::to_string(site) + "@r" + std::to_string(rank);
}

}  // namespace

TEST(Explore, ForcedScheduleReplaysTheCausalPastOfTheReceiveAndTheSend) {
  auto b = base(4, 5);
  const auto& w = b.wildcards[3];
  auto s = se::forced_schedule(b, w, w.alternatives[1]);  // rank 3's send #3
  EXPECT_EQ(s.base_run_dir, "/runs/q0");
  EXPECT_EQ(s.rank, 0);
  EXPECT_EQ(s.ordinal, 3u);
  EXPECT_EQ(s.source, 3);
  // Rank 0 up to the receive's post, rank 1 what the receive had seen,
  // rank 3 up to the forced send, rank 2 nothing.
  EXPECT_EQ(s.replay_events, (std::vector<std::uint64_t>{7, 3, 0, 4}));
}

TEST(Explore, UnseenTuplesFirstThenFurtherInstancesOnlyWhileTheyFindNewTuples) {
  FakeRunner runner;
  sr::MatchCoverage coverage;
  // A noise run already produced rank 2's tuple.
  sr::ObservedMatch noisy = base(4, 1).matches[0];
  noisy.send_rank = 2;
  noisy.send_site_hash = kSendSite + 2;
  coverage.add_seen("n0", {noisy});
  auto result = se::explore("np4", {base(4, 3)}, runner, {1, 4}, coverage);
  ASSERT_EQ(runner.schedules.size(), 3u);
  EXPECT_EQ(result.runs, 3u);
  EXPECT_EQ(result.candidates, 6u);
  EXPECT_EQ(result.distinct_candidates, 2u);
  EXPECT_FALSE(result.budget_exhausted);
  EXPECT_EQ(runner.schedules[0].source, 3);  // unseen tuple first
  EXPECT_EQ(runner.schedules[1].source, 2);  // then the seen one, once: nothing new, not again
  // Rank 3's first forcing produced a new tuple: its next instance once more,
  // which produced nothing new.
  EXPECT_EQ(runner.schedules[2].source, 3);
  EXPECT_EQ(runner.schedules[2].ordinal, 1u);
  EXPECT_EQ(coverage.untried_count(), 0u);
  EXPECT_EQ(coverage.potential_count(), 3u);
  EXPECT_EQ(coverage.seen_count(), 3u);  // the forced run produced rank 3's
}

TEST(Explore, AHangingAlternativeIsAnErrorRaceAndTheOthersAreCounted) {
  FakeRunner runner;
  runner.harmful_source = 3;
  runner.harmful_ordinal = 1;
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {base(4, 3)}, runner, {1, 100}, coverage);
  // Each sender at receive #0 (new tuples), then at #1 (nothing new): the hang.
  EXPECT_EQ(result.runs, 4u);
  EXPECT_FALSE(result.budget_exhausted);
  auto findings = sr::exploration_findings(result.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");
  EXPECT_EQ(findings[0].details["forced_send"]["send_rank"], 3);
  EXPECT_EQ(findings[0].details["receive_instance"], 1u);
  EXPECT_EQ(findings[0].details["outcome"], "hang");
}

// Exploration spent the whole budget before, leaving nothing to shrink the
// failure it found with (bench/explore/minimal_replay.py: no minimal
// schedule at budget 20); the reserve stops it at budget - reserve.
TEST(Explore, AChangedOutcomeKeepsTheShrinkReserveOfTheBudget) {
  FakeRunner runner = hanging_at(2, 0);
  sr::MatchCoverage coverage;
  se::ExploreLimits limits{1, 10};
  limits.shrink_reserve = 4;
  auto result = se::explore("np4", {base_of_sites(4, 20)}, runner, limits, coverage);
  EXPECT_EQ(result.runs, 6u);  // 40 alternatives; the first forced run hangs
  EXPECT_TRUE(result.budget_exhausted);
  EXPECT_EQ(result.explored[0].outcome, "hang");
  // Without a changed outcome the whole budget is exploration's.
  FakeRunner quiet;
  sr::MatchCoverage coverage2;
  EXPECT_EQ(se::explore("np4", {base_of_sites(4, 20)}, quiet, limits, coverage2).runs, 10u);
}

// reproduce (issue 30 item 6): forcing stops at the first forced run that
// changes the outcome; before, a hanging target ran the whole budget, each
// forced run a full timeout (ReproduceE2E.Case3 timed out).
TEST(Explore, StopAtFirstChangeEndsExplorationAtTheFirstChangedOutcome) {
  FakeRunner runner = hanging_at(2, 0);
  sr::MatchCoverage coverage;
  se::ExploreLimits limits{1, 100};
  limits.stop_at_first_change = true;
  auto result = se::explore("np4", {base(4, 20)}, runner, limits, coverage);
  EXPECT_EQ(result.runs, 1u);  // the first forced run hangs
  EXPECT_FALSE(result.budget_exhausted);
  ASSERT_EQ(result.explored.size(), 1u);
  EXPECT_EQ(result.explored[0].outcome, "hang");
  // Nothing changes the outcome: exploration runs on as without the limit.
  FakeRunner quiet;
  sr::MatchCoverage coverage2;
  limits.budget = 10;
  EXPECT_EQ(se::explore("np4", {base_of_sites(4, 20)}, quiet, limits, coverage2).runs, 10u);
}

// A base that failed, and every alternative forced alone failed too (the
// fake runner's forced runs end "hang" like the base): not benign (before,
// benign-nondeterminism Info, downgrading the site's race findings).
TEST(Explore, AFailingBaseWhoseAlternativesAllFailIsUndecidedNotBenign) {
  struct AllFail : FakeRunner {
    se::ForcedRun run(const se::ForcedSchedule& s, const std::string& n) override {
      auto r = FakeRunner::run(s, n);
      r.outcome = "hang";
      return r;
    }
  } runner;
  runner.nprocs = 3;  // forced runs of the 3-rank base offer no other sender (nothing to force beyond depth 1)
  auto died = base(3, 2);
  died.outcome = "hang";
  sr::MatchCoverage coverage;
  auto result = se::explore("np3", {died}, runner, {1, 100}, coverage);
  auto findings = sr::exploration_findings(result.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "undecided-race");
  EXPECT_EQ(findings[0].severity, scalefuzz::detectors::Severity::Warning);
  EXPECT_TRUE(sr::benign_sites(findings).empty());
}

// A base that failed with some output; forced runs fail the same way and
// print `forced_output`; the control replay of the base prints `control`.
struct FailingOutputs : FakeRunner {
  std::vector<std::string> forced_output, control;
  bool has_control = true;
  std::size_t controls = 0;
  se::ForcedRun run(const se::ForcedSchedule& s, const std::string& n) override {
    auto r = FakeRunner::run(s, n);
    r.outcome = "wrong-result";
    r.as_base.output = forced_output;
    return r;
  }
  std::optional<se::ForcedRun> replay_base(const se::ExploreBase& b, const std::string& n) override {
    if (!has_control) return std::nullopt;
    ++controls;
    se::ForcedRun r;
    r.run_id = n;
    r.outcome = b.outcome;
    r.as_base.output = control;
    return r;
  }
};

TEST(Explore, AFailingBaseWhoseFailureChangesWithTheForcedMatchIsHarmful) {
  auto failed = base(3, 2);
  failed.outcome = "wrong-result";
  failed.output = {"3 results out of place", "elapsed 0.125 s", "pid 77"};
  FailingOutputs runner;
  runner.nprocs = 3;
  runner.control = {"3 results out of place", "elapsed 0.131 s", "pid 78"};  // both controls print this
  runner.forced_output = {"1 results out of place", "elapsed 0.2 s", "pid 90"};
  sr::MatchCoverage coverage;
  auto result = se::explore("np3", {failed}, runner, {1, 100}, coverage);
  EXPECT_EQ(runner.controls, 2u);              // two controls per failing base
  EXPECT_EQ(result.runs, 2u + 2u);             // two forced runs and the controls
  ASSERT_EQ(result.explored.size(), 2u);
  EXPECT_EQ(result.explored[0].failure_change, "stdout line 1: '3 results out of place' became '1 results out of place'");
  auto findings = sr::exploration_findings(result.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");

  // The same failure, only timing lines differ: undecided as before.
  FailingOutputs same = runner;
  same.controls = 0;
  same.forced_output = {"3 results out of place", "elapsed 0.3 s", "pid 91"};
  sr::MatchCoverage coverage2;
  result = se::explore("np3", {failed}, same, {1, 100}, coverage2);
  EXPECT_EQ(result.explored[0].failure_change, "");
  EXPECT_EQ(sr::exploration_findings(result.explored, name)[0].kind, "undecided-race");

  // No control: outputs are not compared, no run is spent on it.
  FailingOutputs blind = runner;
  blind.has_control = false;
  sr::MatchCoverage coverage3;
  result = se::explore("np3", {failed}, blind, {1, 100}, coverage3);
  EXPECT_EQ(result.runs, 2u);
  EXPECT_EQ(sr::exploration_findings(result.explored, name)[0].kind, "undecided-race");
}

TEST(Explore, ARunThatDiedGetsTheRaceThatSavesItAsRootCause) {
  FakeRunner runner;  // every forced run finishes
  runner.nprocs = 3;
  auto died = base(3, 2);
  died.outcome = "hang";
  sr::MatchCoverage coverage;
  auto result = se::explore("np3", {died}, runner, {1, 100}, coverage);
  ASSERT_EQ(result.explored.size(), 2u);
  EXPECT_TRUE(result.explored[0].root_cause);
  auto findings = sr::exploration_findings(result.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");
  EXPECT_TRUE(findings[0].details["root_cause"].get<bool>());
}

TEST(Explore, DepthTwoStartsFromTheForcedRunsThatTookTheirAlternative) {
  FakeRunner runner;
  runner.refused = 2;  // forcing rank 2 never takes
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {base(4, 1)}, runner, {2, 100}, coverage);
  // Depth 1: ranks 2 and 3 at the one receive; depth 2 from the run that
  // took rank 3: its receives after the forced one (2 of its 3, the first
  // was replayed), 2 alternatives each, both tuples known: each forced once.
  ASSERT_EQ(runner.schedules.size(), 2u + 2u);
  EXPECT_EQ(runner.schedules[2].base_run_dir, "/runs/q0-x1");
  for (std::size_t i = 2; i < runner.schedules.size(); ++i) EXPECT_GT(runner.schedules[i].ordinal, 0u);
  EXPECT_FALSE(result.explored[0].took_alternative);
}

TEST(Explore, HundredWildcardReceivesOfFourRanksAtDepthOneEndBeforeAHundredRuns) {
  FakeRunner runner;
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {base(4, 100)}, runner, {1, 100}, coverage);
  EXPECT_EQ(result.candidates, 200u);
  EXPECT_EQ(result.distinct_candidates, 2u);
  // Done, not stopped by the budget (before: all 100 runs on further
  // instances of the two tuples): each sender at the first receive, and at
  // the second once more (the first forcing produced its tuple).
  EXPECT_FALSE(result.budget_exhausted);
  EXPECT_EQ(result.runs, 4u);
  EXPECT_EQ(coverage.untried_count(), 0u);
  EXPECT_EQ(coverage.potential_count(), coverage.seen_count());
}

// A message of another round (AlternativeSend::other_instance) is a key of
// its own: forced at its first instance even though the same tuple was
// forced within an exchange already, and a hang there is found.
TEST(Explore, AMessageOfAnotherRoundIsForcedApartFromTheSameTupleWithinItsExchange) {
  FakeRunner runner = hanging_at(3, 4);
  auto b = base(4, 6);
  b.wildcards[4].alternatives[1].other_instance = true;  // rank 3's message of the next round
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {b}, runner, {1, 100}, coverage);
  EXPECT_EQ(result.distinct_candidates, 3u);
  auto findings = sr::exploration_findings(result.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");
  EXPECT_EQ(findings[0].details["receive_instance"], 4u);
  EXPECT_LE(result.runs, 5u);
}

namespace {

// FakeRunner whose forced runs of rank 3 from the first base also reach a
// receive the base never reached (site 0xA9, rank 1 took, rank 2's send
// from site 0xBB could have come first): a tuple only forced runs offer.
struct OfferingRunner : FakeRunner {
  se::ForcedRun run(const se::ForcedSchedule& s, const std::string& name) override {
    se::ForcedRun r = FakeRunner::run(s, name);
    if (!r.took_forced || s.source != 3 || s.base_run_dir != "/runs/q0") return r;
    sr::WildcardAlternatives w = r.as_base.wildcards.front();
    w.actual.recv_site_hash = 0xA9;
    w.actual.send_rank = 1;
    w.actual.send_site_hash = kSendSite + 1;
    w.wildcard_ordinal = 50;
    w.post_event = 100;
    w.alternatives.resize(1);
    w.alternatives[0].send_rank = 2;
    w.alternatives[0].send_site_hash = 0xBB;
    r.as_base.matches.push_back(w.actual);
    r.as_base.wildcards.push_back(w);
    return r;
  }
};

// FakeRunner whose every forced run also produces a match tuple no run had
// (a receive site of its own per run): every forcing is productive.
struct AlwaysNewRunner : FakeRunner {
  se::ForcedRun run(const se::ForcedSchedule& s, const std::string& name) override {
    se::ForcedRun r = FakeRunner::run(s, name);
    sr::ObservedMatch m = r.as_base.matches.front();
    m.recv_site_hash = 0xD000 + schedules.size();
    r.as_base.matches.push_back(m);
    return r;
  }
};

}  // namespace

// Depth 1 done with budget left: the tuple a forced run offered (and no
// run produced) is forced from that run, at depth 2, and nothing else.
TEST(Explore, LeftoverBudgetForcesTheUnseenTuplesForcedRunsOfferBeyondTheDepth) {
  OfferingRunner runner;
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {base(4, 3)}, runner, {1, 20}, coverage);
  // Depth 1: ranks 2 and 3 at receive #0, each once more at #1 (both produced a new tuple).
  ASSERT_EQ(runner.schedules.size(), 5u);
  EXPECT_EQ(result.depth_reached, 2);
  const auto& deeper = runner.schedules[4];
  EXPECT_EQ(deeper.base_run_dir, "/runs/q0-x1");  // the first forced run that offered it (rank 3 at #0)
  EXPECT_EQ(deeper.ordinal, 50u);
  EXPECT_EQ(deeper.source, 2);
  ASSERT_EQ(result.new_potential.size(), 1u);
  EXPECT_EQ(result.new_potential[0].run_id, "q0-x1");
  EXPECT_EQ(result.new_potential[0].tuple, (sr::MatchTuple{0, 0xA9, 2, 0xBB, 0}));
  EXPECT_EQ(coverage.untried_count(), 0u);
  EXPECT_FALSE(result.budget_exhausted);
  // The configured depth first: with a budget that depth 1 uses up, no deeper run.
  OfferingRunner tight;
  sr::MatchCoverage fresh;
  auto short_result = se::explore("np4", {base(4, 3)}, tight, {1, 4}, fresh);
  EXPECT_EQ(short_result.depth_reached, 1);
  EXPECT_EQ(fresh.untried_count(), 1u);
}

// DAMPI forces every alternative of every wildcard receive instance. Here a
// key (base, tuple, within its exchange or not) is forced at its first
// instance and at its next only while its last forcing produced a new
// tuple: the further instances of an unproductive key are never forced,
// whatever the budget (a race that only the 8th instance shows is missed),
// while a productive key is forced at every instance.
TEST(Explore, EveryInstanceIsForcedOnlyWhileItsKeyStaysProductiveWhateverTheBudget) {
  FakeRunner quiet = hanging_at(3, 7);
  sr::MatchCoverage coverage;
  auto result = se::explore("np4", {base(4, 10)}, quiet, {1, 1000}, coverage);
  EXPECT_EQ(result.runs, 4u);
  EXPECT_FALSE(result.budget_exhausted);
  for (const auto& s : quiet.schedules) EXPECT_LE(s.ordinal, 1u);
  for (const auto& f : sr::exploration_findings(result.explored, name)) EXPECT_NE(f.kind, "harmful-race");

  AlwaysNewRunner productive;
  productive.harmful_source = 3;
  productive.harmful_ordinal = 7;
  sr::MatchCoverage coverage2;
  auto all = se::explore("np4", {base(4, 10)}, productive, {1, 1000}, coverage2);
  EXPECT_EQ(all.runs, 20u);  // 10 receives x 2 senders
  std::set<std::pair<std::uint64_t, int>> forced;
  for (const auto& s : productive.schedules) forced.insert({s.ordinal, s.source});
  EXPECT_EQ(forced.size(), 20u);
  auto findings = sr::exploration_findings(all.explored, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");
  EXPECT_EQ(findings[0].details["receive_instance"], 7u);
}
