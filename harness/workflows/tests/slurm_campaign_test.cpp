// The SLURM workflow's submission steps through the engine's BatchScheduler
// interface, with a fake scheduler that records what it is given.
#include "scalefuzz/workflows/slurm_campaign.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/slurm/plan.hpp"

namespace scalefuzz::workflows {
namespace {

namespace fs = std::filesystem;

class FakeScheduler : public engine::BatchScheduler {
 public:
  const char* name() const override { return "fake"; }
  std::uint32_t max_array_size() override { return 1001; }
  std::uint32_t submit(const slurm::JobRequest& request) override {
    requests.push_back(request);
    return next_id++;
  }
  std::map<std::pair<std::uint32_t, long>, slurm::TaskStatus> task_states(const std::set<std::uint32_t>&) override {
    return {};
  }
  std::vector<slurm::JobRequest> requests;
  std::uint32_t next_id = 100;
};

// A run of `np` ranks; application-centric ones form the second phase.
harness::RunSpec run(int np, const std::string& mode) {
  static int count = 0;
  harness::RunSpec r;
  r.run_id = "run" + std::to_string(count++);
  r.noise.mode = *noise::mode_from_string(mode);
  r.nprocs = np;
  return r;
}

class SlurmCampaign : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/scalefuzz-slurm-campaign-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    out = tmpl;
    // submit_environment() passes SLURM_CONF on; any existing file will do.
    std::ofstream(out / "slurm.conf") << "# not read\n";
    ::setenv("SLURM_CONF", (out / "slurm.conf").c_str(), 1);
    submission.campaign = "c";
    submission.scalefuzz = "/usr/bin/scalefuzz";
  }
  void TearDown() override { fs::remove_all(out); }
  fs::path out;
  slurm::Submission submission;
};

TEST_F(SlurmCampaign, ApplicationArraysWaitForTheFirstPhaseAndEveryArrayIsRecorded) {
  std::vector<harness::RunSpec> runs = {run(2, "application"), run(2, "system"), run(4, "none")};
  slurm::order_for_submission(runs);
  harness::SchedulerSpec settings;
  settings.partition = "debug";
  settings.max_parallel = 2;
  FakeScheduler scheduler;
  submit_arrays(out, submission, runs, {0, 1, 2}, settings, &scheduler);

  ASSERT_EQ(scheduler.requests.size(), 3u);
  EXPECT_EQ(scheduler.requests[0].dependency, "");
  EXPECT_EQ(scheduler.requests[1].dependency, "");
  EXPECT_EQ(scheduler.requests[2].dependency, "afterany:100:101");  // the application phase
  EXPECT_EQ(scheduler.requests[2].num_tasks, 2);
  for (const auto& r : scheduler.requests) {
    EXPECT_EQ(r.partition, "debug");
    EXPECT_EQ(r.array_inx.substr(r.array_inx.size() - 2), "%2");
    EXPECT_EQ(r.work_dir, out);
  }
  const auto stored = slurm::read_submission(out);
  ASSERT_EQ(stored.arrays.size(), 3u);
  EXPECT_EQ(stored.arrays[0].job_id, 100u);
  EXPECT_EQ(stored.arrays[2].job_id, 102u);
  EXPECT_TRUE(fs::is_regular_file(stored.arrays[2].script));
}

TEST_F(SlurmCampaign, ADryRunWritesTheScriptsAndSubmitsNothing) {
  const std::vector<harness::RunSpec> runs = {run(2, "none"), run(4, "none")};
  submission.dry_run = true;
  submit_arrays(out, submission, runs, {0, 1}, harness::SchedulerSpec{}, nullptr);
  const auto stored = slurm::read_submission(out);
  ASSERT_EQ(stored.arrays.size(), 2u);
  for (const auto& a : stored.arrays) {
    EXPECT_EQ(a.job_id, 0u);
    EXPECT_TRUE(fs::is_regular_file(a.script));
  }
}

TEST_F(SlurmCampaign, ResubmissionTakesRunsWithoutAResultOrWithARerunnableOneThatAreNotActive) {
  const std::vector<harness::RunSpec> runs = {run(1, "none"), run(2, "none"), run(3, "none"), run(4, "none"),
                                              run(5, "none")};
  slurm::ArrayRecord array;
  array.job_id = 7;
  array.plan.nprocs = 1;
  array.plan.task_ids = {0, 1, 2, 3, 4};
  submission.arrays.push_back(array);
  auto outcome = [&](std::size_t i, harness::OutcomeKind kind) {
    harness::Outcome o;
    o.kind = kind;
    fs::create_directories(out / "runs" / runs[i].run_id);
    harness::write_outcome(out / "runs" / runs[i].run_id, o);
  };
  outcome(1, harness::OutcomeKind::Hang);            // a result: kept
  outcome(2, harness::OutcomeKind::Cancelled);       // rerunnable
  outcome(3, harness::OutcomeKind::Infrastructure);  // rerunnable
  std::map<std::pair<std::uint32_t, long>, slurm::TaskStatus> states;
  slurm::TaskStatus running;
  running.state = slurm::TaskState::Running;
  states[{7, 0}] = running;  // run 0: no result yet, but still running
  states[{7, 3}] = running;  // run 3: an old result, a new task running
  EXPECT_EQ(runs_to_resubmit(out, runs, submission, states), (std::vector<long>{2, 4}));
}

}  // namespace
}  // namespace scalefuzz::workflows
