// When runs start: a Scheduler hands a phase's runs to workers; how one run
// starts is the launcher's business (harness/launcher: MpiLauncher). The
// local pool is the only scheduler of `scalefuzz run` today; a SLURM one
// plugs in here.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

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

}  // namespace scalefuzz::engine
