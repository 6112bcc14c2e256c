// What a child of the harness execs, prepared before the fork: the child of
// a multithreaded process may make system calls only (no allocation, no
// locks). Shared by the PID-namespace child (pid_namespace.cpp) and the
// keeper (run_keeper.cpp), which report a failed start through a
// close-on-exec pipe as {stage, errno}.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "child_process.hpp"

namespace scalefuzz::harness {

// The stages a child reports through its error pipe.
inline constexpr int kStageSetup = 1;  // before the exec; named by the caller (fork, mounting /proc)
inline constexpr int kStageOutputFiles = 2;
inline constexpr int kStageExec = 3;

class ExecImage {
 public:
  explicit ExecImage(const SpawnRequest& request);
  // argv and envp point into the strings: never copied or moved.
  ExecImage(const ExecImage&) = delete;
  ExecImage& operator=(const ExecImage&) = delete;

  const std::string& executable() const { return executable_; }

  // In the forked child: stdin from /dev/null, stdout and stderr appended to
  // the request's files, then execve. Returns only when that failed: the
  // stage (kStageOutputFiles or kStageExec), errno kept.
  int redirect_and_exec() const;

 private:
  std::string executable_;
  std::vector<std::string> args_, env_strings_;
  std::vector<char*> argv_, envp_;
  std::string stdout_path_, stderr_path_;
  bool same_output_ = false;
  bool own_environment_ = false;
};

// In the forked child: {stage, errno} to the parent through `error_fd`.
void report_start_failure(int error_fd, int stage);

// The parent's side, after the fork: reads the child's error pipe (closing
// it) until the exec closed it (EOF: started; returns "") or the child
// reported a failure: then reaps the child and returns "STAGE: reason",
// `setup` naming kStageSetup.
std::string exec_failure(pid_t child, int error_read_fd, const char* setup);

}  // namespace scalefuzz::harness
