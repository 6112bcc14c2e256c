// Local launcher: runs one RunSpec as `mpiexec -n N <argv>` on this machine,
// enforces its timeout (freeze, capture stacks, kill), guarantees that no
// process of the run survives, and classifies what happened into an Outcome.
//
// Thread-safe: launch_local may run from several threads at once (one run per
// call); every run only waits for, kills and reaps processes it owns.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/harness/mpi_launcher.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

struct LaunchOptions {
  // The launcher command and its fixed arguments; the launcher's job
  // arguments (process count, preload) follow, then the application argv.
  // A bare name is looked up on PATH.
  std::vector<std::string> mpiexec = {"mpiexec"};
  // The launcher plug-in (mpi_launcher.hpp); null: detected from mpiexec.
  const MpiLauncher* launcher = nullptr;
  // The application's MPI where the user named it (campaign `mpi:`, exec
  // --mpi); null: read off the binary. launch.json records the resolved one.
  std::optional<MpiImplementation> mpi;
  // PMPI injector preloaded into the ranks only (not into mpiexec); empty = none.
  std::filesystem::path injector_lib;
  // Where stdout.txt, stderr.txt, stacks/ and outcome.json go (created if missing).
  std::filesystem::path run_dir;
  // Extra environment for mpiexec and the ranks; overrides spec.env.
  std::map<std::string, std::string> env;
  // Called at a timeout while every process of the run is SIGSTOPped, before
  // the stacks are taken and everything is killed; pids are the rank
  // processes ordered by world rank. Must not resume them.
  std::function<void(const std::vector<long>& frozen_rank_pids)> on_frozen;
  // eu-stack with inlined frames and file:line (-i -s, ~120 ms per rank)
  // or bare function names (~40 ms per rank).
  bool stack_source_lines = true;
  // eu-stack processes run at once at a timeout.
  int stack_parallelism = 4;
  // When set and it becomes true (Ctrl-C), the run's whole process tree is
  // killed within ~0.3 s and launch_local throws LaunchCancelled; no
  // outcome is written, so a resumed campaign runs it again.
  const std::atomic<bool>* cancel = nullptr;
};

// Thrown by launch_local after a cancelled run's processes are gone.
class LaunchCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the preloaded injector reads, in this order: SCALEFUZZ_NOISE_MODE, the
// noise knobs (SCALEFUZZ_NOISE_<KNOB>), SCALEFUZZ_STALL_RANK/CALL when the
// run injects a stall, SCALEFUZZ_SEED, SCALEFUZZ_RUN_ID and, when `run_dir`
// is not empty, SCALEFUZZ_RUN_DIR (absolute).
std::vector<std::pair<std::string, std::string>> injector_environment(const RunSpec& spec,
                                                                      const std::filesystem::path& run_dir);

// The launcher plug-in a run uses: options.launcher, or detected from
// options.mpiexec's program when that is null (`launcher: auto`).
const MpiLauncher& launcher_of(const LaunchOptions& options);

// The whole command of a run: options.mpiexec, then the launcher's job
// arguments (injector made absolute). What launch_local starts and what the
// replay line prints.
std::vector<std::string> launch_command(const RunSpec& spec, const LaunchOptions& options);

// Marks this process as child subreaper (PR_SET_CHILD_SUBREAPER) so ranks
// orphaned by a dying hydra proxy are reparented to us and can be reaped.
// Idempotent; the CLI calls it at startup, launch_local calls it too.
void become_subreaper();

// Runs the job, writes run_dir/{stdout.txt,stderr.txt,outcome.json} (and
// stacks/rank-N.txt at a timeout) and returns the outcome. Never throws for
// problems of the run itself (missing binary, crash, hang...): those are
// outcomes; throws std::runtime_error only when run_dir cannot be written.
Outcome launch_local(const RunSpec& spec, const LaunchOptions& options);

// outcome.json: written atomically (temporary file + fsync + rename).
void write_outcome(const std::filesystem::path& run_dir, const Outcome& outcome);
// nullopt when run_dir/outcome.json does not exist; throws std::runtime_error
// naming the file when it exists but is not a valid outcome record.
std::optional<Outcome> read_outcome(const std::filesystem::path& run_dir);

}  // namespace scalefuzz::harness
