// Hitting probabilities against values computed by hand.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg/markov_chain.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

TEST(MarkovChain, BranchSplitsByCounts) {
  // 0 -> 1 (3), 0 -> 2 (1), 1 -> 3, 2 -> 3; 3 is a dead end.
  const std::vector<Transition> t{{0, 1, 3}, {0, 2, 1}, {1, 3, 5}, {2, 3, 2}};
  const MarkovChain c(4, t);
  EXPECT_DOUBLE_EQ(c.probability(0, 1), 0.75);
  const Hitting to1 = c.hitting(1);
  EXPECT_NEAR(to1.probability[0], 0.75, 1e-12);
  EXPECT_EQ(to1.cls[0], PathClass::Partial);
  EXPECT_EQ(to1.cls[2], PathClass::Zero);  // other branch
  EXPECT_EQ(to1.cls[3], PathClass::Zero);  // dead end
  const Hitting to3 = c.hitting(3);
  for (std::uint32_t s : {0u, 1u, 2u}) {
    EXPECT_EQ(to3.cls[s], PathClass::One) << s;
    EXPECT_DOUBLE_EQ(to3.probability[s], 1.0);
  }
}

TEST(MarkovChain, LoopWithExitAsInFigure4) {
  // 5 -> 7 (9), 5 -> 9 (1), 7 -> 8, 8 -> 5: P(8 ~> 5) = 1, P(5 ~> 8) = 0.9.
  const std::vector<Transition> t{{5, 7, 9}, {5, 9, 1}, {7, 8, 9}, {8, 5, 9}};
  const MarkovChain c(10, t);
  const Hitting to8 = c.hitting(8);
  EXPECT_NEAR(to8.probability[5], 0.9, 1e-12);
  EXPECT_EQ(to8.cls[5], PathClass::Partial);
  EXPECT_EQ(to8.cls[9], PathClass::Zero);
  const Hitting to5 = c.hitting(5);
  EXPECT_EQ(to5.cls[8], PathClass::One);
  EXPECT_EQ(to5.cls[7], PathClass::One);
  // Leaving the loop is certain although every pass may repeat it.
  const Hitting to9 = c.hitting(9);
  EXPECT_EQ(to9.cls[8], PathClass::One);
  EXPECT_DOUBLE_EQ(to9.probability[8], 1.0);
}

TEST(MarkovChain, GamblersRuinClosedForm) {
  // Random walk on 0..4, up with p = 2/3, down with q = 1/3; 0 loops on
  // itself forever, 4 is a dead end. P(i ~> 4) = (1 - r^i) / (1 - r^4), r = q/p = 1/2.
  std::vector<Transition> t{{0, 0, 1}};
  for (std::uint32_t i = 1; i <= 3; ++i) {
    t.push_back({i, i + 1, 2});
    t.push_back({i, i - 1, 1});
  }
  const MarkovChain c(5, t);
  const Hitting h = c.hitting(4);
  EXPECT_NEAR(h.probability[1], 8.0 / 15.0, 1e-12);
  EXPECT_NEAR(h.probability[2], 12.0 / 15.0, 1e-12);
  EXPECT_NEAR(h.probability[3], 14.0 / 15.0, 1e-12);
  EXPECT_EQ(h.cls[0], PathClass::Zero);
  EXPECT_EQ(h.cls[2], PathClass::Partial);
  // And the other way: P(i ~> 0) = 1 - P(i ~> 4) since the walk ends in one of them.
  const Hitting h0 = c.hitting(0);
  EXPECT_NEAR(h0.probability[2], 3.0 / 15.0, 1e-12);
}

TEST(MarkovChain, SelfLoopAtTheSourceStillReachesForSure) {
  const std::vector<Transition> t{{0, 0, 3}, {0, 1, 1}};
  const MarkovChain c(2, t);
  const Hitting h = c.hitting(1);
  EXPECT_EQ(h.cls[0], PathClass::One);
  EXPECT_DOUBLE_EQ(h.probability[0], 1.0);
  EXPECT_EQ(c.hitting(0).cls[1], PathClass::Zero);
}

TEST(MarkovChain, ClosedLoopThatNeverReachesTheDestination) {
  // 0 -> 1 (1), 0 -> 2 (1), 2 -> 2 forever, 1 -> 3: P(0 ~> 3) = 1/2.
  const std::vector<Transition> t{{0, 1, 1}, {0, 2, 1}, {2, 2, 7}, {1, 3, 1}};
  const MarkovChain c(4, t);
  const Hitting h = c.hitting(3);
  EXPECT_NEAR(h.probability[0], 0.5, 1e-12);
  EXPECT_EQ(h.cls[2], PathClass::Zero);
  EXPECT_EQ(h.cls[1], PathClass::One);
}

TEST(MarkovChain, NestedLoopsMatchHandSolution) {
  // 0 -> 1; 1 -> 1 (1), 1 -> 2 (1); 2 -> 0 (1), 2 -> 3 (3). Destination 3.
  // From 2: 3/4 exit, else back to 0 and through 1 to 2 again: h = 1.
  // Destination 0 from 2: 1/4 directly, never otherwise (3 is a dead end): 1/4;
  // from 1: 1/4 too (1 must go on to 2).
  const std::vector<Transition> t{{0, 1, 1}, {1, 1, 1}, {1, 2, 1}, {2, 0, 1}, {2, 3, 3}};
  const MarkovChain c(4, t);
  EXPECT_EQ(c.hitting(3).cls[0], PathClass::One);
  const Hitting h0 = c.hitting(0);
  EXPECT_NEAR(h0.probability[2], 0.25, 1e-12);
  EXPECT_NEAR(h0.probability[1], 0.25, 1e-12);
  EXPECT_EQ(h0.cls[1], PathClass::Partial);
}

TEST(MarkovChain, RepeatedTransitionsAreSummed) {
  const std::vector<Transition> t{{0, 1, 1}, {0, 2, 1}, {0, 1, 2}};
  const MarkovChain c(3, t);
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
