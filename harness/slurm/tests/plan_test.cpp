#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <cerrno>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/slurm/client.hpp"
#include "scalefuzz/slurm/plan.hpp"

namespace scalefuzz::slurm {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

harness::RunSpec run(int np, const std::string& mode) {
  harness::RunSpec r;
  r.nprocs = np;
  r.noise.mode = *noise::mode_from_string(mode);
  r.run_id = "np" + std::to_string(np) + "-" + mode;
  return r;
}

TEST(SlurmPlan, ArraysSplitByPhaseProcessCountAndMaxArraySize) {
  std::vector<harness::RunSpec> runs;
  for (int i = 0; i < 5; ++i) runs.push_back(run(4, "system"));
  for (int i = 0; i < 3; ++i) runs.push_back(run(8, "none"));
  for (int i = 0; i < 2; ++i) runs.push_back(run(4, "application"));
  order_for_submission(runs);
  EXPECT_EQ(runs.front().nprocs, 4);
  EXPECT_EQ(runs[5].nprocs, 8);
  EXPECT_EQ(runs.back().noise.mode, noise::Mode::Application);
  std::vector<long> all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto arrays = plan_arrays(runs, all, 4);
  // np4 first phase: 0-3 (chunk 0), 4 (chunk 1); np8: 5-7 split at 8? no: 5,6,7 in chunk 1;
  // application np4: 8,9 in chunk 2.
  ASSERT_EQ(arrays.size(), 4u);
  EXPECT_EQ(arrays[0].array_inx(0), "0-3");
  EXPECT_EQ(arrays[0].offset, 0);
  EXPECT_EQ(arrays[1].array_inx(2), "0%2");
  EXPECT_EQ(arrays[1].offset, 4);
  EXPECT_EQ(arrays[2].nprocs, 8);
  EXPECT_EQ(arrays[2].array_inx(0), "1-3");
  EXPECT_THAT(arrays[2].run_indices(), ElementsAre(5, 6, 7));
  EXPECT_EQ(arrays[3].phase, Phase::Application);
  EXPECT_EQ(arrays[3].array_inx(0), "0-1");
  for (const auto& a : arrays)
    for (long id : a.task_ids) EXPECT_LT(id, 4);
  // A resubmission of scattered runs.
  auto some = plan_arrays(runs, {1, 3, 2}, 1001);
  ASSERT_EQ(some.size(), 1u);
  EXPECT_EQ(some[0].array_inx(0), "1-3");
  EXPECT_EQ(plan_arrays(runs, {0, 2, 4}, 1001)[0].array_inx(3), "0,2,4%3");
  EXPECT_THROW(plan_arrays(runs, {10}, 4), std::out_of_range);
}

TEST(SlurmPlan, BatchScriptQuotesEverything) {
  ArrayPlan a;
  a.offset = 2002;
  a.nprocs = 4;
  a.task_ids = {0, 1};
  const std::string script = batch_script("c", "/opt/sf/scalefuzz", "/tmp/o'ut $(touch x) `y`;\nz", a);
  EXPECT_THAT(script, HasSubstr("exec '/opt/sf/scalefuzz' task '/tmp/o'\\''ut $(touch x) `y`;\nz' \"$((2002 + SLURM_ARRAY_TASK_ID))\"\n"));
  EXPECT_EQ(script.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_EQ(sh_quote(""), "''");
  EXPECT_EQ(sh_quote("a'b"), "'a'\\''b'");
}

TEST(SlurmPlan, TimeLimitsInMinutes) {
  EXPECT_EQ(time_limit_minutes(""), 0u);
  EXPECT_EQ(time_limit_minutes("10"), 10u);
  EXPECT_EQ(time_limit_minutes("1:30"), 2u);
  EXPECT_EQ(time_limit_minutes("0:01"), 1u);
  EXPECT_EQ(time_limit_minutes("01:00:00"), 60u);
  EXPECT_EQ(time_limit_minutes("1-00"), 1440u);
  EXPECT_EQ(time_limit_minutes("1-2:30"), 1590u);
  EXPECT_EQ(time_limit_minutes("2-00:00:30"), 2881u);
}

TEST(SlurmPlan, TaskStatesMapToOutcomes) {
  using harness::OutcomeKind;
  TaskStatus s;
  s.job_id = 12;
  s.task_id = 3;
  auto kind = [&](TaskState st) {
    s.state = st;
    auto o = outcome_without_result(s);
    return o ? o->kind : OutcomeKind::Ok;
  };
  EXPECT_FALSE(outcome_without_result(TaskStatus{12, 3, TaskState::Running, 0, "", ""}));
  EXPECT_FALSE(outcome_without_result(TaskStatus{12, 3, TaskState::Pending, 0, "", ""}));
  EXPECT_EQ(kind(TaskState::Timeout), OutcomeKind::Hang);
  EXPECT_EQ(kind(TaskState::Cancelled), OutcomeKind::Cancelled);
  EXPECT_EQ(kind(TaskState::NodeFail), OutcomeKind::Infrastructure);
  EXPECT_EQ(kind(TaskState::Preempted), OutcomeKind::Infrastructure);
  EXPECT_EQ(kind(TaskState::Completed), OutcomeKind::Infrastructure);  // ended without outcome.json
  EXPECT_EQ(kind(TaskState::OutOfMemory), OutcomeKind::Crashed);
  s.state = TaskState::Timeout;
  EXPECT_THAT(outcome_without_result(s)->detail, HasSubstr("12_3"));
  EXPECT_TRUE(harness::is_rerunnable(OutcomeKind::Cancelled));
  EXPECT_TRUE(harness::is_rerunnable(OutcomeKind::Infrastructure));
  EXPECT_FALSE(harness::is_rerunnable(OutcomeKind::Hang));
}

// Every option the campaign loader accepts in scheduler.extra_args is set on
// the libslurm request (no option accepted and then dropped).
TEST(SlurmPlan, EverySupportedSbatchOptionApplies) {
  for (const auto& name : harness::supported_sbatch_options()) {
    job_desc_msg_t desc;
    slurm_init_job_desc_msg(&desc);
    const std::string option = name.back() == '=' ? name + (name == "--mem=" || name == "--mem-per-cpu=" || name == "--nice=" ? "4" : "x") : name;
    EXPECT_NO_THROW(apply_sbatch_option(&desc, option)) << option;
  }
  job_desc_msg_t desc;
  slurm_init_job_desc_msg(&desc);
  apply_sbatch_option(&desc, "--mem=2G");
  EXPECT_EQ(desc.pn_min_memory, 2048u);
  apply_sbatch_option(&desc, "--nodelist=sf1");
  EXPECT_STREQ(desc.req_nodes, "sf1");
  apply_sbatch_option(&desc, "--exclusive");
  EXPECT_EQ(desc.shared, JOB_SHARED_NONE);
  EXPECT_THROW(apply_sbatch_option(&desc, "--wrap=rm -rf /"), std::invalid_argument);
  EXPECT_THROW(apply_sbatch_option(&desc, "--mem=lots"), std::invalid_argument);
}

}  // namespace
}  // namespace scalefuzz::slurm

TEST(SlurmClientRetry, SubmissionRetriesWhatSbatchRetriesFifteenTimes) {
  using scalefuzz::slurm::submit_retry_delay_s;
  for (int transient : {static_cast<int>(ESLURM_ERROR_ON_DESC_TO_RECORD_COPY), static_cast<int>(ESLURM_NODES_BUSY),
                        EAGAIN}) {
    EXPECT_EQ(submit_retry_delay_s(transient, 0), 1u) << transient;
    EXPECT_EQ(submit_retry_delay_s(transient, 14), 15u) << transient;
    EXPECT_EQ(submit_retry_delay_s(transient, 15), 0u) << transient << ": sbatch gives up after 15 retries";
  }
  EXPECT_EQ(submit_retry_delay_s(ESLURM_INVALID_PARTITION_NAME, 0), 0u);  // final at once
  EXPECT_EQ(submit_retry_delay_s(ESLURM_ACCESS_DENIED, 0), 0u);
}
