// The libslurm (22.05) calls scalefuzz needs: submit a job array, read the
// states of array tasks, read MaxArraySize. One controller per process
// (libslurm keeps its configuration in globals).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/engine/scheduler.hpp"
#include "scalefuzz/slurm/plan.hpp"

namespace scalefuzz::slurm {

// SLURM unreachable, not configured, or refusing a request. what() names the
// call and SLURM's own error text. The CLI maps it to exit code 3.
class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The configuration file libslurm will read: $SLURM_CONF, else
// /etc/slurm/slurm.conf. Throws SlurmError when it does not exist (libslurm
// would retry a missing file for a minute and then exit the process).
std::filesystem::path slurm_config_file();

// SLURM as a batch scheduler of the engine (engine/scheduler.hpp), beside
// the local pool. Every call throws SlurmError.
class SlurmClient : public engine::BatchScheduler {
 public:
  // Initialises libslurm from slurm_config_file(). Throws SlurmError.
  SlurmClient();

  const char* name() const override { return "slurm"; }
  std::uint32_t max_array_size() override;
  // Submits the batch job; returns its job id.
  std::uint32_t submit(const JobRequest& request) override;
  // Every task of the given arrays the controller still knows about (pending
  // array records are expanded into their task ids).
  std::map<std::pair<std::uint32_t, long>, TaskStatus> task_states(const std::set<std::uint32_t>& array_job_ids) override;
};

// sbatch's rule for a refused submission (SchedMD src/sbatch/sbatch.c:
// MAX_RETRIES 15, sleep(++retries)): the controller's job table full
// (ESLURM_ERROR_ON_DESC_TO_RECORD_COPY), job creation briefly disabled
// (ESLURM_NODES_BUSY) or the controller busy (EAGAIN) is retried after 1, 2,
// ... 15 seconds; any other error is final. Returns the seconds to wait
// before retry number `retries_so_far + 1`, or 0 for "give up". Exposed for tests.
unsigned submit_retry_delay_s(int slurm_errno, unsigned retries_so_far);

// Sets one scheduler.extra_args option (one of harness::supported_sbatch_options())
// on a job request held in libslurm's job_desc_msg_t. Throws std::invalid_argument
// for anything else. Exposed for tests.
void apply_sbatch_option(void* job_desc_msg, const std::string& option);

}  // namespace scalefuzz::slurm
