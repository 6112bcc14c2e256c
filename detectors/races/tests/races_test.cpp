#include <gtest/gtest.h>

#include "scalefuzz/detectors/races.hpp"
#include "scalefuzz/detectors/exploration.hpp"

namespace sr = scalefuzz::detectors::races;
namespace st = scalefuzz::trace;

namespace {

// Call-site hashes: routine A sends/receives, routine B sends/receives.
constexpr std::uint64_t kSendA = 0xA5, kRecvA = 0xA7, kSendB = 0xB5, kRecvB = 0xB7;

// A match of receive instance k (in round `round`) with send instance j
// (each sender here sends to one rank only: j is also its number among its
// sends to that rank).
sr::ObservedMatch match(std::uint64_t recv_site, std::uint64_t send_site, int send_rank, int recv_rank,
                        std::uint64_t k, std::uint64_t round, std::uint64_t j) {
  return {.recv_site_hash = recv_site, .send_site_hash = send_site,
          .recv_site_id = static_cast<std::uint32_t>(recv_site & 0xF),
          .send_site_id = static_cast<std::uint32_t>(send_site & 0xF), .recv_rank = recv_rank, .send_rank = send_rank,
          .tag = 0, .recv_seq = 10 + k, .send_instance = j, .send_to_instance = j, .recv_instance = k,
          .recv_round = round, .recv_phase = round, .recv_done_ns = 1000 + k, .wildcard = true};
}

sr::RunMatchSummary run(std::string id, bool quiet, std::vector<sr::ObservedMatch> matches, std::uint64_t hash = 1,
                        std::string point = "np3") {
  sr::RunMatchSummary r;
  r.run_id = std::move(id);
  r.point = std::move(point);
  r.noise_label = quiet ? "none" : "system-scale1.0";
  r.quiet = quiet;
  r.matches = std::move(matches);
  r.divergences = sr::lockstep_divergences(r.matches);  // as summarize_run does
  r.order_hash = hash;
  return r;
}

std::string name(const std::string&, int rank, std::uint32_t site) {
  return "site" + std::to_string(site) + "@r" + std::to_string(rank);
}

// Rank 0 receives at one site (kRecvA) from ranks 1 and 2, two per round,
// both senders at one site (kSendA): the textbook same-site exchange.
std::vector<sr::ObservedMatch> textbook(bool swap_in_round_1, bool cross_round) {
  std::vector<sr::ObservedMatch> m = {
      match(kRecvA, kSendA, 1, 0, 0, 1, 0), match(kRecvA, kSendA, 2, 0, 1, 1, 0),
      match(kRecvA, kSendA, 1, 0, 2, 2, 1), match(kRecvA, kSendA, 2, 0, 3, 2, 1)};
  if (swap_in_round_1) {  // rank 2's message first: same instances, other order
    m[0] = match(kRecvA, kSendA, 2, 0, 0, 1, 0);
    m[1] = match(kRecvA, kSendA, 1, 0, 1, 1, 0);
  }
  if (cross_round) {  // receive #1 (round 1) took rank 1's send #1, meant for round 2
    m[1] = match(kRecvA, kSendA, 1, 0, 1, 1, 1);
    m[2] = match(kRecvA, kSendA, 2, 0, 2, 2, 0);
  }
  return m;
}

}  // namespace

TEST(Races, SameSiteCrossRoundMatchIsUnintended) {
  auto report = sr::detect_races({run("q0", true, textbook(false, false)), run("n0", false, textbook(false, true), 2)});
  ASSERT_EQ(report.unintended.size(), 1u);
  const auto& u = report.unintended[0];
  EXPECT_EQ(u.run_id, "n0");
  EXPECT_EQ(u.first.recv_instance, 1u);
  EXPECT_EQ(u.first.send_instance, 1u);
  EXPECT_EQ(u.first.send_rank, 1);
  ASSERT_EQ(u.intended.size(), 1u);
  EXPECT_EQ(u.intended[0].recv_round, 2u);  // quiet runs deliver that send to round 2
  EXPECT_EQ(u.occurrences, 2u);             // and rank 2's send #0 went to round 2
  EXPECT_TRUE(u.has_first_divergence);
  EXPECT_EQ(u.first_divergence.recv_instance, 1u);
  auto findings = sr::race_findings(report, name);
  auto error = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_EQ(error->severity, scalefuzz::detectors::Severity::Error);
  EXPECT_NE(error->title.find("round 2 of the same site"), std::string::npos) << error->title;
  EXPECT_NE(error->title.find("exposed under noise 'system-scale1.0'"), std::string::npos) << error->title;
  EXPECT_EQ(error->details.at("send_instance"), 1);
  EXPECT_EQ(error->details.at("first_divergence").at("receive_instance"), 1);
  // Where quiet runs deliver the taken send, named (a hang blocked there is
  // this race's consequence: harness/bugs groups it under the race).
  const auto& to = error->details.at("quiet_runs_deliver_it_to").at(0);
  EXPECT_EQ(to.at("receive_round"), 2);
  EXPECT_EQ(to.at("receive_site"), name("q0", 0, static_cast<std::uint32_t>(kRecvA & 0xF)));
}

TEST(Races, OrderChangeInsideARoundIsInfoOnly) {
  // The quiet run saw that ranks 1 and 2 compete for the receive: a potential race.
  sr::RunMatchSummary quiet = run("q0", true, textbook(false, false));
  sr::PotentialRace competing;
  competing.actual = quiet.matches[0];
  competing.other_rank = 2;
  competing.other_site_hash = kSendA;
  competing.other_received = true;
  competing.other_recv_round = 1;
  quiet.potential.push_back(competing);
  auto report = sr::detect_races({quiet, run("n0", false, textbook(true, false), 2)});
  EXPECT_TRUE(report.unintended.empty());
  auto findings = sr::race_findings(report, name);
  auto info = std::find_if(findings.begin(), findings.end(),
                           [](const auto& f) { return f.kind == "nondeterministic-matching"; });
  ASSERT_NE(info, findings.end());
  EXPECT_EQ(info->severity, scalefuzz::detectors::Severity::Info);
  EXPECT_EQ(info->run_id, "n0");  // the run that matched in another order (issue 35)
  EXPECT_NE(info->title.find("run n0 matched otherwise than run q0"), std::string::npos) << info->title;
  auto warning = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "potential-race"; });
  ASSERT_NE(warning, findings.end());
  EXPECT_NE(warning->title.find("another receive of the same round (1)"), std::string::npos) << warning->title;
  EXPECT_EQ(warning->title.find("instead of round"), std::string::npos) << warning->title;
}

// A point where no receive could take another message (no potential race, no
// unintended match): another matching order changes nothing and is not shown.
TEST(Races, OrderChangeOnASafePointIsNotReported) {
  auto report = sr::detect_races({run("q0", true, textbook(false, false)), run("n0", false, textbook(true, false), 2)});
  EXPECT_TRUE(report.unintended.empty());
  EXPECT_TRUE(sr::race_findings(report, name).empty());
}

TEST(Races, CrossRoutineMatchIsUnintended) {
  std::vector<sr::ObservedMatch> quiet = {match(kRecvA, kSendA, 1, 0, 0, 1, 0), match(kRecvB, kSendB, 2, 0, 0, 2, 0)};
  std::vector<sr::ObservedMatch> noisy = {match(kRecvA, kSendB, 2, 0, 0, 1, 0), match(kRecvB, kSendA, 1, 0, 0, 2, 0)};
  auto report = sr::detect_races({run("q0", true, quiet), run("n0", false, noisy, 2)});
  ASSERT_EQ(report.unintended.size(), 2u);
  for (const auto& u : report.unintended) {
    ASSERT_EQ(u.intended.size(), 1u);
    EXPECT_NE(u.intended[0].recv_site_hash, u.first.recv_site_hash);
  }
}

TEST(Races, RunThatDiedGivesWarningsNotErrors) {
  auto noisy = run("n0", false, textbook(false, true), 2);
  noisy.died = "crashed: rank 1 killed by signal 11";
  auto findings = sr::race_findings(sr::detect_races({run("q0", true, textbook(false, false)), noisy}), name);
  for (const auto& f : findings) EXPECT_NE(f.severity, scalefuzz::detectors::Severity::Error) << f.title;
  EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [](const auto& f) {
    return f.kind == "unintended-match" && f.details.contains("run_died");
  }));
}

TEST(Races, QuietRunWithAWrongResultIsNotTheBaseline) {
  auto bad_quiet = run("q1", true, textbook(false, true), 2);
  bad_quiet.outcome_ok = false;  // the race showed without noise: judged, not learned from
  auto report = sr::detect_races({run("q0", true, textbook(false, false)), bad_quiet});
  ASSERT_EQ(report.unintended.size(), 1u);
  EXPECT_EQ(report.unintended[0].run_id, "q1");
  auto findings = sr::race_findings(report, name);
  ASSERT_FALSE(findings.empty());
  EXPECT_NE(findings[0].title.find("seen without noise"), std::string::npos) << findings[0].title;
  EXPECT_EQ(findings[0].title.find("noise 'none'"), std::string::npos) << findings[0].title;
}

TEST(Races, PointWithoutQuietRunIsNotJudged) {
  auto report = sr::detect_races({run("n0", false, textbook(false, true))});
  EXPECT_TRUE(report.unintended.empty());
  ASSERT_EQ(report.points_without_baseline.size(), 1u);
}

TEST(Races, BaselineIsPerCampaignPoint) {
  auto report = sr::detect_races({run("q0", true, textbook(false, false), 1, "np3"),
                                  run("n0", false, textbook(false, true), 2, "np4")});
  EXPECT_TRUE(report.unintended.empty());  // np4 has no quiet run
}

// ---- lock-step: instance-relative matching within one run ----------------

// Rank 0 collects one message from each of ranks 1..3 per loop at one
// wildcard site (kRecvA), all sent from one site (kSendA), `loops` loops, one
// receive round per loop (rounds 2, 4, 6, ...: its own sends in between).
// early_at >= 0: in that loop rank 1's next-loop message overtakes rank 2's
// message of this loop (the cross-iteration race), and the order heals.
std::vector<sr::ObservedMatch> collect(int loops, int early_at) {
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  for (int loop = 0; loop < loops; ++loop) {
    std::vector<std::pair<int, std::uint64_t>> taken = {{1, loop}, {2, loop}, {3, loop}};
    if (loop == early_at) taken = {{1, loop}, {1, loop + 1}, {3, loop}};
    if (early_at >= 0 && loop == early_at + 1) taken = {{2, loop - 1}, {2, loop}, {3, loop}};
    for (auto [sender, instance] : taken)
      m.push_back(match(kRecvA, kSendA, sender, 0, k++, 2 * static_cast<std::uint64_t>(loop) + 2, instance));
  }
  return m;
}

TEST(Races, LockstepFindsACrossIterationMatchWithoutAQuietBaseline) {
  // The race shows in every run, quiet ones included: no baseline to learn from.
  auto quiet = run("q0", true, collect(20, 7));
  quiet.outcome_ok = false;
  auto report = sr::detect_races({quiet, run("n0", false, collect(20, 3), 2)});
  ASSERT_EQ(report.unintended.size(), 2u);
  for (const auto& u : report.unintended) {
    EXPECT_TRUE(u.lockstep);
    EXPECT_EQ(u.first.send_rank, 1);  // rank 1's next-loop send, its second message in that round
    EXPECT_EQ(u.lockstep_first.short_rank, 2);
    EXPECT_TRUE(u.lockstep_first.shifted);  // its number to rank 0 is beyond the round's window
    EXPECT_EQ(u.occurrences, 1u);  // rank 2's late message in the next round is behind: not judged
  }
  EXPECT_EQ(report.unintended[0].first.send_instance, 8u);
  auto findings = sr::race_findings(report, name);
  auto error = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_EQ(error->severity, scalefuzz::detectors::Severity::Error);
  EXPECT_EQ(error->details.at("basis"), "lock-step");
  EXPECT_NE(error->title.find("a send of another iteration"), std::string::npos) << error->title;
}

TEST(Races, LockstepRunsWithoutDivergenceAreClean) {
  auto report = sr::detect_races({run("q0", true, collect(20, -1)), run("n0", false, collect(20, -1), 2)});
  EXPECT_TRUE(report.unintended.empty());
  ASSERT_TRUE(sr::lockstep_divergences(collect(20, -1)).empty());
}

TEST(Races, QuietRunThatBrokeLockstepIsNotTheBaseline) {
  // Its own check passed (outcome ok) but it took another loop's message: it
  // is reported, and its matching is not learned (the noisy run's identical
  // divergence is then judged by lock-step alone).
  auto report = sr::detect_races({run("q0", true, collect(20, 5)), run("n0", false, collect(20, 5), 2)});
  ASSERT_EQ(report.unintended.size(), 2u);
  EXPECT_TRUE(report.unintended[0].lockstep && report.unintended[1].lockstep);
}

TEST(Races, WorkQueueServedInArrivalOrderIsNotJudgedByLockstep) {
  // One receive per round, the sender is whoever came first (a master serving
  // workers): senders are not in lock-step, nothing mixes.
  std::vector<sr::ObservedMatch> m;
  std::uint64_t next[4] = {0, 0, 0, 0};
  const int order[] = {1, 1, 2, 3, 1, 2, 2, 2, 3, 1, 3, 3, 1, 2, 1, 1, 3, 2, 2, 1, 3, 1, 2, 3, 3, 1, 1, 2, 3, 3};
  std::uint64_t k = 0;
  for (int sender : order) m.push_back(match(kRecvA, kSendA, sender, 0, k, 2 * k + 2, next[sender]++)), ++k;
  EXPECT_TRUE(sr::lockstep_divergences(m).empty());
  // Two receives per round, any two requests: still not lock-step.
  for (auto& x : m) x.recv_round = x.recv_instance / 2;
  EXPECT_TRUE(sr::lockstep_divergences(m).empty());
}

TEST(Races, TwoGenerationsOfOneSenderInARoundDiverge) {
  // Rank 0 posts its receives, then releases the workers (its sends): rank
  // 1's next result answers that release (sent after the receive's post) and
  // lands in the same round as its result of this loop. Four loops only: the
  // vector clocks need no lock-step history.
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  for (std::uint64_t loop = 0; loop < 4; ++loop)
    for (int sender : {1, 2}) m.push_back(match(kRecvA, kSendA, sender, 0, k, 2 * loop + 2, loop)), ++k;
  m[3] = match(kRecvA, kSendA, 1, 0, 3, 4, 2);  // round of loop 1 took rank 1's result of loop 2 ...
  m[3].after_own_post = true;                     // ... which answers this round's release
  m[4] = match(kRecvA, kSendA, 2, 0, 4, 6, 1);  // and rank 2's result of loop 1 went to the next round
  m[5] = match(kRecvA, kSendA, 2, 0, 5, 6, 2);
  auto d = sr::lockstep_divergences(m);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].two_generations);
  EXPECT_EQ(d[0].match.send_rank, 1);
  EXPECT_EQ(d[0].match.send_instance, 2u);
  auto findings = sr::race_findings(sr::detect_races({run("q0", true, m)}), name);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].severity, scalefuzz::detectors::Severity::Error);
  EXPECT_NE(findings[0].title.find("two iterations' messages in one round"), std::string::npos) << findings[0].title;
  // Request and answer: both messages of the round answer what rank 0 did
  // after posting (e.g. two requests it sent), nothing older mixed in.
  m[2].after_own_post = true;
  EXPECT_TRUE(sr::lockstep_divergences(m).empty());
}

// collect() gone wrong in every pair of loops: in each even loop rank 1's
// next-loop message overtakes rank 2's, which the odd loop then takes with
// its own; per round rank 1 gives 2, 0, 2, 0, ... and rank 2 0, 2, 0, 2.
std::vector<sr::ObservedMatch> wrong_every_other_loop(int loops) {
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  for (int loop = 0; loop < loops; ++loop) {
    const std::uint64_t l = static_cast<std::uint64_t>(loop);
    std::vector<std::pair<int, std::uint64_t>> taken = {{1, l}, {1, l + 1}, {3, l}};
    if (loop % 2 == 1) taken = {{2, l - 1}, {2, l}, {3, l}};
    for (auto [sender, instance] : taken) m.push_back(match(kRecvA, kSendA, sender, 0, k++, 2 * l + 2, instance));
  }
  return m;
}

TEST(Races, LockstepOfTheQuietRunsJudgesARunWrongInMostRounds) {
  // No lock-step of its own: half its rounds took two of rank 1, half two of rank 2.
  const auto wrong = wrong_every_other_loop(20);
  EXPECT_TRUE(sr::lockstep_divergences(wrong).empty());
  EXPECT_TRUE(sr::detect_races({run("n0", false, wrong, 2)}).unintended.empty()) << "nothing says what is usual";
  // The quiet run went wrong once (no baseline), but 19 of its 20 rounds took one of each sender.
  auto quiet = run("q0", true, collect(20, 7));
  quiet.outcome_ok = false;
  auto report = sr::detect_races({quiet, run("n0", false, wrong, 2)});
  auto noisy = std::find_if(report.unintended.begin(), report.unintended.end(),
                            [](const auto& u) { return u.run_id == "n0"; });
  ASSERT_NE(noisy, report.unintended.end());
  EXPECT_TRUE(noisy->lockstep);
  EXPECT_TRUE(noisy->lockstep_first.from_quiet_runs);
  EXPECT_EQ(noisy->lockstep_first.usual, 1u);
  EXPECT_EQ(noisy->first.send_rank, 1);
  EXPECT_EQ(noisy->first.send_instance, 1u);  // round of loop 0 took rank 1's send of loop 1
  auto findings = sr::race_findings(report, name);
  auto error = std::find_if(findings.begin(), findings.end(),
                            [](const auto& f) { return f.run_id == "n0" && f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_EQ(error->severity, scalefuzz::detectors::Severity::Error);
  EXPECT_NE(error->title.find("rounds of the quiet runs"), std::string::npos) << error->title;
  // A quiet run that died is not counted; a noisy run is never counted.
  quiet.died = "crashed: SIGSEGV";
  auto unpooled = sr::detect_races({quiet, run("n0", false, wrong, 2), run("n1", false, collect(20, -1), 3)});
  EXPECT_TRUE(std::none_of(unpooled.unintended.begin(), unpooled.unintended.end(),
                           [](const auto& u) { return u.run_id == "n0"; }));
}

// The reference matching-race program at 4 ranks, as rank 1 sees it: each
// loop two patterns, one round each; rank 1 receives one message per
// pattern from ranks 0, 1 (itself) and 3. Rank 0 receives nothing and runs
// into pattern 1 at once: in a wrong loop the round of pattern 0 takes rank
// 0's messages of both patterns and the round of pattern 1 both of rank 1's.
std::vector<sr::ObservedMatch> ran_ahead(int loops, const std::vector<int>& wrong_loops) {
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  for (int loop = 0; loop < loops; ++loop) {
    const auto p = 2 * static_cast<std::uint64_t>(loop);
    std::vector<std::vector<std::pair<int, std::uint64_t>>> rounds = {{{0, p}, {1, p}, {3, p}},
                                                                       {{0, p + 1}, {1, p + 1}, {3, p + 1}}};
    if (std::find(wrong_loops.begin(), wrong_loops.end(), loop) != wrong_loops.end())
      rounds = {{{0, p}, {0, p + 1}, {3, p}}, {{1, p}, {1, p + 1}, {3, p + 1}}};
    for (std::uint64_t half = 0; half < 2; ++half)
      for (auto [sender, instance] : rounds[half])
        m.push_back(match(kRecvA, kSendA, sender, 1, k++, 3 * (p + half) + 2, instance));
  }
  return m;
}

TEST(Races, LockstepByModeAndTotalFindsTheSenderThatRanAhead) {
  // 6 wrong loops of 20: ranks 0 and 1 take their usual one message in only
  // 28 of 40 rounds (70%), but one stays the most common number and their
  // messages add up to one per round: both are in lock-step, and the round
  // that took two of rank 0's messages took one of the next pattern.
  const auto wrong = ran_ahead(20, {2, 5, 9, 12, 15, 18});
  auto d = sr::lockstep_divergences(wrong);
  ASSERT_FALSE(d.empty());
  const auto first = std::min_element(d.begin(), d.end(), [](const auto& a, const auto& b) {
    return a.match.recv_instance < b.match.recv_instance;
  });
  EXPECT_EQ(first->match.send_rank, 0);
  EXPECT_EQ(first->match.send_to_instance, 5u);  // pattern 5 (loop 2) taken by the round of pattern 4
  EXPECT_EQ(first->usual, 1u);
  EXPECT_EQ(first->usual_rounds, 28u);
  EXPECT_EQ(first->rounds, 40u);
  // The quiet run itself went wrong (no baseline, no correct run to learn
  // from): an Error all the same.
  auto quiet = run("q0", true, wrong);
  quiet.outcome_ok = false;
  auto findings = sr::race_findings(sr::detect_races({quiet}), name);
  auto error = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_EQ(error->severity, scalefuzz::detectors::Severity::Error);
  EXPECT_EQ(error->details.at("basis"), "lock-step");
  // Wrong in 14 loops of 20: one per round in only 12 of 40 rounds, fewer
  // than two (wrong) and zero: nothing to call usual in the run alone.
  EXPECT_TRUE(sr::lockstep_divergences(ran_ahead(20, {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})).empty());
  EXPECT_TRUE(sr::lockstep_divergences(ran_ahead(20, {})).empty());
}

TEST(Races, WindowsFindARoundShiftedByOnePatternWithUsualCounts) {
  // Rank 0 takes one message of ranks 1 and 2 per round. Round 0 took rank
  // 1's first two, and from then on every round takes one of each (the
  // usual numbers) but rank 1's of the next pattern and rank 2's of the
  // previous one, until the last round takes rank 2's last two.
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  auto take = [&](int sender, std::uint64_t j, std::uint64_t round) {
    m.push_back(match(kRecvA, kSendA, sender, 0, k++, 2 * round + 2, j));
  };
  take(1, 0, 0), take(1, 1, 0);
  for (std::uint64_t r = 1; r <= 10; ++r) take(1, r + 1, r), take(2, r - 1, r);
  take(2, 10, 11), take(2, 11, 11);
  const auto d = sr::lockstep_divergences(m);
  auto at = [&](std::uint64_t round) {
    return std::find_if(d.begin(), d.end(), [&](const auto& x) { return x.match.recv_round == 2 * round + 2; });
  };
  ASSERT_NE(at(5), d.end()) << "a round with the usual counts but shifted instances";
  EXPECT_TRUE(at(5)->shifted);
  EXPECT_EQ(at(5)->window_begin, 5u);
  ASSERT_NE(at(0), d.end());
  EXPECT_EQ(at(0)->short_rank, 2);  // the round that got rank 1 ahead: rank 2 came short
  EXPECT_EQ(at(11), d.end());       // rank 2's late message: behind, not judged
  auto findings = sr::race_findings(sr::detect_races({run("n0", false, m, 2)}), name);  // no quiet run
  auto error = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_NE(error->title.find("is due its message"), std::string::npos) << error->title;
}

TEST(Races, WindowsStayQuietOnOrderChangesAndRoundsThatVaryByDesign) {
  // One message of each of ranks 1..3 per round, in a different order each
  // round (the benign wildcard collection): every message in its window.
  std::vector<sr::ObservedMatch> any_order;
  const int orders[][3] = {{1, 2, 3}, {3, 1, 2}, {2, 3, 1}, {3, 2, 1}, {1, 3, 2}, {2, 1, 3}};
  std::uint64_t k = 0;
  for (std::uint64_t r = 0; r < 24; ++r)
    for (int sender : orders[r % 6]) any_order.push_back(match(kRecvA, kSendA, sender, 0, k++, r + 1, r));
  EXPECT_TRUE(sr::lockstep_divergences(any_order).empty());
  // Phases: even rounds take rank 1's message, odd rounds rank 2's (no
  // most common number: not lock-step).
  std::vector<sr::ObservedMatch> phases;
  for (std::uint64_t r = 0; r < 24; ++r) phases.push_back(match(kRecvA, kSendA, r % 2 ? 2 : 1, 0, r, r + 1, r / 2));
  EXPECT_TRUE(sr::lockstep_divergences(phases).empty());
  // Two results per round from any of two workers, the faster worker
  // giving more (one is the most common number, but the totals are not one
  // per round): a work pool, not lock-step.
  std::vector<sr::ObservedMatch> pool;
  const int fast[] = {1, 2, 1, 2, 1, 1, 2, 1, 2, 1, 2, 1};
  std::uint64_t next[3] = {0, 0, 0};
  k = 0;
  for (std::uint64_t r = 0; r < 12; ++r)
    for (int i = 0; i < 2; ++i) {
      const int sender = i < fast[r] ? 1 : 2;
      pool.push_back(match(kRecvA, kSendA, sender, 0, k++, r + 1, next[sender]++));
    }
  EXPECT_TRUE(sr::lockstep_divergences(pool).empty());
  // Rank 1 skips round 3 by design (behind from then on), or round 12
  // posts one receive more for an extra message of rank 1 (ahead from then
  // on, but no other sender came short: nothing stolen); not judged.
  for (const bool skip : {true, false}) {
    std::vector<sr::ObservedMatch> uneven;
    std::uint64_t j1 = 0;
    k = 0;
    for (std::uint64_t r = 0; r < 24; ++r) {
      if (!skip || r != 3) uneven.push_back(match(kRecvA, kSendA, 1, 0, k++, r + 1, j1++));
      if (!skip && r == 12) uneven.push_back(match(kRecvA, kSendA, 1, 0, k++, r + 1, j1++));
      uneven.push_back(match(kRecvA, kSendA, 2, 0, k++, r + 1, r));
    }
    EXPECT_TRUE(sr::lockstep_divergences(uneven).empty()) << (skip ? "skipped round" : "extra receive");
  }
  // Rank 1's messages to rank 0 alternate between this site and another:
  // their numbers here are 0, 2, 4, ... (no window to judge them by).
  auto shared = any_order;
  for (auto& x : shared)
    if (x.send_rank == 1) x.send_to_instance = 2 * x.send_instance;
  EXPECT_TRUE(sr::lockstep_divergences(shared).empty());
}

TEST(Races, PhasesFindASwapBetweenTwoPatternsOfOneRound) {
  // A receiver that never sends (matching_race's receive-only ranks): each
  // loop is one round (from barrier to barrier) with two phases, pattern 0's
  // receives and, after waiting for all of them, pattern 1's; ranks 1 and 2
  // send one message per pattern. In loop 5 pattern 0's receives took both
  // of rank 1's messages (its pattern-1 one early) and pattern 1's both of
  // rank 2's: every round count is the usual two per sender.
  std::vector<sr::ObservedMatch> m;
  std::uint64_t k = 0;
  auto take = [&](int sender, std::uint64_t j, std::uint64_t loop, int pattern) {
    sr::ObservedMatch x = match(kRecvA, kSendA, sender, 0, k++, loop + 1, j);
    x.recv_phase = 2 * loop + static_cast<std::uint64_t>(pattern) + 1;
    m.push_back(x);
  };
  for (std::uint64_t loop = 0; loop < 12; ++loop)
    for (int pattern = 0; pattern < 2; ++pattern) {
      const std::uint64_t j = 2 * loop + static_cast<std::uint64_t>(pattern);
      const int both_from = pattern == 0 ? 1 : 2;
      if (loop == 5)
        take(both_from, 2 * loop, loop, pattern), take(both_from, 2 * loop + 1, loop, pattern);
      else
        take(1, j, loop, pattern), take(2, j, loop, pattern);
    }
  auto rounds_only = m;
  for (auto& x : rounds_only) x.recv_phase = x.recv_round;
  EXPECT_TRUE(sr::lockstep_divergences(rounds_only).empty()) << "the swap stays inside one round";
  const auto d = sr::lockstep_divergences(m);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].by_phase);
  EXPECT_TRUE(d[0].shifted);
  EXPECT_EQ(d[0].match.send_rank, 1);
  EXPECT_EQ(d[0].match.send_to_instance, 11u);  // rank 1's pattern-1 message of loop 5
  EXPECT_EQ(d[0].window_begin, 10u);
  EXPECT_EQ(d[0].short_rank, 2);
  auto findings = sr::race_findings(sr::detect_races({run("n0", false, m, 2)}), name);
  auto error = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "unintended-match"; });
  ASSERT_NE(error, findings.end());
  EXPECT_NE(error->title.find("this phase of the receive site"), std::string::npos) << error->title;
  // The benign collection with blocking receives, one receive per phase, in
  // a different order each loop: no sender has a usual number per phase.
  std::vector<sr::ObservedMatch> blocking;
  const int orders[][3] = {{1, 2, 3}, {3, 1, 2}, {2, 3, 1}, {3, 2, 1}, {1, 3, 2}, {2, 1, 3}};
  k = 0;
  for (std::uint64_t r = 0; r < 24; ++r)
    for (int sender : orders[r % 6]) {
      sr::ObservedMatch x = match(kRecvA, kSendA, sender, 0, k, r + 1, r);
      x.recv_phase = ++k;
      blocking.push_back(x);
    }
  EXPECT_TRUE(sr::lockstep_divergences(blocking).empty());
}

TEST(Races, LockstepNeedsEnoughMessagesAndWildcards) {
  EXPECT_TRUE(sr::lockstep_divergences(collect(6, 2)).empty());  // 6 rounds: too few to judge
  auto named = collect(20, 5);
  for (auto& x : named) x.wildcard = false;  // a receive naming its source cannot take another sender's message
  EXPECT_TRUE(sr::lockstep_divergences(named).empty());
  EXPECT_FALSE(sr::lockstep_divergences(collect(20, 5)).empty());
}

// ---- potential races on a synthetic trace ---------------------------------

namespace {

st::Event event(st::OpClass cls, std::uint32_t site, std::int32_t peer, std::int32_t tag, std::uint64_t t) {
  st::Event e{};
  e.seq = 0;
  e.t_enter_ns = t;
  e.t_exit_ns = t + 1;
  e.op_class = static_cast<std::uint8_t>(cls);
  e.callsite = site;
  e.peer = peer;
  e.tag = tag;
  e.comm = st::kCommWorld;
  return e;
}

// Ranks 0..2, each with call sites 0..2 (stable hashes 0x60..0x62).
st::RunTrace three_ranks_three_sites() {
  st::RunTrace run;
  run.ranks.resize(3);
  for (int r = 0; r < 3; ++r) {
    run.ranks[r].rank = r;
    run.ranks[r].sites.resize(3);
    for (int k = 0; k < 3; ++k) run.ranks[r].sites[k].stable_hash = 0x60 + k;
  }
  return run;
}

// Appends `e` to rank r's events as its next call; where it is.
st::EventRef push_event(st::RunTrace& run, int r, st::Event e) {
  auto& ev = run.ranks[r].events;
  e.seq = ev.size() + 1;
  ev.push_back(e);
  return st::EventRef{r, ev.size() - 1};
}

// The textbook exchange in miniature: each step rank 0 sends to ranks 1 and 2
// and posts two wildcard receives; ranks 1 and 2 send to rank 0, then take
// rank 0's message (site 0 sends, site 1 receives). A rank's step s+1 send
// follows only rank 0's step-s send, which precedes rank 0's receives: it is
// concurrent with them, unless `barrier_between_steps` puts a barrier after
// rank 0's receives.
struct Synthetic {
  st::RunTrace run;
  st::Matching matching;
};

Synthetic exchange(int steps, bool same_tag, bool barrier_between_steps) {
  Synthetic s;
  s.run.ranks.resize(3);
  for (int r = 0; r < 3; ++r) {
    s.run.ranks[r].rank = r;
    s.run.ranks[r].sites.resize(2);
    s.run.ranks[r].sites[0].stable_hash = 0x50;  // the send site
    s.run.ranks[r].sites[1].stable_hash = 0x51;  // the receive site
  }
  auto push = [&](int r, st::Event e) {
    auto& ev = s.run.ranks[r].events;
    e.seq = ev.size() + 1;
    ev.push_back(e);
    return st::EventRef{r, ev.size() - 1};
  };
  std::uint64_t t = 0;
  std::vector<st::EventRef> prev_go(3);
  for (int step = 0; step < steps; ++step) {
    const int tag = same_tag ? 0 : step + 1;
    // rank 0 tells ranks 1, 2 to go on (a send each), then posts its receives
    st::EventRef go1 = push(0, event(st::OpClass::Send, 0, 1, 100, ++t));
    st::EventRef go2 = push(0, event(st::OpClass::Send, 0, 2, 100, ++t));
    st::EventRef post_a = push(0, event(st::OpClass::Recv, 1, st::kAnySource, tag, ++t));
    st::EventRef post_b = push(0, event(st::OpClass::Recv, 1, st::kAnySource, tag, ++t));
    st::EventRef send1 = push(1, event(st::OpClass::Send, 0, 0, tag, ++t));
    st::EventRef send2 = push(2, event(st::OpClass::Send, 0, 0, tag, ++t));
    st::EventRef got1 = push(1, event(st::OpClass::Recv, 1, 0, 100, ++t));
    st::EventRef got2 = push(2, event(st::OpClass::Recv, 1, 0, 100, ++t));
    s.matching.messages.push_back({go1, got1, got1, st::kCommWorld, 100, 8});
    s.matching.messages.push_back({go2, got2, got2, st::kCommWorld, 100, 8});
    s.matching.messages.push_back({send1, post_a, post_a, st::kCommWorld, tag, 8});
    s.matching.messages.push_back({send2, post_b, post_b, st::kCommWorld, tag, 8});
    if (barrier_between_steps)
      for (int r = 0; r < 3; ++r) push(r, event(st::OpClass::Collective, 0, st::kNoPeer, st::kNoTag, ++t));
  }
  return s;
}

}  // namespace

TEST(Races, PotentialRaceBetweenStepsOfOneSiteInAQuietRun) {
  Synthetic s = exchange(3, true, false);
  auto p = sr::potential_races(s.run, s.matching);
  ASSERT_FALSE(p.empty());
  // Rank 0's first receive of step 0 took rank 1's send, and rank 2's
  // step-0 send went to the same round (no race); its second receive could
  // take rank 1's step-1 send: nothing orders that send after it.
  EXPECT_EQ(p[0].actual.recv_rank, 0);
  EXPECT_NE(p[0].other_recv_round, p[0].actual.recv_round);
  auto summary = sr::summarize_run("q0", "np3", "none", true, s.run, s.matching);
  EXPECT_FALSE(summary.potential.empty());
  auto findings = sr::race_findings(sr::detect_races({summary}), name);
  ASSERT_EQ(std::count_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == "potential-race"; }), 1);
}

TEST(Races, NoPotentialRaceWithUniqueTagsOrABarrier) {
  Synthetic tags = exchange(3, false, false);
  EXPECT_TRUE(sr::potential_races(tags.run, tags.matching).empty());
  Synthetic barrier = exchange(3, true, true);
  EXPECT_TRUE(sr::potential_races(barrier.run, barrier.matching).empty());
}

TEST(Races, PotentialMatchesListEveryAlternativeSenderWithItsCausalPast) {
  Synthetic s = exchange(3, true, false);
  auto w = sr::potential_matches(s.run, s.matching);
  ASSERT_EQ(w.size(), 6u);  // every wildcard receive instance, with or without alternatives
  // Step 0, first receive: took rank 1's send; rank 2's step-0 send fits too
  // (the same exchange in the other order).
  EXPECT_EQ(w[0].wildcard_ordinal, 0u);
  EXPECT_EQ(w[0].actual.send_rank, 1);
  ASSERT_EQ(w[0].alternatives.size(), 1u);
  EXPECT_EQ(w[0].alternatives[0].send_rank, 2);
  EXPECT_EQ(w[0].alternatives[0].send_instance, 0u);
  EXPECT_FALSE(w[0].alternatives[0].other_instance);
  // Before its post: rank 0's two sends and the post itself, nothing of the others.
  EXPECT_EQ(w[0].post_past, (std::vector<std::uint32_t>{3, 0, 0}));
  // Step 0, second receive: rank 1's step-1 send could come first (a race
  // across steps, what potential_races reports).
  EXPECT_EQ(w[1].wildcard_ordinal, 1u);
  ASSERT_EQ(w[1].alternatives.size(), 1u);
  EXPECT_EQ(w[1].alternatives[0].send_rank, 1);
  EXPECT_EQ(w[1].alternatives[0].send_instance, 1u);
  EXPECT_TRUE(w[1].alternatives[0].other_instance);
  // That send follows rank 0's first send (its "go") and its own two events before.
  EXPECT_EQ(w[1].alternatives[0].past, (std::vector<std::uint32_t>{1, 3, 0}));
  // Step 1's first receive follows step 0's receives (ranks 1 and 2's sends).
  EXPECT_EQ(w[2].wildcard_ordinal, 2u);
  EXPECT_EQ(w[2].post_past, (std::vector<std::uint32_t>{7, 1, 1}));
  // The last step's second receive has no alternative left.
  EXPECT_TRUE(w[5].alternatives.empty());
  // potential_races is the first alternative of another instance of each.
  auto p = sr::potential_races(s.run, s.matching);
  std::size_t with_other = 0;
  for (const auto& m : w)
    with_other += std::any_of(m.alternatives.begin(), m.alternatives.end(), [](const auto& a) { return a.other_instance; });
  EXPECT_EQ(p.size(), with_other);
  // With a barrier after each step's receives only the in-step order remains.
  Synthetic barrier = exchange(3, true, true);
  for (const auto& m : sr::potential_matches(barrier.run, barrier.matching))
    for (const auto& a : m.alternatives) EXPECT_FALSE(a.other_instance);
}

TEST(Races, ASendTheDeadRunNeverReceivedIsAnAlternative) {
  // Rank 0 takes one message from anyone, then one from rank 1. Rank 1's
  // message came first: the second receive hangs and rank 2's send stays
  // unreceived in the trace; it is the alternative that would have let the
  // run finish.
  st::RunTrace run = three_ranks_three_sites();
  auto push = [&](int r, st::Event e) { return push_event(run, r, e); };
  st::EventRef send1 = push(1, event(st::OpClass::Send, 0, 0, 0, 1));
  st::EventRef send2 = push(2, event(st::OpClass::Send, 0, 0, 0, 2));
  st::EventRef any = push(0, event(st::OpClass::Recv, 1, st::kAnySource, 0, 3));
  st::EventRef from1 = push(0, event(st::OpClass::Recv, 2, 1, 0, 4));
  run.ranks[0].events.back().t_exit_ns = 0;  // never returned
  st::Matching matching;
  matching.messages.push_back({send1, any, any, st::kCommWorld, 0, 8});
  matching.unmatched_sends.push_back(send2);
  matching.unmatched_recvs.push_back(from1);
  auto w = sr::potential_matches(run, matching);
  ASSERT_EQ(w.size(), 1u);
  ASSERT_EQ(w[0].alternatives.size(), 1u);
  EXPECT_EQ(w[0].alternatives[0].send_rank, 2);
  EXPECT_FALSE(w[0].alternatives[0].received);
  EXPECT_TRUE(w[0].alternatives[0].other_instance);
  EXPECT_EQ(w[0].alternatives[0].send_site_hash, 0x60u);
  EXPECT_EQ(w[0].alternatives[0].past, (std::vector<std::uint32_t>{0, 0, 1}));
  auto p = sr::potential_races(run, matching);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_FALSE(p[0].other_received);
}

TEST(Races, SummarizeRunNumbersInstancesAndRounds) {
  Synthetic s = exchange(2, true, false);
  auto summary = sr::summarize_run("q0", "np3", "none", false, s.run, s.matching);
  ASSERT_EQ(summary.matches.size(), 8u);
  // Rank 1's sends to rank 0 at site 0: instances 0 and 1; rank 0's
  // receives at site 1: instances 0..3, rounds 2 (after two sends) and 4.
  const auto& step1 = summary.matches[6];
  EXPECT_EQ(step1.send_rank, 1);
  EXPECT_EQ(step1.send_instance, 1u);
  EXPECT_EQ(step1.recv_instance, 2u);
  EXPECT_EQ(step1.recv_round, 4u);
  EXPECT_EQ(summary.matches[2].recv_round, 2u);
  EXPECT_TRUE(step1.wildcard);
  EXPECT_EQ(step1.send_site_hash, 0x50u);
  // Rank 0's "go" sends (one site, tag 100) to ranks 1 and 2 alternate: the
  // second step's go to rank 1 is its send #2 there and its #1 to rank 1.
  const auto& go = summary.matches[4];
  EXPECT_EQ(go.send_rank, 0);
  EXPECT_EQ(go.recv_rank, 1);
  EXPECT_EQ(go.send_instance, 2u);
  EXPECT_EQ(go.send_to_instance, 1u);
}

TEST(Races, PhasesSplitARoundWhereEveryEarlierReceiveHadCompleted) {
  // Rank 0 posts two wildcard receives, waits for both, posts two more,
  // waits, then a barrier; ranks 1 and 2 send one message per pattern.
  st::RunTrace run;
  st::Matching matching;
  run.ranks.resize(3);
  for (int r = 0; r < 3; ++r) {
    run.ranks[r].rank = r;
    run.ranks[r].sites.resize(3);
    for (int s = 0; s < 3; ++s) run.ranks[r].sites[s].stable_hash = 0x60u + static_cast<unsigned>(s);
  }
  std::uint64_t t = 0;
  auto push = [&](int r, st::Event e) {
    auto& ev = run.ranks[r].events;
    e.seq = ev.size() + 1;
    ev.push_back(e);
    return st::EventRef{r, ev.size() - 1};
  };
  for (int loop = 0; loop < 2; ++loop) {
    for (int pattern = 0; pattern < 2; ++pattern) {
      st::EventRef a = push(0, event(st::OpClass::Irecv, 1, st::kAnySource, 0, ++t));
      st::EventRef b = push(0, event(st::OpClass::Irecv, 1, st::kAnySource, 0, ++t));
      st::EventRef s1 = push(1, event(st::OpClass::Isend, 0, 0, 0, ++t));
      st::EventRef s2 = push(2, event(st::OpClass::Isend, 0, 0, 0, ++t));
      push(0, event(st::OpClass::Completion, 2, st::kNoPeer, st::kNoTag, ++t));  // MPI_Waitall
      st::EventRef done_a = push(0, event(st::OpClass::RequestDone, 2, 1, 0, t));
      st::EventRef done_b = push(0, event(st::OpClass::RequestDone, 2, 2, 0, t));
      matching.messages.push_back({s1, a, done_a, st::kCommWorld, 0, 8});
      matching.messages.push_back({s2, b, done_b, st::kCommWorld, 0, 8});
    }
    for (int r = 0; r < 3; ++r) push(r, event(st::OpClass::Collective, 2, st::kNoPeer, st::kNoTag, ++t));
  }
  auto summary = sr::summarize_run("q0", "np3", "none", true, run, matching);
  ASSERT_EQ(summary.matches.size(), 8u);
  const auto& m = summary.matches;
  // One round per loop; a phase per pattern (the second receive of a
  // pattern is posted while the first is pending: same phase).
  EXPECT_EQ(m[0].recv_round, m[2].recv_round);
  EXPECT_NE(m[2].recv_round, m[4].recv_round);
  EXPECT_EQ(m[0].recv_phase, m[1].recv_phase);
  EXPECT_LT(m[1].recv_phase, m[2].recv_phase);
  EXPECT_EQ(m[2].recv_phase, m[3].recv_phase);
  EXPECT_LT(m[3].recv_phase, m[4].recv_phase);
  EXPECT_LT(m[5].recv_phase, m[6].recv_phase);
}

// RaceJudge, one run at a time (the analysis engine's way): the batch report
// once every quiet run of the point came first; nothing after forgetting it.
TEST(Races, JudgingRunsOneAtATimeGivesTheBatchReport) {
  const std::vector<sr::RunMatchSummary> runs = {run("n0", false, textbook(false, true), 2),
                                                 run("q0", true, textbook(false, false)),
                                                 run("n1", false, textbook(true, false), 3)};
  const auto batch = sr::detect_races(runs);
  sr::RaceJudge judge;
  judge.add(runs[1]);
  judge.add(runs[0]);
  judge.judge(runs[0]);
  judge.add(runs[2]);
  judge.judge(runs[2]);
  const auto streamed = judge.report();
  ASSERT_EQ(streamed.unintended.size(), batch.unintended.size());
  ASSERT_FALSE(batch.unintended.empty());
  for (std::size_t i = 0; i < batch.unintended.size(); ++i) {
    EXPECT_EQ(streamed.unintended[i].run_id, batch.unintended[i].run_id);
    EXPECT_EQ(streamed.unintended[i].occurrences, batch.unintended[i].occurrences);
    EXPECT_EQ(streamed.unintended[i].first.send_instance, batch.unintended[i].first.send_instance);
  }
  ASSERT_EQ(streamed.determinism.size(), 1u);
  EXPECT_EQ(streamed.determinism[0].runs, 3u);
  EXPECT_EQ(streamed.determinism[0].distinct_order_hashes, batch.determinism[0].distinct_order_hashes);
  judge.forget_baseline("np3");
  judge.judge(runs[0]);  // no baseline left to judge against
  EXPECT_EQ(judge.report().unintended.size(), batch.unintended.size());
}

TEST(Races, AWildcardProbeTookTheMessageItsRankReceivedNextFromTheReportedSource) {
  // Rank 0 probes MPI_ANY_SOURCE (site 2), the probe reports rank 2's
  // message, rank 0 receives it from rank 2 and then rank 1's (site 1).
  // Ranks 1 and 2 send at site 0. The probe took rank 2's message; rank 1's
  // could have been reported instead.
  st::RunTrace run = three_ranks_three_sites();
  auto push = [&](int r, st::Event e) { return push_event(run, r, e); };
  const st::EventRef send1 = push(1, event(st::OpClass::Send, 0, 0, 0, 1));
  const st::EventRef send2 = push(2, event(st::OpClass::Send, 0, 0, 0, 2));
  st::Event probe = event(st::OpClass::Probe, 2, st::kAnySource, st::kAnyTag, 3);
  probe.status_source = 2;
  probe.status_tag = 0;
  push(0, probe);
  const st::EventRef from2 = push(0, event(st::OpClass::Recv, 1, 2, 0, 4));
  const st::EventRef from1 = push(0, event(st::OpClass::Recv, 1, 1, 0, 5));
  st::Matching matching;
  matching.messages.push_back({send2, from2, from2, st::kCommWorld, 0, 8});
  matching.messages.push_back({send1, from1, from1, st::kCommWorld, 0, 8});

  const auto took = sr::probe_matches(run, matching);
  ASSERT_EQ(took.size(), 1u);
  EXPECT_EQ(took[0].recv_site_hash, 0x62u);  // the probe's site, not the receive's
  EXPECT_EQ(took[0].send_rank, 2);
  EXPECT_EQ(took[0].send_site_hash, 0x60u);
  EXPECT_TRUE(took[0].wildcard);
  // potential_matches' entry of the probe: the same match, rank 1 as its alternative.
  const auto w = sr::potential_matches(run, matching);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(sr::tuple_of(w[0].actual), sr::tuple_of(took[0]));
  ASSERT_EQ(w[0].alternatives.size(), 1u);
  EXPECT_EQ(w[0].alternatives[0].send_rank, 1);
  // Every run's summary carries it (noise runs too), for the match coverage.
  const auto noisy = sr::summarize_run("n0", "np3", "random", false, run, matching);
  ASSERT_EQ(noisy.probe_matches.size(), 1u);
  EXPECT_EQ(sr::tuple_of(noisy.probe_matches[0]), sr::tuple_of(took[0]));
  sr::MatchCoverage coverage;
  coverage.add_seen("n0", noisy.probe_matches);
  EXPECT_TRUE(coverage.seen(sr::tuple_of(took[0])));
  // A probe that reported nothing found (status_source -1) took nothing.
  run.ranks[0].events[0].status_source = -1;
  EXPECT_TRUE(sr::probe_matches(run, matching).empty());
}
