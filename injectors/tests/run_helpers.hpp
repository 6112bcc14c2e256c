// Launching mpiexec from the tests: fork/exec with extra environment, output
// to files, a timeout, and access to the rank processes for kill tests.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace scalefuzz::inject::testing {

struct Launch {
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "NAME=value" added to the environment
  std::filesystem::path stdout_file, stderr_file;
};

// `SCALEFUZZ_MPIEXEC -n nprocs` of `program` with the injector preloaded in
// every rank, recording into `dir` (output in dir/stdout and dir/stderr);
// Hydra kills the job after `mpiexec_timeout_s`. Needs the target's
// SCALEFUZZ_MPIEXEC and SCALEFUZZ_INJECT_LIB definitions.
Launch recording_launch(const std::filesystem::path& dir, int nprocs, const std::vector<std::string>& program,
                        int mpiexec_timeout_s = 60);

// What a finished launch left: exit code (-1 on timeout), output, and its directory.
struct Result {
  int rc = 0;
  std::string out, err;
  std::filesystem::path dir;
};

// Runs `l` with its output in dir/stdout and dir/stderr, waiting up to `timeout`.
Result run_launch(Launch l, const std::filesystem::path& dir, std::chrono::milliseconds timeout);

pid_t spawn(const Launch& l);
// Waits up to `timeout`; kills the process group and returns -1 on timeout.
int wait_exit(pid_t pid, std::chrono::milliseconds timeout);
std::string slurp(const std::filesystem::path& p);

// A fresh, empty directory under the test tmp dir.
std::filesystem::path fresh_dir(const std::string& name);

}  // namespace scalefuzz::inject::testing
