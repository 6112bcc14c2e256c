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

pid_t spawn(const Launch& l);
// Waits up to `timeout`; kills the process group and returns -1 on timeout.
int wait_exit(pid_t pid, std::chrono::milliseconds timeout);
std::string slurp(const std::filesystem::path& p);

// A fresh, empty directory under the test tmp dir.
std::filesystem::path fresh_dir(const std::string& name);

}  // namespace scalefuzz::inject::testing
