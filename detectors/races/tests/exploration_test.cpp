// Coverage by match tuples and race verdicts from forced alternatives
// (exploration.hpp), on hand-made matches.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/exploration.hpp"

namespace sr = scalefuzz::detectors::races;
using scalefuzz::detectors::Severity;

namespace {

sr::ObservedMatch wildcard(int recv_rank, std::uint64_t recv_site, int send_rank, std::uint64_t send_site,
                           std::uint64_t instance = 0) {
  sr::ObservedMatch m;
  m.recv_rank = recv_rank;
  m.recv_site_hash = recv_site;
  m.recv_site_id = static_cast<std::uint32_t>(recv_site & 0xF);
  m.send_rank = send_rank;
  m.send_site_hash = send_site;
  m.send_site_id = static_cast<std::uint32_t>(send_site & 0xF);
  m.recv_instance = instance;
  m.wildcard = true;
  return m;
}

sr::AlternativeSend alternative(int send_rank, std::uint64_t send_site) {
  sr::AlternativeSend a;
  a.send_rank = send_rank;
  a.send_site_hash = send_site;
  a.send_site_id = static_cast<std::uint32_t>(send_site & 0xF);
  return a;
}

std::string name(const std::string&, int rank, std::uint32_t site) {
  return "site" + std::to_string(site) + "@r" + std::to_string(rank);
}

sr::ExploredAlternative explored(std::string outcome, bool took = true, std::uint64_t recv_site = 0xA1) {
  sr::ExploredAlternative a;
  a.point = "np3";
  a.base_run_id = "base";
  a.run_id = "base-x" + outcome;
  a.receive = wildcard(0, recv_site, 1, 0xB2);
  a.forced = alternative(2, 0xB3);
  a.base_outcome = "ok";
  a.outcome = std::move(outcome);
  a.took_alternative = took;
  a.replay_argv = {"scalefuzz", "replay", "x"};
  return a;
}

}  // namespace

TEST(Exploration, CoverageCountsPotentialSeenAndUnreachableTuples) {
  sr::MatchCoverage c;
  // Rank 0's receive site A took rank 1's send; ranks 2 and 3 could have come first.
  sr::WildcardAlternatives w;
  w.actual = wildcard(0, 0xA1, 1, 0xB1);
  w.alternatives = {alternative(2, 0xB2), alternative(3, 0xB3)};
  EXPECT_EQ(c.add_seen("q0", {w.actual}), 1u);
  c.add_potential("q0", {w});
  EXPECT_EQ(c.potential_count(), 3u);
  EXPECT_EQ(c.seen_count(), 1u);
  EXPECT_EQ(c.untried_count(), 2u);
  // A noise run produced rank 2's tuple: new once, not again.
  EXPECT_EQ(c.add_seen("n0", {wildcard(0, 0xA1, 2, 0xB2)}), 1u);
  EXPECT_EQ(c.add_seen("n1", {wildcard(0, 0xA1, 2, 0xB2)}), 0u);
  // Rank 3's was forced and never produced: unreachable under this input.
  c.mark_tried(sr::tuple_of(w.actual, w.alternatives[1]));
  EXPECT_EQ(c.seen_count(), 2u);
  EXPECT_EQ(c.unreachable_count(), 1u);
  EXPECT_EQ(c.untried_count(), 0u);
  // Receives that name their source are not tuples.
  auto named = wildcard(0, 0xA9, 1, 0xB1);
  named.wildcard = false;
  EXPECT_EQ(c.add_seen("q1", {named}), 0u);
  auto f = sr::coverage_finding("np4", c, name);
  EXPECT_EQ(f.kind, "match-coverage");
  EXPECT_EQ(f.severity, Severity::Info);
  EXPECT_NE(f.title.find("3 potential match tuples, 2 seen, 1 unreachable under this input"), std::string::npos)
      << f.title;
  EXPECT_EQ(f.details["tuples"].size(), 3u);
}

TEST(Exploration, AnAlternativeThatChangesTheOutcomeIsAnErrorRace) {
  std::vector<sr::ExploredAlternative> list = {explored("ok"), explored("hang")};
  list[1].outcome_detail = "timeout after 10s";
  list[1].minimal_schedule = {"rank 0's receive #0 at site1@r0 takes rank 2's send #0 from site3@r2"};
  auto findings = sr::exploration_findings(list, name);
  ASSERT_EQ(findings.size(), 1u);
  const auto& f = findings[0];
  EXPECT_EQ(f.kind, "harmful-race");
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.run_id, "base-xhang");
  EXPECT_EQ(f.details["receive_routine"], "site1@r0");
  EXPECT_EQ(f.details["base_send"]["send_site"], "site2@r1");
  EXPECT_EQ(f.details["forced_send"]["send_site"], "site3@r2");
  EXPECT_EQ(f.details["outcome"], "hang");
  EXPECT_EQ(f.details["alternatives_explored"], 2u);
  EXPECT_EQ(f.details["replay"], "scalefuzz replay x");
  EXPECT_NE(f.title.find("the failure needs only: rank 0's receive #0"), std::string::npos) << f.title;
  // A new usage error alone changes the outcome too.
  auto usage = explored("ok");
  usage.new_usage_errors = {"usage/request-leak/f (a.c:3)"};
  EXPECT_TRUE(sr::changes_outcome(usage));
  EXPECT_EQ(sr::exploration_findings({usage}, name)[0].severity, Severity::Error);
}

// A failing base whose forced alternative fails the same way: the output
// tells whether the failure depends on the match. Lines a replay of the
// base does not repeat (numbers or text of a line) are timing.
TEST(Exploration, OutputChangeComparesOnlyWhatAReplayOfTheBaseRepeats) {
  const std::vector<std::string> base = {"wrong_matches=3 max_error=0.702", "us_per_iteration=12.5", "pid 4242"};
  // The second control repeats the first's timing line by chance; the first does not.
  const std::vector<std::vector<std::string>> controls = {
      {"wrong_matches=3 max_error=0.702", "us_per_iteration=12.7", "pid 4250"},
      {"wrong_matches=3 max_error=0.702", "us_per_iteration=12.5", "pid 4251"}};
  EXPECT_EQ(sr::output_change(base, controls, base), "");
  // Timing only: lines a control did not repeat.
  EXPECT_EQ(sr::output_change(base, controls, {base[0], "us_per_iteration=9.75", "pid 1"}), "");
  // A value the replays repeat (a float too) is the failure's.
  EXPECT_EQ(sr::output_change(base, controls, {"wrong_matches=3 max_error=0.711", base[1], base[2]}),
            "stdout line 1: 'wrong_matches=3 max_error=0.702' became 'wrong_matches=3 max_error=0.711'");
  // A line mixing a result and a timing: the result the replays repeat is
  // compared, the timing they do not is skipped.
  const std::vector<std::string> mixed = {"wrong_matches=3 in 0.52 s"};
  const std::vector<std::vector<std::string>> mixed_controls = {{"wrong_matches=3 in 0.61 s"},
                                                                {"wrong_matches=3 in 0.49 s"}};
  EXPECT_EQ(sr::output_change(mixed, mixed_controls, {"wrong_matches=3 in 1.5 s"}), "");
  EXPECT_EQ(sr::output_change(mixed, mixed_controls, {"wrong_matches=5 in 0.52 s"}),
            "stdout line 1: 'wrong_matches=3 in 0.52 s' became 'wrong_matches=5 in 0.52 s'");
  EXPECT_EQ(sr::output_change(mixed, mixed_controls, {"wrong_matches=12 in 0.7 s"}),
            "stdout line 1: 'wrong_matches=3 in 0.52 s' became 'wrong_matches=12 in 0.7 s'");
  // Timing that the replays print in another shape: the line is not compared.
  EXPECT_EQ(sr::output_change(mixed, {mixed_controls[0], {"wrong_matches=3 in 1e-05 s"}},
                              {"wrong_matches=5 in 0.52 s"}),
            "");
  // A line the replays repeat whole and the forced run cuts otherwise: a change.
  EXPECT_NE(sr::output_change(base, controls, {"wrong_matches=3 max_error=1e-05", base[1], base[2]}), "");
  // A line more or less is a change.
  EXPECT_EQ(sr::output_change(base, controls, {base[0], base[1]}), "stdout line 3: 'pid 4242' became (no line)");
  EXPECT_NE(sr::output_change(base, controls, {base[0], base[1], base[2], "extra"}), "");
  // No control, or one with another line count: nothing compared.
  EXPECT_EQ(sr::output_change(base, {}, {"wrong_matches=1"}), "");
  EXPECT_EQ(sr::output_change(base, {controls[0], {"x"}}, {"wrong_matches=1"}), "");
}

TEST(Exploration, AFailureChangedByTheForcedMatchIsAnErrorRace) {
  auto a = explored("wrong-result");
  a.base_outcome = "wrong-result";
  EXPECT_FALSE(sr::changes_outcome(a));
  auto findings = sr::exploration_findings({a}, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "undecided-race");
  a.failure_change = "stdout line 1: 'wrong=3' became 'wrong=1'";
  EXPECT_TRUE(sr::changes_outcome(a));
  findings = sr::exploration_findings({a}, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "harmful-race");
  EXPECT_EQ(findings[0].severity, Severity::Error);
  EXPECT_EQ(findings[0].details["failure_change"], a.failure_change);
  EXPECT_NE(findings[0].title.find("the failure depends on this match"), std::string::npos) << findings[0].title;
  // It survives the record.
  sr::ExplorationRecord record;
  record.point = "np3";
  record.explored = {a};
  EXPECT_EQ(sr::exploration_record_from_json(sr::to_json(record)).explored[0].failure_change, a.failure_change);
}

TEST(Exploration, UnchangedOutcomesAreBenignAndDowngradeTheSitesWarnings) {
  // Site A1: two alternatives explored, outcome unchanged; one more forced
  // run did not take its sender (not judged). Site A2: harmful.
  std::vector<sr::ExploredAlternative> list = {explored("ok"), explored("ok"), explored("hang", false),
                                               explored("crashed", true, 0xA2)};
  auto findings = sr::exploration_findings(list, name);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, "benign-nondeterminism");
  EXPECT_EQ(findings[0].severity, Severity::Info);
  EXPECT_NE(findings[0].title.find("benign nondeterminism: 2 alternatives explored"), std::string::npos)
      << findings[0].title;
  EXPECT_EQ(findings[1].kind, "harmful-race");
  const auto benign = sr::benign_sites(findings);
  ASSERT_EQ(benign.size(), 1u);
  EXPECT_EQ(*benign.begin(), std::make_pair(std::string("np3"), std::string("site1@r0")));
  // The races detector's findings at the benign site become Info; the
  // harmful site's stay.
  std::vector<scalefuzz::detectors::Finding> races(3);
  for (auto& f : races) {
    f.detector = "races";
    f.severity = Severity::Warning;
    f.kind = "potential-race";
    f.details = {{"campaign_point", "np3"}, {"receive_routine", "site1@r0"}};
  }
  races[1].kind = "unintended-match";
  races[1].severity = Severity::Error;
  races[2].details["receive_routine"] = "site2@r0";
  sr::downgrade_benign(races, benign);
  EXPECT_EQ(races[0].severity, Severity::Info);
  EXPECT_EQ(races[1].severity, Severity::Info);
  EXPECT_EQ(races[1].details["severity_before_exploration"], "error");
  EXPECT_EQ(races[2].severity, Severity::Warning);
  // Nothing explored and taken: no verdict to downgrade with.
  EXPECT_TRUE(sr::benign_sites(sr::exploration_findings({explored("hang", false)}, name)).empty());
}

TEST(Exploration, RecordRoundTripsThroughJsonAndRefusesAMissingField) {
  sr::ExplorationRecord r;
  r.point = "np3";
  r.runs = 2;
  r.explored = {explored("hang")};
  r.explored[0].root_cause = true;
  r.explored[0].minimal_schedule = {"rank 0's receive #0 takes rank 2's send"};
  r.tried = {sr::tuple_of(r.explored[0].receive, r.explored[0].forced)};
  r.forced_matches = {{"base-xhang", wildcard(0, 0xA1, 2, 0xB3)}};
  // A forced run offered rank 3's send at another receive site: potential, not seen.
  r.forced_potential = {{"base-xhang", {0, 0xA2, 3, 0xB4, 0}, 7, 9}};
  r.candidates = 198;
  r.distinct_candidates = 6;
  auto back = sr::exploration_record_from_json(nlohmann::json::parse(to_json(r).dump()));
  EXPECT_EQ(back.point, "np3");
  EXPECT_EQ(back.candidates, 198u);
  EXPECT_EQ(back.distinct_candidates, 6u);
  ASSERT_EQ(back.explored.size(), 1u);
  EXPECT_EQ(back.explored[0].point, "np3");
  EXPECT_EQ(back.explored[0].outcome, "hang");
  EXPECT_TRUE(back.explored[0].root_cause);
  EXPECT_EQ(back.explored[0].forced.send_site_hash, 0xB3u);
  EXPECT_EQ(back.explored[0].minimal_schedule, r.explored[0].minimal_schedule);
  EXPECT_EQ(back.tried, r.tried);
  EXPECT_EQ(back.forced_matches[0].first, "base-xhang");
  EXPECT_EQ(sr::tuple_of(back.forced_matches[0].second), sr::tuple_of(r.forced_matches[0].second));
  sr::MatchCoverage c;
  sr::add_record(c, back);
  EXPECT_EQ(c.seen_count(), 1u);
  EXPECT_TRUE(c.tried(back.tried[0]));
  ASSERT_EQ(back.forced_potential.size(), 1u);
  EXPECT_EQ(back.forced_potential[0].tuple, r.forced_potential[0].tuple);
  EXPECT_EQ(back.forced_potential[0].send_site_id, 9u);
  EXPECT_EQ(c.potential_count(), 2u);  // the tuple seen, and the one offered
  EXPECT_EQ(c.untried_count(), 1u);
  EXPECT_EQ(c.tuples().at(r.forced_potential[0].tuple).recv_site_id, 7u);
  auto older = to_json(r);  // a record written before the candidate counts and the forced runs' potential
  older.erase("candidates");
  older.erase("forced_potential");
  EXPECT_EQ(sr::exploration_record_from_json(older).candidates, 0u);
  EXPECT_TRUE(sr::exploration_record_from_json(older).forced_potential.empty());
  auto broken = to_json(r);
  broken["explored"][0].erase("outcome");
  EXPECT_THROW(sr::exploration_record_from_json(broken), std::runtime_error);
}
