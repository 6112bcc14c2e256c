// Hitting probabilities against values computed by hand.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg/markov_chain.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

// A chain of `states` states over transitions written in place.
MarkovChain chain(std::size_t states, const std::vector<Transition>& transitions) { return {states, transitions}; }

// `from` reaches the destination of `h` for sure or never: the class, and the
// probability exactly 1 or 0 (both decided structurally).
void expect_sure(const Hitting& h, std::uint32_t from, PathClass cls) {
  ASSERT_NE(cls, PathClass::Partial);
  EXPECT_EQ(h.cls[from], cls) << "from " << from;
  EXPECT_DOUBLE_EQ(h.probability[from], cls == PathClass::One ? 1.0 : 0.0) << "from " << from;
}

// `from` reaches the destination of `h` with probability `p`, strictly between 0 and 1.
void expect_partial(const Hitting& h, std::uint32_t from, double p) {
  EXPECT_EQ(h.cls[from], PathClass::Partial) << "from " << from;
  EXPECT_NEAR(h.probability[from], p, 1e-12) << "from " << from;
}

TEST(MarkovChain, BranchSplitsByCounts) {
  // 0 -> 1 (3), 0 -> 2 (1), 1 -> 3, 2 -> 3; 3 is a dead end.
  const MarkovChain c = chain(4, {{0, 1, 3}, {0, 2, 1}, {1, 3, 5}, {2, 3, 2}});
  EXPECT_DOUBLE_EQ(c.probability(0, 1), 0.75);
  const Hitting to1 = c.hitting(1);
  expect_partial(to1, 0, 0.75);
  expect_sure(to1, 2, PathClass::Zero);  // other branch
  expect_sure(to1, 3, PathClass::Zero);  // dead end
  const Hitting to3 = c.hitting(3);
  for (std::uint32_t s : {0u, 1u, 2u}) expect_sure(to3, s, PathClass::One);
}

TEST(MarkovChain, LoopWithExitAsInFigure4) {
  // 5 -> 7 (9), 5 -> 9 (1), 7 -> 8, 8 -> 5: P(8 ~> 5) = 1, P(5 ~> 8) = 0.9.
  const MarkovChain c = chain(10, {{5, 7, 9}, {5, 9, 1}, {7, 8, 9}, {8, 5, 9}});
  expect_partial(c.hitting(8), 5, 0.9);
  expect_sure(c.hitting(8), 9, PathClass::Zero);
  expect_sure(c.hitting(5), 8, PathClass::One);
  expect_sure(c.hitting(5), 7, PathClass::One);
  // Leaving the loop is certain although every pass may repeat it.
  expect_sure(c.hitting(9), 8, PathClass::One);
}

TEST(MarkovChain, GamblersRuinClosedForm) {
  // Random walk on 0..4, up with p = 2/3, down with q = 1/3; 0 loops on
  // itself forever, 4 is a dead end. P(i ~> 4) = (1 - r^i) / (1 - r^4), r = q/p = 1/2.
  std::vector<Transition> t{{0, 0, 1}};
  for (std::uint32_t i = 1; i <= 3; ++i) {
    t.push_back({i, i + 1, 2});
    t.push_back({i, i - 1, 1});
  }
  const MarkovChain c = chain(5, t);
  const Hitting h = c.hitting(4);
  expect_partial(h, 1, 8.0 / 15.0);
  expect_partial(h, 2, 12.0 / 15.0);
  expect_partial(h, 3, 14.0 / 15.0);
  expect_sure(h, 0, PathClass::Zero);
  // And the other way: P(i ~> 0) = 1 - P(i ~> 4) since the walk ends in one of them.
  expect_partial(c.hitting(0), 2, 3.0 / 15.0);
}

TEST(MarkovChain, SelfLoopAtTheSourceStillReachesForSure) {
  const MarkovChain c = chain(2, {{0, 0, 3}, {0, 1, 1}});
  expect_sure(c.hitting(1), 0, PathClass::One);
  expect_sure(c.hitting(0), 1, PathClass::Zero);
}

TEST(MarkovChain, ClosedLoopThatNeverReachesTheDestination) {
  // 0 -> 1 (1), 0 -> 2 (1), 2 -> 2 forever, 1 -> 3: P(0 ~> 3) = 1/2.
  const Hitting h = chain(4, {{0, 1, 1}, {0, 2, 1}, {2, 2, 7}, {1, 3, 1}}).hitting(3);
  expect_partial(h, 0, 0.5);
  expect_sure(h, 2, PathClass::Zero);
  expect_sure(h, 1, PathClass::One);
}

TEST(MarkovChain, NestedLoopsMatchHandSolution) {
  // 0 -> 1; 1 -> 1 (1), 1 -> 2 (1); 2 -> 0 (1), 2 -> 3 (3). Destination 3.
  // From 2: 3/4 exit, else back to 0 and through 1 to 2 again: h = 1.
  // Destination 0 from 2: 1/4 directly, never otherwise (3 is a dead end): 1/4;
  // from 1: 1/4 too (1 must go on to 2).
  const MarkovChain c = chain(4, {{0, 1, 1}, {1, 1, 1}, {1, 2, 1}, {2, 0, 1}, {2, 3, 3}});
  expect_sure(c.hitting(3), 0, PathClass::One);
  const Hitting h0 = c.hitting(0);
  expect_partial(h0, 2, 0.25);
  expect_partial(h0, 1, 0.25);
}

TEST(MarkovChain, RepeatedTransitionsAreSummed) {
  const MarkovChain c = chain(3, {{0, 1, 1}, {0, 2, 1}, {0, 1, 2}});
  EXPECT_DOUBLE_EQ(c.probability(0, 1), 0.75);
}

TEST(MarkovChain, RejectsUnknownStates) {
  const std::vector<Transition> t{{0, 5, 1}};
  EXPECT_THROW(MarkovChain(3, t), std::invalid_argument);
  const MarkovChain c(2, {});
  EXPECT_THROW(c.hitting(2), std::out_of_range);
}

}  // namespace
}  // namespace scalefuzz::detectors::pdg
