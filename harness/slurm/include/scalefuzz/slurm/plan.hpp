// Turning a campaign's runs into SLURM job arrays, and what SLURM's task
// states mean for a run. Pure: no libslurm, no I/O (client.hpp talks to SLURM).
//
// Every run has a campaign-wide index (its position in OUT/slurm/runs.json).
// An array covers runs of one phase and one process count; its task ids are
// the run indices minus the array's offset (a multiple of MaxArraySize, so
// every task id stays below it). The batch script turns the task id back into
// the run index: `scalefuzz task OUT $((OFFSET + SLURM_ARRAY_TASK_ID))`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::slurm {

// Application-centric NINJA runs read what a system-centric run of their
// point wrote, so their arrays start after every array of the first phase.
enum class Phase { First, Application };

struct ArrayPlan {
  Phase phase = Phase::First;
  int nprocs = 0;
  long offset = 0;                    // run index = offset + task id
  std::vector<long> task_ids;         // sorted, each < max_array_size
  std::string array_inx(int max_parallel) const;  // "0-5", "1,4,7-9%2"
  std::vector<long> run_indices() const;
};

// Groups the run indices `selected` (into `runs`) by phase and process count
// and splits each group at multiples of max_array_size.
std::vector<ArrayPlan> plan_arrays(const std::vector<harness::RunSpec>& runs, const std::vector<long>& selected,
                                   long max_array_size);

// Order of runs.json: first phase before application phase, then by process
// count (so a fresh submission's arrays are contiguous ranges), stable.
void order_for_submission(std::vector<harness::RunSpec>& runs);

// POSIX sh single quotes around anything: the word is inert in a script.
std::string sh_quote(const std::string& word);

// The batch script of one array.
std::string batch_script(const std::string& campaign, const std::filesystem::path& scalefuzz,
                         const std::filesystem::path& out_dir, const ArrayPlan& array);

// scheduler.time in whole minutes, rounded up (libslurm's time_limit); 0 when empty.
std::uint32_t time_limit_minutes(const std::string& slurm_time);

// The parts of a task state that matter here.
enum class TaskState {
  Pending, Running, Suspended, Completing, Completed, Failed, Timeout, Cancelled, NodeFail, Preempted,
  BootFail, Deadline, OutOfMemory, Unknown,
};
const char* to_string(TaskState state);
bool is_active(TaskState state);  // may still write its run directory

struct TaskStatus {
  std::uint32_t job_id = 0;   // the array's job id
  long task_id = 0;
  TaskState state = TaskState::Unknown;
  int exit_status = 0;        // wait status of the batch script
  std::string reason;         // why pending / why it failed, from SLURM
  std::string nodes;
};

// The outcome of a run whose task ended in `status` without writing
// outcome.json: TIMEOUT is a hang (SLURM's time limit came before the
// harness watchdog), CANCELLED/DEADLINE cancelled, NODE_FAIL/PREEMPTED/
// BOOT_FAIL and tasks that ended without a result infrastructure, OUT_OF_MEMORY
// a crash. nullopt while the task is active.
std::optional<harness::Outcome> outcome_without_result(const TaskStatus& status);

// A batch job as a scheduler takes it: its script, where it runs and logs,
// its array range, dependency and resources.
struct JobRequest {
  std::string name;
  std::string script;                    // starts with #!
  std::filesystem::path work_dir;
  std::string std_out;                   // absolute; %A_%a allowed
  std::string array_inx;                 // "0-9%4"; "" = one job
  std::string dependency;                // "afterany:12:13" or ""
  std::string partition, account, qos;   // "" = SLURM's default
  std::uint32_t time_minutes = 0;        // 0 = partition default
  int nodes = 1;
  int num_tasks = 1;
  std::vector<std::string> extra_args;   // campaign scheduler.extra_args (validated at load)
  std::vector<std::string> environment;  // NAME=VALUE
};

// "1234_5"
std::string task_name(std::uint32_t job_id, long task_id);

}  // namespace scalefuzz::slurm
