// When and where runs start. Two kinds, as ReFrame's schedulers
// (reframe/core/schedulers: a local one and batch ones behind one
// submit/poll interface): a Scheduler runs a phase's runs on workers of this
// process (the local pool of `scalefuzz run`); a BatchScheduler hands them to
// a batch system as job arrays whose tasks each start one run (`scalefuzz
// task`) and reports their states back (SLURM: harness/slurm SlurmClient,
// used by `scalefuzz submit/status/collect` and `replay --submit`). How one
// run starts is the launcher's business (harness/launcher: MpiLauncher).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "scalefuzz/slurm/plan.hpp"

namespace scalefuzz::engine {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual const char* name() const = 0;
  // Calls job(i) for every i in [0, count). Stops handing out new indices
  // once `stop` becomes true; jobs already started finish. The first
  // exception thrown by a job is rethrown after every started job ended
  // (later indices are not started).
  virtual void run(std::size_t count, const std::function<void(std::size_t)>& job, const std::atomic<bool>& stop) = 0;
};

// At most `workers` jobs at once on threads of this process.
class LocalPool : public Scheduler {
 public:
  explicit LocalPool(int workers) : workers_(workers) {}
  const char* name() const override { return "local"; }
  void run(std::size_t count, const std::function<void(std::size_t)>& job, const std::atomic<bool>& stop) override;

 private:
  int workers_;
};

// A batch system (the job and task vocabulary is harness/slurm's plan.hpp,
// which holds no libslurm). The arrays to submit are planned by
// slurm::plan_arrays; the runs' results come back through their run
// directories, collected into the store by the workflow.
class BatchScheduler {
 public:
  virtual ~BatchScheduler() = default;
  virtual const char* name() const = 0;
  // The largest array the system takes (task ids stay below it).
  virtual std::uint32_t max_array_size() = 0;
  // Submits one job (an array when request.array_inx is set); returns its id.
  virtual std::uint32_t submit(const slurm::JobRequest& request) = 0;
  // The state of every task of the given jobs the system still knows.
  virtual std::map<std::pair<std::uint32_t, long>, slurm::TaskStatus> task_states(
      const std::set<std::uint32_t>& job_ids) = 0;
};

}  // namespace scalefuzz::engine
