// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
// Failure-Inducing Input", IEEE TSE 28(2), 2002): ddmin shrinks a failing
// set of changes (here: the decisions a run forced) to a 1-minimal subset
// that still fails. The oracle is abstract so the algorithm is tested with
// a fake one; exploration (explore.hpp) uses a forced run.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace scalefuzz::engine {

// Zeller's three test outcomes: the failure shows (x), it does not (v), or
// the test could not tell (?: a forced run that diverged, a launch error).
enum class TestResult { Fail, Pass, Unresolved };

struct DdminResult {
  std::vector<std::size_t> minimal;  // indices into the original set, ascending
  std::size_t tests = 0;             // oracle calls made (cached subsets are not retested)
  bool exhausted = false;            // the test budget ran out: `minimal` fails but may not be 1-minimal
};

// ddmin over the indices 0..n-1 (the whole set must fail; it is not
// retested). `test` is called with ascending index subsets; at most
// `max_tests` calls.
DdminResult ddmin(std::size_t n, const std::function<TestResult(const std::vector<std::size_t>&)>& test,
                  std::size_t max_tests);

}  // namespace scalefuzz::engine
