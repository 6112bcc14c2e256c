// Every equation of DMTracker on hand-made movements and chains.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/dmtracker.hpp"

using namespace scalefuzz::detectors::dmtracker;

namespace {

constexpr std::uint64_t kSend = 100, kFwd = 101, kSink = 102, kAllred = 103;

Movement net(std::uint64_t site, int from, std::uint64_t src, std::uint64_t src_alloc, int to, std::uint64_t dst,
             std::uint64_t dst_alloc, std::uint64_t t, std::uint64_t len = 64) {
  Movement m;
  m.kind = OpKind::Net;
  m.site = site;
  m.src = BufferRange{from, src, len, src_alloc};
  m.dst = BufferRange{to, dst, len, dst_alloc};
  m.t_read = t;
  m.t_write = t + 1;
  return m;
}

ChainGroup group_of(std::vector<Symbol> type, std::vector<double> u, std::size_t freq) {
  ChainGroup g;
  g.type = std::move(type);
  g.op_uniqueness = std::move(u);
  for (double x : g.op_uniqueness) g.uniqueness += x;
  g.chains.resize(freq);
  return g;
}

Symbol sym(std::uint64_t site, std::uint64_t a = 0, std::uint64_t b = 0) { return Symbol{OpKind::Net, site, a, b}; }

}  // namespace

TEST(DmtrackerUniqueness, Equation2PerKindAndEquation1Sums) {
  Parameters p;
  Movement m;
  m.kind = OpKind::Copy;
  EXPECT_EQ(uniqueness(m, p), 1.0);
  m.kind = OpKind::Net;
  EXPECT_EQ(uniqueness(m, p), 2.0);  // M = 2
  m.kind = OpKind::Coll;
  EXPECT_EQ(uniqueness(m, p), 2.0);
  m.kind = OpKind::Pack;
  m.segments = 4;
  EXPECT_EQ(uniqueness(m, p), 4.0);  // min(N, n)
  m.segments = 37;
  EXPECT_EQ(uniqueness(m, p), 10.0);  // N = 10 caps it
  m.kind = OpKind::Unpack;
  m.segments = 0;
  EXPECT_EQ(uniqueness(m, p), 1.0);

  std::vector<Movement> moves = {net(kSend, 0, 0x1000, 7, 1, 0x2000, 8, 10), net(kFwd, 1, 0x2000, 8, 2, 0x3000, 9, 20)};
  moves.push_back(moves[1]);
  moves[2].kind = OpKind::Pack;
  moves[2].segments = 3;
  moves[2].src = BufferRange{2, 0x3000, 64, 9};
  moves[2].dst = BufferRange{2, 0x9000, 64, 11};
  moves[2].t_read = moves[2].t_write = 30;
  auto chains = build_chains(moves);
  ASSERT_EQ(chains.size(), 1u);
  auto g = group_chains(moves, chains, p);
  EXPECT_EQ(g.groups[0].uniqueness, 2.0 + 2.0 + 3.0);  // Eq. 1
}

TEST(DmtrackerChains, IntraAndInterProcessLinking) {
  // 0 -> 1 (into B), 1 forwards B -> 2, 2 forwards -> 3: one chain of three messages.
  std::vector<Movement> moves = {
      net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, 10),
      net(kFwd, 1, 0x2000, 2, 2, 0x3000, 2, 20),
      net(kFwd, 2, 0x3000, 2, 3, 0x4000, 2, 30),
  };
  auto chains = build_chains(moves);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0].moves, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(chains[0].start_rank, 0);
}

TEST(DmtrackerChains, OverwrittenRangeEndsTheChainAndPartialOverlapLinks) {
  std::vector<Movement> moves = {
      net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, 10, 64),
      net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, 20, 64),  // overwrites B before anyone read it
      net(kFwd, 1, 0x2020, 2, 2, 0x3000, 3, 30, 16),   // reads part of B: links to the second write
  };
  auto chains = build_chains(moves);
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_EQ(chains[0].moves, (std::vector<std::size_t>{0}));
  EXPECT_EQ(chains[1].moves, (std::vector<std::size_t>{1, 2}));
}

TEST(DmtrackerChains, ForkGivesOneChainPerLeafAndReadsDoNotLinkAcrossProcesses) {
  std::vector<Movement> moves = {
      net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, 10),
      net(kFwd, 1, 0x2000, 2, 2, 0x3000, 3, 20),
      net(kFwd, 1, 0x2000, 2, 3, 0x3000, 3, 30),
      net(kFwd, 2, 0x2000, 9, 3, 0x5000, 3, 40),  // same address, other process: not linked
  };
  auto chains = build_chains(moves);
  ASSERT_EQ(chains.size(), 3u);
  EXPECT_EQ(chains[0].moves, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(chains[1].moves, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(chains[2].moves, (std::vector<std::size_t>{3}));
  EXPECT_EQ(chains[2].start_rank, 2);
}

TEST(DmtrackerChains, InPlaceCollectiveReadsItsOldValue) {
  Movement c;
  c.kind = OpKind::Coll;
  c.site = kAllred;
  c.src = BufferRange{1, 0x2000, 8, 2};
  c.dst = BufferRange{1, 0x2000, 8, 2};
  c.t_read = c.t_write = 50;
  std::vector<Movement> moves = {net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, 10), c};
  auto chains = build_chains(moves);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0].moves, (std::vector<std::size_t>{0, 1}));
}

// A 2-D array of 8 x 8 doubles at 0x1000, columns as a vector type (extent
// 7 x 64 + 8 bytes, stride 456 here). The halo column unpacked into column 0
// and column 1 packed next overlap as ranges but not in bytes; packing the
// column that was unpacked links. A strided write leaves the row received
// before to its chain, and a contiguous write over it replaces it.
TEST(DmtrackerChains, StridedRangesLinkOnlyWhenTheyTouchTheSameFields) {
  constexpr std::uint64_t kCol = 7 * 64 + 8, kUnpack = 200, kPackCol0 = 201, kPackCol1 = 202, kSendRow = 203;
  auto strided = [&](OpKind kind, std::uint64_t site, std::uint64_t src, std::uint64_t src_stride, std::uint64_t dst,
                     std::uint64_t dst_stride, std::uint64_t t) {
    Movement m;
    m.kind = kind;
    m.site = site;
    m.src = BufferRange{0, src, kCol, 1, 0, src_stride};
    m.dst = BufferRange{0, dst, kCol, 1, 0, dst_stride};
    m.t_read = t;
    m.t_write = t + 1;
    return m;
  };
  std::vector<Movement> moves = {
      net(kSend, 1, 0x9000, 2, 0, 0x1000, 1, 10, 64),                        // 0: row 0 received
      strided(OpKind::Unpack, kUnpack, 0x5000, 0, 0x1000, kCol, 20),          // 1: halo into column 0
      strided(OpKind::Pack, kPackCol1, 0x1008, kCol, 0x6000, 0, 30),          // 2: column 1: not what 1 wrote
      strided(OpKind::Pack, kPackCol0, 0x1000, kCol, 0x7000, 0, 40),          // 3: column 0: links to 1
      net(kSendRow, 0, 0x1010, 1, 1, 0xA000, 2, 50, 16),                      // 4: row 0 bytes 16..31: unpack or row?
  };
  auto chains = build_chains(moves);
  auto has = [&](std::vector<std::size_t> path) {
    return std::any_of(chains.begin(), chains.end(), [&](const Chain& c) { return c.moves == path; });
  };
  EXPECT_TRUE(has({1, 3}));
  // Column 1 shares a byte with row 0 only (with contiguous ranges it linked
  // to the later unpack).
  EXPECT_TRUE(has({0, 2}));
  // Row 0's bytes 16..31 hold what the message wrote (the column's pieces
  // are at 0, 64 ...), yet which bytes a strided write touched is unknown:
  // the later unpack is taken, not the row it left in place.
  EXPECT_TRUE(has({1, 4}));
  // A contiguous write over the whole span replaces the strided one.
  moves.push_back(net(kSend, 1, 0x9000, 2, 0, 0x1000, 1, 60, kCol));       // 5
  moves.push_back(strided(OpKind::Pack, kPackCol0, 0x1000, kCol, 0x7000, 0, 70));  // 6
  chains = build_chains(moves);
  EXPECT_TRUE(has({5, 6}));
}

TEST(DmtrackerLcs, LongestCommonSubstringIsContiguousAndWeighted) {
  auto p = group_of({sym(1), sym(2), sym(3), sym(4), sym(5)}, {2, 2, 2, 2, 2}, 10);
  auto c = group_of({sym(9), sym(3), sym(4), sym(5)}, {2, 2, 2, 2}, 1);
  auto cp = longest_common_substring(c, p);
  EXPECT_EQ(cp.length, 3u);
  EXPECT_EQ(cp.a_pos, 1u);
  EXPECT_EQ(cp.b_pos, 2u);
  EXPECT_EQ(cp.uniqueness, 6.0);
  // Not a subsequence: 1 _ 3 shares only one contiguous symbol.
  auto d = group_of({sym(1), sym(7), sym(3)}, {2, 2, 2}, 1);
  EXPECT_EQ(longest_common_substring(d, p).length, 1u);
  // Weighted: a single pack of 10 segments outweighs two messages.
  auto w1 = group_of({sym(1), sym(2), sym(8), Symbol{OpKind::Pack, 6, 0, 0}}, {2, 2, 2, 10}, 1);
  auto w2 = group_of({sym(1), sym(2), sym(9), Symbol{OpKind::Pack, 6, 0, 0}}, {2, 2, 2, 10}, 5);
  auto cw = longest_common_substring(w1, w2);
  EXPECT_EQ(cw.uniqueness, 10.0);
  EXPECT_EQ(cw.a_pos, 3u);
  auto none = group_of({sym(42)}, {2}, 1);
  EXPECT_EQ(longest_common_substring(none, p).length, 0u);
}

TEST(DmtrackerScores, Equations6To8) {
  auto p = group_of({sym(1), sym(2), sym(3)}, {2, 2, 2}, 97);
  auto c = group_of({sym(1), sym(2)}, {2, 2}, 3);
  auto cp = longest_common_substring(c, p);
  double s = similarity(c, p, cp);
  EXPECT_DOUBLE_EQ(s, 4.0 / (4.0 + 6.0 - 4.0));  // Eq. 6
  double r = rareness(3, 97);
  EXPECT_DOUBLE_EQ(r, 94.0 / 97.0);  // Eq. 7
  EXPECT_DOUBLE_EQ(abnormality(s, r), 2.0 / (1.0 / s + 1.0 / r));  // Eq. 8
  EXPECT_EQ(rareness(97, 97), 0.0);   // "no point ... if Frequency(C) is larger"
  EXPECT_EQ(rareness(98, 97), 0.0);
  EXPECT_EQ(abnormality(0.0, 0.9), 0.0);
}

TEST(DmtrackerFc, SelectionUsesUniquenessAndShareThresholds) {
  Parameters p;
  Grouping g;
  g.groups.push_back(group_of({sym(1), sym(2), sym(3)}, {2, 2, 2}, 90));  // U 6, 90 %: invariant
  g.groups.push_back(group_of({sym(4), sym(5), sym(6)}, {2, 2, 2}, 9));   // U 6, 9 %: too rare
  g.groups.push_back(group_of({sym(7), sym(8)}, {2, 2}, 1000));            // U 4: below threshold
  g.groups.push_back(group_of({sym(1), sym(2)}, {2, 2}, 1));               // U 4
  g.groups.push_back(group_of({Symbol{OpKind::Pack, 3, 0, 0}}, {5}, 1));   // U 5, 1 %
  auto fc = select_fc_invariants(g, p);
  EXPECT_EQ(fc, (std::vector<std::size_t>{0}));
}

TEST(DmtrackerFc, BrokenChainIsAViolationWithContextMatch) {
  // Pipeline 0->1->2->3->4 from the source buffer (alloc 1) through stage
  // buffers (alloc 2). In 3 of 40 rounds rank 3 forwards from a scratch
  // buffer (alloc 5) at the same call site: the chain breaks there.
  std::vector<Movement> moves;
  std::uint64_t t = 0;
  for (int round = 0; round < 40; ++round) {
    bool bug = round % 13 == 5;
    moves.push_back(net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, t += 10));
    moves.push_back(net(kFwd, 1, 0x2000, 2, 2, 0x2000, 2, t += 10));
    moves.push_back(net(kFwd, 2, 0x2000, 2, 3, 0x2000, 2, t += 10));
    if (bug)
      moves.push_back(net(kFwd, 3, 0x7000, 5, 4, 0x2000, 2, t += 10));
    else
      moves.push_back(net(kFwd, 3, 0x2000, 2, 4, 0x2000, 2, t += 10));
  }
  Parameters p;
  auto chains = build_chains(moves);
  auto g = group_chains(moves, chains, p);
  auto fc = select_fc_invariants(g, p);
  ASSERT_EQ(fc.size(), 1u);
  EXPECT_EQ(g.groups[fc[0]].frequency(), 37u);
  auto v = fc_violations(moves, chains, g, fc, p);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(g.groups[v[0].group].type.size(), 3u);  // the truncated chain 0->1->2->3
  EXPECT_EQ(v[0].instances, 3u);
  EXPECT_EQ(v[0].context_matches, 3u);              // rank 3's forward right after it, same call site
  EXPECT_GT(v[0].abnormality, 0.7);
  ASSERT_NE(v[0].example_context_move, SIZE_MAX);
  EXPECT_EQ(moves[v[0].example_context_move].src.alloc_site, 5u);
  // The clean pipeline has nothing to report.
  std::vector<Movement> fixed = moves;
  for (Movement& m : fixed)
    if (m.src.alloc_site == 5) m.src = BufferRange{3, 0x2000, 64, 2};
  auto c2 = build_chains(fixed);
  auto g2 = group_chains(fixed, c2, p);
  EXPECT_TRUE(fc_violations(fixed, c2, g2, select_fc_invariants(g2, p), p).empty());
}

TEST(DmtrackerFc, DissimilarOrFrequentGroupsAreNotViolations) {
  Parameters p;
  std::vector<Movement> moves;
  std::vector<Chain> chains;
  Grouping g;
  g.groups.push_back(group_of({sym(1), sym(2), sym(3)}, {2, 2, 2}, 10));
  g.groups.push_back(group_of({sym(1)}, {2}, 1));                 // similarity 1/3: abnormality < 0.7
  g.groups.push_back(group_of({sym(1), sym(2), sym(9)}, {2, 2, 2}, 9));  // rareness 0.1
  for (auto& grp : g.groups)
    for (auto& c : grp.chains) c = 0;
  chains.push_back(Chain{{}, 0, 0});
  EXPECT_TRUE(fc_violations(moves, chains, g, {0}, p).empty());
}

TEST(DmtrackerCd, Equations3To5) {
  // Two groups; rank 0 starts 3 of group 0 and 1 of group 1.
  std::vector<Chain> chains = {{{0}, 0, 1}, {{1}, 0, 2}, {{2}, 0, 3}, {{3}, 0, 4}, {{4}, 1, 5}, {{5}, 2, 6}};
  Grouping g;
  g.groups.resize(2);
  g.group_of = {0, 0, 0, 1, 0, 1};
  auto cd = chain_distributions(chains, g, {0, 1, 2});
  EXPECT_DOUBLE_EQ(cd[0][0], 0.75);  // Eq. 3
  EXPECT_DOUBLE_EQ(cd[0][1], 0.25);
  EXPECT_DOUBLE_EQ(cd[1][0], 1.0);
  EXPECT_DOUBLE_EQ(cd[2][1], 1.0);
  EXPECT_DOUBLE_EQ(manhattan(cd[0], cd[1]), 0.5);  // Eq. 4
  EXPECT_DOUBLE_EQ(manhattan(cd[1], cd[2]), 2.0);
  auto d1 = distance_k(cd, 1);  // Eq. 5: nearest other
  EXPECT_DOUBLE_EQ(d1[0], 0.5);
  EXPECT_DOUBLE_EQ(d1[1], 0.5);
  EXPECT_DOUBLE_EQ(d1[2], 1.5);
  auto d2 = distance_k(cd, 2);  // second nearest
  EXPECT_DOUBLE_EQ(d2[0], 1.5);
  EXPECT_DOUBLE_EQ(d2[2], 2.0);
  // t_from keeps the chains starting later only.
  auto late = chain_distributions(chains, g, {0}, 4);
  EXPECT_DOUBLE_EQ(late[0][1], 1.0);
}

namespace {
// Chains of the CD tests with their groups: chains[i] is in g.group_of[i].
struct GroupedChains {
  explicit GroupedChains(std::size_t groups) { g.groups.resize(groups); }
  // A chain of `rank` starting at `t`, in group `group`.
  void add(int rank, std::uint64_t t, std::size_t group) {
    chains.push_back(Chain{{}, rank, t});
    g.group_of.push_back(group);
  }
  std::vector<Chain> chains;
  Grouping g;
};
}  // namespace

TEST(DmtrackerCd, StuckRankIsTheOnlyOutlierAndIdenticalRanksGiveNone) {
  // 8 ranks with the same mix of two groups; rank 5 mostly retries (group 2).
  GroupedChains c(3);
  std::uint64_t t = 0;
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 40; ++i)
      c.add(r, ++t, i % 4 == 0 ? 1 : (i % 4 == 1 ? 2 : 0));  // every rank retries now and then
  Parameters p;
  auto clean = cd_outliers(c.chains, c.g, {}, p);
  EXPECT_EQ(clean.k, 2u);  // n/4
  EXPECT_TRUE(clean.outliers.empty());
  for (int i = 0; i < 200; ++i) c.add(5, ++t, 2);
  auto res = cd_outliers(c.chains, c.g, {}, p);
  ASSERT_EQ(res.outliers.size(), 1u);
  EXPECT_EQ(res.outliers[0].rank, 5);
  EXPECT_EQ(res.outliers[0].top_group, 2u);
  EXPECT_GT(res.outliers[0].distance_k, 5 * res.average);
  // A subset without rank 5 (master/worker style) has none.
  EXPECT_TRUE(cd_outliers(c.chains, c.g, {0, 1, 2, 3, 4, 6, 7}, p).outliers.empty());
  // Known-good runs where rank 5 was just as far away suppress it.
  std::vector<double> good(8, 0.0);
  good[5] = res.outliers[0].distance_k;
  EXPECT_TRUE(cd_outliers(c.chains, c.g, {}, p, good).outliers.empty());
}

TEST(DmtrackerCd, LastPhaseHalvingFindsALateOutlier) {
  // Identical ranks for a long time; in the last eighth rank 3 only retries.
  GroupedChains c(2);
  std::uint64_t t = 0;
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 2; ++i) c.add(r, t, 1);  // every rank retried twice at the start
  for (int i = 0; i < 1000; ++i)
    for (int r = 0; r < 8; ++r) {
      c.add(r, t, 0);
      ++t;
    }
  for (int i = 0; i < 60; ++i) c.add(3, t++, 1);
  Parameters p;
  p.halving_rounds = 0;
  // Over the whole run rank 3 has 62 of 1062 chains in group 1: 0.11 away,
  // the others are identical (distance 0): the paper's rule flags it anyway.
  auto whole = cd_outliers(c.chains, c.g, {}, p);
  ASSERT_EQ(whole.outliers.size(), 1u);
  EXPECT_EQ(whole.outliers[0].round, 0);
  // With a noisy background the whole-run view hides it; halving finds it.
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 20 + 10 * r; ++i)
      c.add(r, static_cast<std::uint64_t>(i), 1);
  auto hidden = cd_outliers(c.chains, c.g, {}, p);
  EXPECT_TRUE(hidden.outliers.empty());
  p.halving_rounds = 4;
  auto found = cd_outliers(c.chains, c.g, {}, p);
  ASSERT_EQ(found.outliers.size(), 1u);
  EXPECT_EQ(found.outliers[0].rank, 3);
  EXPECT_GT(found.outliers[0].round, 0);
}

TEST(DmtrackerCd, AProcessWithARoleOfItsOwnIsNotAnOutlier) {
  // Rank 0 is the source of a pipeline: it alone starts group 1 chains.
  GroupedChains c(2);
  std::uint64_t t = 0;
  for (int i = 0; i < 100; ++i) c.add(0, ++t, 1);
  for (int r = 0; r < 8; ++r) c.add(r, ++t, 0);
  Parameters p;
  auto res = cd_outliers(c.chains, c.g, {}, p);
  EXPECT_GT(res.distance_k[0], p.outlier_factor * res.average);  // far away by the paper's rule alone
  EXPECT_TRUE(res.outliers.empty());
}

namespace {
// A pipeline 0->1->2->3->4 as in BrokenChainIsAViolationWithContextMatch;
// in the rounds where `bug(round)` holds rank 3 forwards a scratch buffer.
template <class Bug>
std::vector<Movement> pipeline(int rounds, Bug bug) {
  std::vector<Movement> moves;
  std::uint64_t t = 0;
  for (int round = 0; round < rounds; ++round) {
    moves.push_back(net(kSend, 0, 0x1000, 1, 1, 0x2000, 2, t += 10));
    moves.push_back(net(kFwd, 1, 0x2000, 2, 2, 0x2000, 2, t += 10));
    moves.push_back(net(kFwd, 2, 0x2000, 2, 3, 0x2000, 2, t += 10));
    moves.push_back(bug(round) ? net(kFwd, 3, 0x7000, 5, 4, 0x2000, 2, t += 10)
                               : net(kFwd, 3, 0x2000, 2, 4, 0x2000, 2, t += 10));
  }
  return moves;
}
}  // namespace

TEST(DmtrackerKnownGood, TypeKeyIsTheChainTypeNotItsFrequency) {
  ChainGroup a = group_of({sym(1, 2, 3), sym(4, 5, 6)}, {2, 2}, 10);
  ChainGroup b = group_of({sym(1, 2, 3), sym(4, 5, 6)}, {2, 2}, 99);
  ChainGroup c = group_of({sym(4, 5, 6), sym(1, 2, 3)}, {2, 2}, 10);
  ChainGroup d = group_of({sym(1, 2, 3), Symbol{OpKind::Pack, 4, 5, 6}}, {2, 2}, 10);
  EXPECT_EQ(type_key(a), type_key(b));
  EXPECT_NE(type_key(a), type_key(c));  // order matters
  EXPECT_NE(type_key(a), type_key(d));  // kind matters
}

TEST(DmtrackerKnownGood, GoodRunsInvariantAppliesWhenTheRunsOwnSelectionMissesIt) {
  Parameters p;
  // Known-good run: the pipeline alone; its chain is the FC-invariant.
  KnownGood kg;
  auto good = pipeline(40, [](int) { return false; });
  auto good_chains = build_chains(good);
  auto good_groups = group_chains(good, good_chains, p);
  kg.learn(good_groups, select_fc_invariants(good_groups, p), cd_outliers(good_chains, good_groups, {}, p), 9);
  EXPECT_EQ(kg.runs, 1u);
  ASSERT_EQ(kg.invariant_types.size(), 1u);
  // The run under test also does eight other relays of 50 three-hop chains
  // each (11.4 % of the unique chains each): the pipeline's 37 complete
  // chains are 8.4 %, under the 10 % share, so the run's own selection does
  // not make it an invariant and misses the bug.
  auto moves = pipeline(40, [](int round) { return round % 13 == 5; });
  std::uint64_t t = 100000;
  for (std::uint64_t k = 0; k < 8; ++k)
    for (int i = 0; i < 50; ++i) {
      std::uint64_t buf = 0x100000 * (k + 1);
      moves.push_back(net(200 + k, 5, buf, 20, 6, buf, 20, t += 10));
      moves.push_back(net(300 + k, 6, buf, 20, 7, buf, 20, t += 10));
      moves.push_back(net(400 + k, 7, buf, 20, 8, buf, 20, t += 10));
    }
  auto chains = build_chains(moves);
  auto g = group_chains(moves, chains, p);
  auto own = select_fc_invariants(g, p);
  EXPECT_EQ(own.size(), 8u);  // the relays only
  for (const Violation& v : fc_violations(moves, chains, g, own, p)) EXPECT_EQ(v.context_matches, 0u);
  // With the known-good invariant the truncated 0->1->2->3 chain is a
  // violation, with rank 3's scratch forward as the context match.
  auto fc = kg.invariants_in(g);
  ASSERT_EQ(fc.size(), 1u);
  auto v = fc_violations(moves, chains, g, fc, p, kg.normal_in(g));
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(g.groups[v[0].group].type.size(), 3u);
  EXPECT_EQ(v[0].context_matches, 3u);
  EXPECT_GT(v[0].abnormality, 0.7);
  EXPECT_EQ(moves[v[0].example_context_move].src.alloc_site, 5u);
}

TEST(DmtrackerKnownGood, ChainTypesOfGoodRunsAreNeverViolations) {
  Parameters p;
  // The rare variant is part of normal behaviour: known-good runs had it too.
  auto moves = pipeline(40, [](int round) { return round % 13 == 5; });
  auto chains = build_chains(moves);
  auto g = group_chains(moves, chains, p);
  auto fc = select_fc_invariants(g, p);
  ASSERT_FALSE(fc_violations(moves, chains, g, fc, p).empty());
  KnownGood kg;
  kg.learn(g, fc, cd_outliers(chains, g, {}, p), 5);
  EXPECT_TRUE(fc_violations(moves, chains, g, kg.invariants_in(g), p, kg.normal_in(g)).empty());
}

TEST(DmtrackerKnownGood, DistanceBaselinePerRunSizeAndRank) {
  KnownGood kg;
  Grouping g;
  CdResult cd;
  cd.ranks = {0, 2, 3};
  cd.distance_k = {0.5, 0.25, 0.75};
  kg.learn(g, {}, cd, 4);
  cd.distance_k = {0.1, 0.9, 0.1};
  kg.learn(g, {}, cd, 4);
  EXPECT_EQ(kg.distance_k_at(4), (std::vector<double>{0.5, 0.0, 0.9, 0.75}));  // largest per rank
  EXPECT_TRUE(kg.distance_k_at(8).empty());
}

TEST(DmtrackerChains, AFreedAndReallocatedAddressDoesNotLink) {
  // Rank 1 receives into a heap block, frees it; a new block at the same
  // address is filled by the program and sent on: no data flowed from the
  // first message into the second (MPI-CorrBench's allgather3.c pattern).
  std::vector<Movement> moves = {net(kSend, 0, 0x1000, 7, 1, 0x2000, 8, 10), net(kFwd, 1, 0x2000, 8, 2, 0x3000, 9, 20)};
  moves[0].dst.block = 41;
  moves[1].src.block = 42;  // same address and site, another allocation
  EXPECT_EQ(build_chains(moves).size(), 2u);
  moves[1].src.block = 41;  // the same block: the chain goes on
  EXPECT_EQ(build_chains(moves).size(), 1u);
}
