// Figure 3 (LocalizeFaultyProcesses / BacktraceCommDep) on hand-made failure
// events: every situation of Figure 4, original vs propagated errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {
namespace {

using V = std::vector<int>;

// A graph of `n` ranks with one record each, so failure events can point at record 0.
struct Fixture {
  EventGraph graph;
  trace::RunTrace run;
  std::vector<FailureEvent> fe;

  explicit Fixture(int n) {
    graph.nranks = n;
    graph.info.assign(static_cast<std::size_t>(n), std::vector<EventInfo>(1));
    run.ranks.resize(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) {
      fe.push_back({r, FailureKind::None, std::nullopt, -1, ""});
    }
  }
  void waits(int r, int on) { fe[static_cast<std::size_t>(r)] = {r, FailureKind::Communication, 0, on, "waits"}; }
  void calc(int r) { fe[static_cast<std::size_t>(r)] = {r, FailureKind::Calculation, std::nullopt, -1, "stopped"}; }
  void overflow(int r) { graph.info[static_cast<std::size_t>(r)][0].overflow = true; }
  BacktrackResult run_it() const { return localize_faulty_processes(graph, run, fe); }
};

TEST(Figure3, CalculationFaultBlamesOnlyTheStoppedProcess) {
  Fixture f(5);
  f.waits(0, 2);
  f.waits(1, 0);  // propagated through 0
  f.calc(2);
  f.waits(3, 2);
  // rank 4 finished normally
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({2}));
  ASSERT_EQ(r.origins.size(), 1u);
  EXPECT_EQ(r.origins[0].situation, Situation::CalculationFault);
  EXPECT_EQ(r.origins[0].ranks, V({2}));
}

TEST(Figure3, CalculationFaultAtTopLevelIsFaulty) {
  Fixture f(2);
  f.calc(0);  // nobody waits on it; it still terminated unexpectedly
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({0}));
}

TEST(Figure3, NonOccurredEventBlamesWaiterAndNormallyTerminatedProcess) {
  Fixture f(4);
  f.waits(0, 1);  // 0 -> 1 -> 3 (3 terminated normally)
  f.waits(1, 3);
  f.waits(2, 0);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({1, 3}));  // r and s of Figure 4(b); 0 and 2 only propagated
  ASSERT_EQ(r.origins.size(), 1u);
  EXPECT_EQ(r.origins[0].situation, Situation::NonOccurredEvent);
  EXPECT_EQ(r.origins[0].ranks, V({1, 3}));
}

TEST(Figure3, DirectNonOccurredEventFromTopLevel) {
  Fixture f(2);
  f.waits(0, 1);  // 1 finished, 0 waits on it
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({0, 1}));
}

TEST(Figure3, DeadlockCycleIncludingRankZero) {
  Fixture f(5);
  f.waits(0, 1);
  f.waits(1, 2);
  f.waits(2, 0);
  f.waits(3, 1);  // waits on the cycle: propagated
  f.waits(4, 3);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({0, 1, 2}));
  ASSERT_EQ(r.origins.size(), 1u);
  EXPECT_EQ(r.origins[0].situation, Situation::Deadlock);
  EXPECT_EQ(r.origins[0].ranks, V({0, 1, 2}));
}

TEST(Figure3, DeadlockEnteredFromOutsideTheCycle) {
  Fixture f(4);
  f.waits(0, 2);  // 0 -> 2 -> 3 -> 2: 0 is outside the cycle
  f.waits(1, 0);
  f.waits(2, 3);
  f.waits(3, 2);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({2, 3}));
  ASSERT_EQ(r.origins.size(), 1u);
  EXPECT_EQ(r.origins[0].ranks, V({2, 3}));
}

TEST(Figure3, SelfDependencyIsADeadlockOfOne) {
  Fixture f(2);
  f.waits(1, 1);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({1}));
  EXPECT_EQ(r.origins.at(0).situation, Situation::Deadlock);
}

TEST(Figure3, OverflowPairIsBufferOverflow) {
  Fixture f(3);
  f.waits(0, 1);  // the sender's failure event is its overflowing send
  f.waits(1, 0);  // the receiver's is the receive that overflowed
  f.overflow(0);
  f.overflow(1);
  f.waits(2, 1);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({0, 1}));
  ASSERT_EQ(r.origins.size(), 1u);
  EXPECT_EQ(r.origins[0].situation, Situation::BufferOverflow);
}

TEST(Figure3, IndependentOriginsAreAllReported) {
  Fixture f(6);
  f.calc(1);
  f.waits(0, 1);
  f.waits(2, 3);
  f.waits(3, 2);
  f.waits(4, 5);  // 5 finished normally
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({1, 2, 3, 4, 5}));
  ASSERT_EQ(r.origins.size(), 3u);
  EXPECT_EQ(r.origins[0].situation, Situation::CalculationFault);
  EXPECT_EQ(r.origins[1].situation, Situation::Deadlock);
  EXPECT_EQ(r.origins[2].situation, Situation::NonOccurredEvent);
}

TEST(Figure3, UnknownDependencyReportsTheWaiter) {
  Fixture f(3);
  f.waits(0, -1);  // e.g. MPI_ANY_SOURCE receive with no message
  f.waits(1, 0);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({0}));
}

TEST(Figure3, NothingFailedNothingFaulty) {
  Fixture f(3);
  auto r = f.run_it();
  EXPECT_TRUE(r.faulty.empty());
  EXPECT_TRUE(r.origins.empty());
}

TEST(Figure3, LongChainIsHandledWithoutRecursionLimits) {
  const int n = 200000;
  Fixture f(n);
  for (int r = 0; r + 1 < n; ++r) f.waits(r, r + 1);
  f.calc(n - 1);
  auto r = f.run_it();
  EXPECT_EQ(r.faulty, V({n - 1}));
}

// Figure 3 transcribed literally (recursive, P_dep as a set, "return p" as p + 1).
struct ReferenceFigure3 {
  const Fixture& f;
  std::set<int> pe;
  std::vector<Origin> origins;

  long backtrace(int p, std::set<int> pdep, std::vector<int> order) {
    const FailureEvent& fe = f.fe[static_cast<std::size_t>(p)];
    if (pe.count(p) || (fe.kind == FailureKind::None && pdep.empty())) return 0;
    if (fe.kind == FailureKind::Calculation) {
      origins.push_back({Situation::CalculationFault, {p}});
      return -1;
    }
    if (fe.kind == FailureKind::None) {
      origins.push_back({Situation::NonOccurredEvent, {order.back(), p}});
      return -2;
    }
    if (pdep.count(p)) {
      Origin o{Situation::Deadlock, std::vector<int>(std::find(order.begin(), order.end(), p), order.end())};
      for (int r : o.ranks)
        if (f.graph.info[static_cast<std::size_t>(r)][0].overflow) o.situation = Situation::BufferOverflow;
      origins.push_back(o);
      return p + 1;
    }
    const int q = fe.ptr;
    if (q < 0) {
      origins.push_back({Situation::NonOccurredEvent, {p}});
      return -1;
    }
    std::set<int> qdep = pdep;
    qdep.insert(p);
    order.push_back(p);
    long retval = backtrace(q, qdep, order);
    if (retval != 0) pe.insert(q);
    if (retval == p + 1) retval = 0;
    else if (retval < 0) ++retval;
    return retval;
  }
  std::vector<int> run() {
    for (int p = 0; p < f.graph.nranks; ++p)
      if (backtrace(p, {}, {}) != 0) pe.insert(p);
    return std::vector<int>(pe.begin(), pe.end());
  }
};

TEST(Figure3, MatchesTheLiteralRecursiveAlgorithmOnRandomGraphs) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    Fixture f(n);
    for (int r = 0; r < n; ++r) {
      switch (rng() % 6) {
        case 0: break;  // finished normally
        case 1: f.calc(r); break;
        case 2: f.waits(r, -1); break;
        default: f.waits(r, static_cast<int>(rng() % static_cast<unsigned>(n))); break;
      }
      if (rng() % 5 == 0) f.overflow(r);
    }
    ReferenceFigure3 ref{f, {}, {}};
    const auto expected = ref.run();
    const auto got = f.run_it();
    ASSERT_EQ(got.faulty, expected) << "trial " << trial;
    ASSERT_EQ(got.origins.size(), ref.origins.size()) << "trial " << trial;
    for (std::size_t i = 0; i < got.origins.size(); ++i) {
      EXPECT_EQ(got.origins[i].situation, ref.origins[i].situation) << "trial " << trial;
      EXPECT_EQ(got.origins[i].ranks, ref.origins[i].ranks) << "trial " << trial;
    }
  }
}

TEST(Figure3, RejectsFailureEventsOfAnotherSize) {
  Fixture f(3);
  f.fe.pop_back();
  EXPECT_THROW(f.run_it(), std::invalid_argument);
}

}  // namespace
}  // namespace scalefuzz::detectors::mpipd
