#include <gtest/gtest.h>

#include "scalefuzz/detectors/races.hpp"

namespace sr = scalefuzz::detectors::races;
namespace st = scalefuzz::trace;

namespace {

// Routine call-site hashes: routine A sends/receives, routine B sends/receives.
constexpr std::uint64_t kSendA = 0xA5, kRecvA = 0xA7, kSendB = 0xB5, kRecvB = 0xB7;

sr::ObservedMatch match(std::uint64_t recv_site, std::uint64_t send_site, int send_rank, int recv_rank,
                        std::uint64_t recv_seq = 1) {
  sr::ObservedMatch m;
  m.recv_site_hash = recv_site;
  m.send_site_hash = send_site;
  m.recv_site_id = static_cast<std::uint32_t>(recv_site & 0xF);
  m.send_site_id = static_cast<std::uint32_t>(send_site & 0xF);
  m.send_rank = send_rank;
  m.recv_rank = recv_rank;
  m.tag = 7;
  m.recv_seq = recv_seq;
  return m;
}

sr::RunMatchSummary run(std::string id, bool quiet, std::vector<sr::ObservedMatch> matches,
                        std::uint64_t hash = 1, std::string point = "np4") {
  sr::RunMatchSummary r;
  r.run_id = std::move(id);
  r.point = std::move(point);
  r.noise_label = quiet ? "none" : "system-scale1.0";
  r.quiet = quiet;
  r.matches = std::move(matches);
  r.order_hash = hash;
  return r;
}

std::string name(const std::string&, int rank, std::uint32_t site) {
  return "site" + std::to_string(site) + "@r" + std::to_string(rank);
}

}  // namespace

TEST(Races, CrossRoutineMatchUnseenInQuietRunsIsUnintended) {
  std::vector<sr::RunMatchSummary> runs = {
      run("q0", true, {match(kRecvA, kSendA, 0, 1), match(kRecvB, kSendB, 2, 1)}),
      run("q1", true, {match(kRecvA, kSendA, 3, 1), match(kRecvB, kSendB, 0, 1)}),
      // Under noise, routine A's receive got routine B's message.
      run("n0", false, {match(kRecvA, kSendB, 2, 1, 5), match(kRecvA, kSendB, 3, 1, 4), match(kRecvB, kSendA, 0, 1)}),
  };
  auto report = sr::detect_races(runs);
  ASSERT_EQ(report.unintended.size(), 2u);
  const auto& u = report.unintended[0].first.recv_site_hash == kRecvA ? report.unintended[0] : report.unintended[1];
  EXPECT_EQ(u.run_id, "n0");
  EXPECT_EQ(u.noise_label, "system-scale1.0");
  EXPECT_EQ(u.occurrences, 2u);
  EXPECT_EQ(u.first.recv_seq, 4u);  // earliest occurrence
  EXPECT_EQ(u.first.send_site_hash, kSendB);

  auto findings = sr::race_findings(report, name);
  // All three runs share one order hash, so no nondeterminism note: only the two matches.
  ASSERT_EQ(findings.size(), 2u);
  for (const auto& f : findings) EXPECT_EQ(f.kind, "unintended-match");
}

TEST(Races, SameRoutinePairsUnderNoiseAreNotFindings) {
  std::vector<sr::RunMatchSummary> runs = {
      run("q0", true, {match(kRecvA, kSendA, 0, 1), match(kRecvB, kSendB, 2, 1)}),
      run("n0", false, {match(kRecvA, kSendA, 2, 1), match(kRecvB, kSendB, 0, 1)}),
  };
  auto report = sr::detect_races(runs);
  EXPECT_TRUE(report.unintended.empty());
  auto findings = sr::race_findings(report, name);
  EXPECT_TRUE(findings.empty());
}

TEST(Races, PointWithoutQuietRunIsNotJudged) {
  std::vector<sr::RunMatchSummary> runs = {run("n0", false, {match(kRecvA, kSendB, 2, 1)}, 1, "np8")};
  auto report = sr::detect_races(runs);
  EXPECT_TRUE(report.unintended.empty());
  ASSERT_EQ(report.points_without_baseline.size(), 1u);
  EXPECT_EQ(report.points_without_baseline[0], "np8");
}

TEST(Races, BaselineIsPerCampaignPoint) {
  std::vector<sr::RunMatchSummary> runs = {
      run("q4", true, {match(kRecvA, kSendB, 0, 1)}, 1, "np4"),
      run("n8", false, {match(kRecvA, kSendB, 0, 1)}, 1, "np8"),
      run("q8", true, {match(kRecvA, kSendA, 0, 1)}, 1, "np8"),
  };
  auto report = sr::detect_races(runs);
  ASSERT_EQ(report.unintended.size(), 1u);
  EXPECT_EQ(report.unintended[0].run_id, "n8");
}

TEST(Races, DistinctOrderHashesMarkNondeterministicPoints) {
  std::vector<sr::RunMatchSummary> runs = {
      run("a", true, {match(kRecvA, kSendA, 0, 1)}, 11, "det"),
      run("b", true, {match(kRecvA, kSendA, 0, 1)}, 11, "det"),
      run("c", true, {match(kRecvA, kSendA, 0, 1)}, 11, "nondet"),
      run("d", true, {match(kRecvA, kSendA, 2, 1)}, 12, "nondet"),
  };
  auto report = sr::detect_races(runs);
  auto findings = sr::race_findings(report, name);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "nondeterministic-matching");
  EXPECT_EQ(findings[0].severity, scalefuzz::detectors::Severity::Info);
  EXPECT_EQ(findings[0].details["campaign_point"], "nondet");
  EXPECT_EQ(findings[0].details["distinct_order_hashes"], 2);
}

TEST(Races, FindingNamesBothRoutinesRanksAndNoise) {
  std::vector<sr::RunMatchSummary> runs = {
      run("q0", true, {match(kRecvA, kSendA, 0, 1)}),
      run("n0", false, {match(kRecvA, kSendB, 3, 1)}),
  };
  auto findings = sr::race_findings(sr::detect_races(runs), name);
  ASSERT_EQ(findings.size(), 1u);
  const auto& f = findings[0];
  EXPECT_EQ(f.kind, "unintended-match");
  EXPECT_EQ(f.run_id, "n0");
  EXPECT_EQ(f.details["receive_routine"], "site7@r1");
  EXPECT_EQ(f.details["send_routine"], "site5@r3");
  EXPECT_EQ(f.details["noise"], "system-scale1.0");
  EXPECT_EQ(f.ranks, (std::vector<int>{3, 1}));
  EXPECT_NE(f.title.find("site7@r1"), std::string::npos);
}

TEST(Races, SummarizeRunUsesStableSiteHashes) {
  st::RunTrace trace;
  trace.ranks.resize(2);
  for (int r = 0; r < 2; ++r) {
    auto& rank = trace.ranks[static_cast<std::size_t>(r)];
    rank.rank = r;
    rank.world_size = 2;
    rank.sites.resize(2);
    rank.sites[0].id = 0;
    rank.sites[0].stable_hash = 1000 + static_cast<std::uint64_t>(r);
    rank.sites[1].id = 1;
    rank.sites[1].stable_hash = 2000 + static_cast<std::uint64_t>(r);
  }
  st::Event send{};
  send.seq = 1;
  send.callsite = 1;
  send.op_class = static_cast<std::uint8_t>(st::OpClass::Send);
  st::Event recv{};
  recv.seq = 1;
  recv.callsite = 0;
  recv.op_class = static_cast<std::uint8_t>(st::OpClass::Recv);
  trace.ranks[0].events = {send};
  trace.ranks[1].events = {recv};
  st::Matching matching;
  st::MatchedMessage m;
  m.send = {0, 0};
  m.recv_post = {1, 0};
  m.recv_done = {1, 0};
  m.tag = 3;
  matching.messages = {m};
  matching.order_hash = 99;
  matching.unmatched_recvs = {{1, 0}};
  auto s = sr::summarize_run("r", "p", "none", true, trace, matching);
  ASSERT_EQ(s.matches.size(), 1u);
  EXPECT_EQ(s.matches[0].send_site_hash, 2000u);
  EXPECT_EQ(s.matches[0].recv_site_hash, 1001u);
  EXPECT_EQ(s.matches[0].send_rank, 0);
  EXPECT_EQ(s.matches[0].recv_rank, 1);
  EXPECT_EQ(s.order_hash, 99u);
  EXPECT_EQ(s.unmatched_recvs, 1u);
}
