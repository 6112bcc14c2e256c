// Runs a list of independent jobs on N worker threads. The scheduler decides
// what runs when; the launcher (harness/launcher) decides how one run starts.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace scalefuzz::cli {

// Calls job(i) for every i in [0, count) with at most `workers` running at
// once. Stops handing out new indices once `stop` becomes true; jobs already
// started finish. The first exception thrown by a job is rethrown after all
// workers have joined (later indices are not started).
void run_parallel(std::size_t count, int workers, const std::function<void(std::size_t)>& job,
                  const std::atomic<bool>& stop);

}  // namespace scalefuzz::cli
