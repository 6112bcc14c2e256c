// PDG construction and LP-task determination on hand-made hangs.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg.hpp"
#include "trace_builders.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

using testing::make_rank;
using testing::pending;
using testing::RankPath;
using trace::OpClass;

// Call sites (stable hashes).
constexpr std::uint64_t I = 0x1001, B = 0x1002, R = 0x1003, X = 0x1004, S = 0x1005, A = 0x1006;
constexpr std::uint64_t L1 = 0x2001, L2 = 0x2002, R1 = 0x2003;

trace::RunTrace run_of(std::vector<RankPath> paths) {
  trace::RunTrace run;
  run.run_id = "test-run";
  const int world = static_cast<int>(paths.size());
  for (int r = 0; r < world; ++r) run.ranks.push_back(make_rank(r, world, paths[static_cast<std::size_t>(r)]));
  return run;
}

const PdgNode& node_of(const PdgResult& res, int rank) {
  for (const PdgNode& n : res.nodes) {
    if (std::find(n.ranks.begin(), n.ranks.end(), rank) != n.ranks.end()) return n;
  }
  throw std::runtime_error("rank not in any node");
}

std::size_t index_of(const PdgResult& res, int rank) { return static_cast<std::size_t>(&node_of(res, rank) - res.nodes.data()); }

bool has_edge(const PdgResult& res, int from_rank, int to_rank, EdgeKind kind) {
  const std::size_t a = index_of(res, from_rank), b = index_of(res, to_rank);
  return std::any_of(res.edges.begin(), res.edges.end(), [&](const PdgEdge& e) {
    return e.kind == kind && ((e.from == a && e.to == b) ||
                              (kind == EdgeKind::Undefined && e.from == b && e.to == a));
  });
}

}  // namespace

// Readable parameter names in gtest output.
void PrintTo(Variant v, std::ostream* os) { *os << to_string(v); }

namespace {

class BothVariants : public ::testing::TestWithParam<Variant> {
 protected:
  PdgOptions options() const {
    PdgOptions o;
    o.variant = GetParam();
    return o;
  }
};

// Eight tasks wait in a collective for one task still computing before it.
TEST_P(BothVariants, CollectiveWaitsOnTaskInComputation) {
  std::vector<RankPath> paths(9, RankPath{{I, B, R}, true, OpClass::Collective});
  paths[5] = RankPath{{I, B}, false, OpClass::Collective};
  const PdgResult res = analyze_progress(run_of(paths), options());
  ASSERT_EQ(res.nodes.size(), 2u);
  EXPECT_EQ(res.lp_tasks, std::vector<int>{5});
  EXPECT_TRUE(has_edge(res, 0, 5, EdgeKind::Progress));
  EXPECT_EQ(node_of(res, 0).ranks_text, "0-4,6-8");
  EXPECT_EQ(res.lp_site_rank, 5);
  EXPECT_EQ(res.lp_site, 1u);  // rank 5's local id of B
  EXPECT_EQ(res.lp_site_hash, B);
  EXPECT_EQ(node_of(res, 5).in_call, 0u);
  EXPECT_EQ(node_of(res, 0).in_call, 8u);
}

// The same with the task stuck in a receive (before the collective) on a
// peer that is itself in the collective.
TEST_P(BothVariants, CollectiveWaitsOnTaskStuckInReceive) {
  std::vector<RankPath> paths(9, RankPath{{I, X, R}, true, OpClass::Collective});
  paths[5] = RankPath{{I, X}, true, OpClass::Recv, 8};
  const PdgResult res = analyze_progress(run_of(paths), options());
  EXPECT_EQ(res.lp_tasks, std::vector<int>{5});
  EXPECT_TRUE(has_edge(res, 8, 5, EdgeKind::Progress));
  EXPECT_TRUE(has_edge(res, 5, 8, EdgeKind::PointToPoint));
}

// Figure 4: loops are resolved by the heuristic of §3.2.1 with the global
// model; per task the loop exit is seen only by the task that took it, so
// DIST leaves the pair undefined (why SEMI-DIST is more precise, §4.2.2).
TEST(Figure4, LoopHeuristicNeedsTheGlobalModel) {
  // Main loop 5 -> 7 -> 8 -> 5 left to 9 once; task c in 5, task d in 8.
  constexpr std::uint64_t s5 = 5, s7 = 7, s8 = 8, s9 = 9;
  std::vector<std::uint64_t> loops;
  for (int i = 0; i < 9; ++i) loops.insert(loops.end(), {s5, s7, s8});
  std::vector<std::uint64_t> c = loops, d = loops, e = loops;
  c.push_back(s5);                    // c waits in 5
  d.insert(d.end(), {s5, s7, s8});    // d is one more pass in 8
  e.insert(e.end(), {s5, s9});        // e left the loop: the exit edge
  const trace::RunTrace run = run_of({{c, true}, {d, true}, {e, false}});
  const PdgResult semi = analyze_progress(run);
  EXPECT_TRUE(has_edge(semi, 0, 1, EdgeKind::Progress));  // c -pd-> d: P(8,5) = 1, P(5,8) = 28/29
  const PdgEdge& cd = *std::find_if(semi.edges.begin(), semi.edges.end(), [](const PdgEdge& x) { return x.from == 0 && x.to == 1; });
  EXPECT_NEAR(*cd.p_forward, 28.0 / 29.0, 1e-12);
  EXPECT_DOUBLE_EQ(*cd.p_backward, 1.0);
  EXPECT_EQ(semi.lp_tasks, std::vector<int>{1});
  PdgOptions dist;
  dist.variant = Variant::Dist;
  EXPECT_TRUE(has_edge(analyze_progress(run, dist), 0, 1, EdgeKind::Undefined));
}

INSTANTIATE_TEST_SUITE_P(Pdg, BothVariants, ::testing::Values(Variant::SemiDist, Variant::Dist),
                         [](const auto& info) { return std::string(info.param == Variant::Dist ? "Dist" : "SemiDist"); });

// Figure 6: two LP candidates in different branches; the one that waits on a
// non-LP task (task 0) is discarded.
TEST(PointToPointElimination, Figure6) {
  std::vector<RankPath> paths(6, RankPath{{I, S, L1, L2}, true, OpClass::Collective});
  paths[4] = RankPath{{I, S, L1}, false};                // the LP task: computing
  paths[5] = RankPath{{I, S, R1}, true, OpClass::Recv, 0};  // waits on task 0
  PdgOptions o;
  o.elimination = P2pElimination::Paper;
  const PdgResult res = analyze_progress(run_of(paths), o);
  EXPECT_EQ(res.lp_tasks, std::vector<int>{4});
  EXPECT_EQ(res.eliminated_tasks, std::vector<int>{5});
  EXPECT_FALSE(node_of(res, 5).lp);
  EXPECT_TRUE(has_edge(res, 5, 0, EdgeKind::PointToPoint));
  EXPECT_EQ(res.lp_nodes.size(), 1u);
}

TEST(PointToPointElimination, AnySourceGivesNoDependence) {
  std::vector<RankPath> paths(6, RankPath{{I, S, L1, L2}, true, OpClass::Collective});
  paths[4] = RankPath{{I, S, L1}, false};
  paths[5] = RankPath{{I, S, R1}, true, OpClass::Recv, trace::kAnySource};
  const trace::RunTrace run = run_of(paths);
  const ProgressModel model = build_progress_model(run);
  EXPECT_TRUE(model.p2p.empty());
  EXPECT_EQ(model.any_source_waits, 1u);
  const PdgResult res = analyze_progress(model);
  EXPECT_EQ(res.lp_tasks, (std::vector<int>{4, 5}));  // two branches, nothing to eliminate
  EXPECT_TRUE(res.eliminated_tasks.empty());
}

TEST(PointToPointElimination, PendingRequestsOfAWait) {
  RankPath waiting{{I, S}, true, OpClass::Completion};
  waiting.pending = {pending(OpClass::Irecv, 0), pending(OpClass::Isend, 2),
                     pending(OpClass::Irecv, trace::kAnySource), pending(OpClass::Icollective, trace::kNoPeer)};
  std::vector<RankPath> paths(3, RankPath{{I, S}, false});
  paths[1] = waiting;
  const ProgressModel model = build_progress_model(run_of(paths));
  ASSERT_EQ(model.p2p.size(), 2u);
  EXPECT_EQ(model.p2p[0].task, 1);
  EXPECT_EQ(model.p2p[0].peer, 0);
  EXPECT_EQ(model.p2p[1].peer, 2);
  EXPECT_EQ(model.any_source_waits, 1u);
}

// A task waiting on a peer that is computing is not the least progressed,
// even when Table 1 cannot order them (both in a loop that never exited).
TEST(PointToPointElimination, StrictDiscardsWaitersOnComputingTasks) {
  // Ranks go around S (Sendrecv) -> A (Allreduce). Rank 2 stalls computing
  // after its second A; its ring neighbours wait in the third S on it; the
  // others wait in the third A.
  const std::vector<std::uint64_t> two{I, S, A, S, A};
  std::vector<std::uint64_t> three = two;
  three.insert(three.end(), {S, A});
  std::vector<std::uint64_t> in_s = two;
  in_s.push_back(S);
  std::vector<RankPath> paths(8, RankPath{three, true, OpClass::Collective});
  paths[2] = RankPath{two, false};
  paths[1] = RankPath{in_s, true, OpClass::Sendrecv, 2};
  paths[3] = RankPath{in_s, true, OpClass::Sendrecv, 2};
  const trace::RunTrace run = run_of(paths);

  PdgOptions paper;
  paper.elimination = P2pElimination::Paper;
  const PdgResult p = analyze_progress(run, paper);
  EXPECT_TRUE(has_edge(p, 1, 0, EdgeKind::Undefined));
  EXPECT_EQ(p.lp_tasks, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));  // all undefined: accurate, imprecise

  const PdgResult strict = analyze_progress(run);  // Strict is the default
  EXPECT_EQ(strict.lp_tasks, (std::vector<int>{0, 2, 4, 5, 6, 7}));
  EXPECT_EQ(strict.eliminated_tasks, (std::vector<int>{1, 3}));

  // The visit-count extension orders the groups of the loop: rank 2 alone.
  PdgOptions visits;
  visits.resolve_with_visit_counts = true;
  for (Variant v : {Variant::SemiDist, Variant::Dist}) {
    visits.variant = v;
    const PdgResult x = analyze_progress(run, visits);
    EXPECT_EQ(x.lp_tasks, std::vector<int>{2}) << to_string(v);
    EXPECT_EQ(node_of(x, 2).ranks.size(), 1u);
    EXPECT_EQ(node_of(x, 2).visits, 2u);
    EXPECT_EQ(node_of(x, 0).visits, 3u);
  }
}

TEST(PointToPointElimination, DeadlockCycleKeepsBothTasks) {
  std::vector<RankPath> paths(4, RankPath{{I, S, A}, true, OpClass::Collective});
  paths[0] = RankPath{{I, S, X}, true, OpClass::Recv, 1};
  paths[1] = RankPath{{I, S, X}, true, OpClass::Recv, 0};
  const PdgResult res = analyze_progress(run_of(paths));
  // X and A are different branches: both are candidates; 0 and 1 wait on
  // each other, so the point-to-point step keeps them.
  EXPECT_EQ(res.lp_tasks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(res.eliminated_tasks.empty());
  EXPECT_TRUE(has_edge(res, 0, 1, EdgeKind::PointToPoint));  // a loop on the X node
}

TEST(PointToPointElimination, NeverDiscardsEveryCandidate) {
  // One candidate group whose only task waits on a task in a collective
  // that is itself waiting for it: nothing else is left, so it stays.
  std::vector<RankPath> paths(3, RankPath{{I, X, R}, true, OpClass::Collective});
  paths[0] = RankPath{{I, X}, true, OpClass::Recv, 1};
  paths[1] = RankPath{{I, X, R, S}, false};  // computing: 0 waits on a computing task
  paths[2] = RankPath{{I, X, R, S}, false};
  const PdgResult res = analyze_progress(run_of(paths));
  EXPECT_EQ(res.lp_tasks, std::vector<int>{0});
  EXPECT_FALSE(res.notes.empty());
}

// Two tasks stuck independently in different branches: two LP groups.
TEST(LeastProgressed, TwoIndependentStalls) {
  std::vector<RankPath> paths(6, RankPath{{I, S, L1, L2}, true, OpClass::Collective});
  paths[1] = RankPath{{I, S, L1}, false};
  paths[4] = RankPath{{I, S, R1}, false};
  const PdgResult res = analyze_progress(run_of(paths));
  EXPECT_EQ(res.lp_tasks, (std::vector<int>{1, 4}));
  EXPECT_EQ(res.lp_nodes.size(), 2u);
  EXPECT_EQ(pdg_findings(res, "r").size(), 2u);
}

// Each row of Table 1 through the whole SEMI-DIST pipeline: task 0 in state
// i (1), task 1 in state j (2); other states: 3, 4; 0 is the start.
struct Row {
  const char* name;
  std::vector<Transition> transitions;
  Dependence expected;  // of t_i relative to t_j
};

ProgressModel two_tasks(const std::vector<Transition>& ts) {
  ProgressModel m;
  m.states.resize(5);
  m.states[0].is_start = true;
  for (std::uint64_t s = 1; s < 5; ++s) m.states[s].stable_hash = 0x100 + s;
  m.models.push_back({ts, 2});
  m.tasks = {TaskInfo{0, 1, 0, 0, true, false}, TaskInfo{1, 2, 0, 0, true, false}};
  return m;
}

Dependence pdg_dependence(const PdgResult& res) {
  for (const PdgEdge& e : res.edges) {
    if (e.kind == EdgeKind::Undefined) return Dependence::Undefined;
    if (e.kind == EdgeKind::Progress) return e.from == 0 ? Dependence::Forward : Dependence::Backward;
  }
  return Dependence::None;
}

void PrintTo(const Row& r, std::ostream* os) { *os << r.name; }

class Table1Rows : public ::testing::TestWithParam<Row> {};

TEST_P(Table1Rows, GivesTheTableDependence) {
  const PdgResult res = analyze_progress(two_tasks(GetParam().transitions));
  ASSERT_EQ(res.nodes.size(), 2u);
  ASSERT_EQ(res.nodes[0].ranks, std::vector<int>{0});
  EXPECT_EQ(pdg_dependence(res), GetParam().expected);
  switch (GetParam().expected) {  // LP: the node without outgoing dependence
    case Dependence::Forward: EXPECT_EQ(res.lp_tasks, std::vector<int>{1}); break;
    case Dependence::Backward: EXPECT_EQ(res.lp_tasks, std::vector<int>{0}); break;
    default: EXPECT_EQ(res.lp_tasks, (std::vector<int>{0, 1})); break;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Pdg, Table1Rows,
    ::testing::Values(
        Row{"Zero_Zero", {{0, 1, 1}, {0, 2, 1}}, Dependence::None},
        Row{"Zero_Partial", {{0, 2, 1}, {2, 1, 1}, {2, 3, 1}}, Dependence::Forward},
        Row{"Zero_One", {{0, 2, 1}, {2, 1, 1}}, Dependence::Forward},
        Row{"Partial_Zero", {{0, 1, 1}, {1, 2, 1}, {1, 3, 1}}, Dependence::Backward},
        Row{"Partial_Partial", {{0, 1, 1}, {1, 2, 1}, {1, 3, 1}, {2, 1, 1}, {2, 4, 1}}, Dependence::Undefined},
        Row{"Partial_One", {{0, 1, 1}, {1, 2, 1}, {1, 3, 1}, {2, 1, 1}}, Dependence::Forward},
        Row{"One_Zero", {{0, 1, 1}, {1, 2, 1}}, Dependence::Backward},
        Row{"One_Partial", {{0, 1, 1}, {1, 2, 1}, {2, 1, 1}, {2, 3, 1}}, Dependence::Backward},
        Row{"One_One", {{0, 1, 1}, {1, 2, 1}, {2, 1, 1}}, Dependence::Undefined}),
    [](const auto& info) { return std::string(info.param.name); });

// Table 2 through DIST: per-task views are united; SEMI-DIST sees the global model.
ProgressModel two_views(const std::vector<Transition>& view_i, const std::vector<Transition>& view_j) {
  ProgressModel m = two_tasks({});
  m.models = {{view_i, 1}, {view_j, 1}};
  m.tasks[1].model = 1;
  return m;
}

TEST(Table2Union, ConflictingViewsAreUndefined) {
  // Task in i saw S -> j -> i (so t_i waits for t_j); task in j saw S -> i -> j.
  PdgOptions dist;
  dist.variant = Variant::Dist;
  const PdgResult res = analyze_progress(two_views({{0, 2, 1}, {2, 1, 1}}, {{0, 1, 1}, {1, 2, 1}}), dist);
  EXPECT_EQ(pdg_dependence(res), Dependence::Undefined);
}

TEST(Table2Union, OneSidedViewDominates) {
  // Task in i never saw j (null); task in j saw S -> i -> j: t_j waits for t_i.
  PdgOptions dist;
  dist.variant = Variant::Dist;
  const PdgResult res = analyze_progress(two_views({{0, 1, 1}}, {{0, 1, 1}, {1, 2, 1}}), dist);
  EXPECT_EQ(pdg_dependence(res), Dependence::Backward);
  EXPECT_EQ(res.lp_tasks, std::vector<int>{0});
}

TEST(Table2Union, NullLocallyButNotGlobally) {
  // i -> 3 seen by one task, 3 -> j by the other: only the global model links i to j.
  const ProgressModel m = two_views({{0, 1, 1}, {1, 3, 1}}, {{0, 3, 1}, {3, 2, 1}});
  PdgOptions dist;
  dist.variant = Variant::Dist;
  EXPECT_EQ(pdg_dependence(analyze_progress(m, dist)), Dependence::None);
  const PdgResult semi = analyze_progress(m);
  EXPECT_EQ(pdg_dependence(semi), Dependence::Backward);
  ASSERT_EQ(semi.edges.size(), 1u);
  EXPECT_DOUBLE_EQ(*semi.edges[0].p_forward, 0.0);   // P(j ~> i)
  EXPECT_DOUBLE_EQ(*semi.edges[0].p_backward, 1.0);  // P(i ~> j)
}

TEST(ProgressModelBuilder, UnifiesCallSitesAcrossRanksByStableHash) {
  RankPath forward{{I, B, R}, true};
  RankPath backward = forward;
  backward.reverse_site_ids = true;  // rank 1 numbers its sites R=0, B=1, I=2
  const ProgressModel m = build_progress_model(run_of({forward, backward}));
  ASSERT_EQ(m.states.size(), 4u);  // start + 3 sites
  EXPECT_EQ(m.models.size(), 1u);  // identical models once unified
  EXPECT_EQ(m.models[0].tasks, 2u);
  EXPECT_EQ(m.tasks[0].state, m.tasks[1].state);
  EXPECT_EQ(m.tasks[0].site_id, 2u);
  EXPECT_EQ(m.tasks[1].site_id, 0u);
}

TEST(ProgressModelBuilder, MissingRanksAndBadRecords) {
  trace::RunTrace run = run_of({RankPath{{I, B}, true}, RankPath{{I, B}, true}, RankPath{{I, B}, true}});
  run.ranks[1] = trace::RankTrace{};  // no trace
  run.ranks[2].markov.edges.push_back({0, 99, 1, 0});  // names a site outside the table
  const ProgressModel m = build_progress_model(run);
  EXPECT_EQ(m.tasks.size(), 2u);
  ASSERT_EQ(m.warnings.size(), 2u);
  EXPECT_NE(m.warnings[0].find("call-site id 99"), std::string::npos);
  EXPECT_NE(m.warnings[1].find("without a trace"), std::string::npos);
  ProgressModelBuilder b;
  b.add_rank(run.ranks[0]);
  EXPECT_THROW(b.add_rank(run.ranks[0]), std::invalid_argument);
  EXPECT_THROW(b.add_rank(trace::RankTrace{}), std::invalid_argument);
}

TEST(ProgressModelBuilder, StateFromEventsWithoutLiveStateAndStartState) {
  trace::RunTrace run = run_of({RankPath{{I, B, R}, true}, RankPath{}});
  run.ranks[0].live.reset();
  trace::Event e{};
  e.seq = 1;
  e.callsite = 1;  // B
  e.op_class = static_cast<std::uint8_t>(OpClass::Recv);
  e.peer = 1;
  run.ranks[0].events.push_back(e);  // t_exit_ns == 0: still inside
  run.ranks[0].last_event_in_progress = true;
  const ProgressModel m = build_progress_model(run);
  EXPECT_EQ(m.states[m.tasks[0].state].stable_hash, B);
  EXPECT_TRUE(m.tasks[0].in_call);
  EXPECT_EQ(m.tasks[1].state, kStartState);
  ASSERT_EQ(m.p2p.size(), 1u);
  EXPECT_EQ(m.p2p[0].peer, 1);
}

TEST(Analyze, EmptyRunHasNoLpTask) {
  const PdgResult res = analyze_progress(trace::RunTrace{});
  EXPECT_TRUE(res.lp_tasks.empty());
  EXPECT_TRUE(pdg_findings(res, "r").empty());
  EXPECT_NE(res.dot.find("digraph"), std::string::npos);
}

}  // namespace
}  // namespace scalefuzz::detectors::pdg
