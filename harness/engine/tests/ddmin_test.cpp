// ddmin (engine/ddmin.hpp) with fake oracles: what must stay, what may go.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "scalefuzz/engine/ddmin.hpp"

namespace se = scalefuzz::engine;

namespace {

// Fails when the subset holds every index of `needed`.
struct NeedsAll {
  std::set<std::size_t> needed;
  std::vector<std::vector<std::size_t>> calls;
  se::TestResult operator()(const std::vector<std::size_t>& subset) {
    calls.push_back(subset);
    for (std::size_t i : needed)
      if (!std::binary_search(subset.begin(), subset.end(), i)) return se::TestResult::Pass;
    return se::TestResult::Fail;
  }
};

}  // namespace

TEST(Ddmin, FindsTheTwoDecisionsAFailureNeedsAmongSixteen) {
  NeedsAll oracle{{3, 11}, {}};
  auto r = se::ddmin(16, std::ref(oracle), 200);
  EXPECT_EQ(r.minimal, (std::vector<std::size_t>{3, 11}));
  EXPECT_FALSE(r.exhausted);
  EXPECT_EQ(r.tests, oracle.calls.size());
  // Every subset tested at most once (the cache), each ascending.
  std::set<std::vector<std::size_t>> distinct(oracle.calls.begin(), oracle.calls.end());
  EXPECT_EQ(distinct.size(), oracle.calls.size());
  for (const auto& c : oracle.calls) EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
}

TEST(Ddmin, OneDecisionAndTheTrivialSets) {
  NeedsAll one{{6}, {}};
  EXPECT_EQ(se::ddmin(9, std::ref(one), 100).minimal, (std::vector<std::size_t>{6}));
  NeedsAll single{{0}, {}};
  auto r = se::ddmin(1, std::ref(single), 100);
  EXPECT_EQ(r.minimal, (std::vector<std::size_t>{0}));
  EXPECT_EQ(r.tests, 0u);  // the whole set is known to fail
  EXPECT_TRUE(se::ddmin(0, std::ref(single), 100).minimal.empty());
}

TEST(Ddmin, UnresolvedTestsDoNotCountAsFailures) {
  // Subsets without decision 2 cannot be judged (a forced run that
  // diverged); the failure needs 2 and 5.
  auto oracle = [](const std::vector<std::size_t>& s) {
    const bool has2 = std::binary_search(s.begin(), s.end(), 2);
    const bool has5 = std::binary_search(s.begin(), s.end(), 5);
    if (!has2) return se::TestResult::Unresolved;
    return has5 ? se::TestResult::Fail : se::TestResult::Pass;
  };
  EXPECT_EQ(se::ddmin(8, oracle, 100).minimal, (std::vector<std::size_t>{2, 5}));
}

TEST(Ddmin, BudgetStopsWithAFailingSet) {
  NeedsAll oracle{{1, 4, 9, 14}, {}};
  auto r = se::ddmin(16, std::ref(oracle), 3);
  EXPECT_TRUE(r.exhausted);
  EXPECT_LE(r.tests, 3u);
  // Whatever it returns still fails (it only ever keeps failing subsets).
  NeedsAll check{{1, 4, 9, 14}, {}};
  EXPECT_EQ(check(r.minimal), se::TestResult::Fail);
  auto full = se::ddmin(16, std::ref(oracle), 1000);
  EXPECT_EQ(full.minimal, (std::vector<std::size_t>{1, 4, 9, 14}));
}
