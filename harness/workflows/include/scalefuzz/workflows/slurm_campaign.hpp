// The steps of a SLURM campaign's workflow (slurm_campaign.cpp) that the
// commands share, exposed for their unit tests
// (tests/slurm_campaign_test.cpp, with a fake engine::BatchScheduler).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "scalefuzz/engine/scheduler.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/slurm/submission.hpp"

namespace scalefuzz::workflows {

// The run indices a resubmission takes: not active in the scheduler, and
// without a result or with a rerunnable one (cancelled, infrastructure).
std::vector<long> runs_to_resubmit(const std::filesystem::path& out, const std::vector<harness::RunSpec>& runs,
                                   const slurm::Submission& submission,
                                   const std::map<std::pair<std::uint32_t, long>, slurm::TaskStatus>& states);

// Plans the arrays of `selected` as the submission's next attempt, writes
// their batch scripts under OUT/slurm/scripts and submits them through
// `scheduler` (nullptr: a dry run, nothing submitted); the application
// phase's arrays depend on (afterany) the first phase's. Each array is
// recorded in submission.json as soon as the scheduler accepted it.
void submit_arrays(const std::filesystem::path& out, slurm::Submission& submission,
                   const std::vector<harness::RunSpec>& runs, const std::vector<long>& selected,
                   const harness::SchedulerSpec& settings, engine::BatchScheduler* scheduler);

}  // namespace scalefuzz::workflows
