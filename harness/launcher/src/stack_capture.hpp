// Stacks of frozen (SIGSTOPped) rank processes, taken with eu-stack.
#pragma once

#include <filesystem>
#include <utility>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// Runs `eu-stack [-i -s] -p PID` for every (rank, pid), at most `parallelism`
// at once, writing stacks_dir/rank-N.txt (stdout and stderr of eu-stack).
// A missing eu-stack or a failed capture yields a RankStack whose text says
// why, never an exception.
std::vector<RankStack> capture_stacks(const std::vector<std::pair<int, long>>& rank_pids,
                                      const std::filesystem::path& stacks_dir, bool source_lines,
                                      int parallelism);

}  // namespace scalefuzz::harness
