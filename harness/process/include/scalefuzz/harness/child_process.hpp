// The harness's one way to start a program: mpiexec for a run, eu-stack at a
// timeout, Graphviz dot and browsers for reports. An argv vector, never a
// shell; safe from many threads at once; only direct children are waited for.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalefuzz::harness {

struct SpawnRequest {
  std::filesystem::path executable;  // absolute or relative path, not looked up
  std::vector<std::string> args;     // without argv[0]
  // Full environment of the child; nullopt inherits ours.
  std::optional<std::map<std::string, std::string>> environment;
  // Standard streams: an open descriptor when >= 0 (a pipe of the caller),
  // else stdin is /dev/null and stdout/stderr go to these files.
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;
  std::filesystem::path stdout_path;  // truncated first (spawn_child)
  std::filesystem::path stderr_path;  // may equal stdout_path
  bool own_process_group = false;
  // SIGKILL the child when the spawning thread's process dies (harness
  // killed mid-campaign: mpiexec then takes its proxies and ranks down).
  // PR_SET_PDEATHSIG fires when the spawning *thread* exits, so the caller
  // must wait for the child in the same thread, as launch_local does.
  bool kill_with_parent = false;
  // PID 1 of its own PID namespace where available (pid_namespace.hpp): every
  // process the child ever starts dies with it.
  bool own_pid_namespace = false;
};

// Starts the child and returns its pid; SIGPIPE is back to its default in
// the child. Throws std::runtime_error when it cannot start (naming the
// stage: exec, opening its output files, mounting its /proc).
// Spawns are serialized process-wide: a child forked by another thread
// holds our exec-error pipe until it execs, and would stall this spawn.
long spawn_child(const SpawnRequest& request);

// Waits for a direct child to exit, promptly (pidfd + poll, no signals, so
// other threads' children are never touched). Returns the waitpid status and
// reaps the child, or nullopt when `deadline` passes first (child not reaped).
class ChildExitWaiter {
 public:
  explicit ChildExitWaiter(long pid);
  ~ChildExitWaiter();
  ChildExitWaiter(const ChildExitWaiter&) = delete;
  ChildExitWaiter& operator=(const ChildExitWaiter&) = delete;

  std::optional<int> wait_until(std::chrono::steady_clock::time_point deadline);

 private:
  long pid_;
  int pidfd_ = -1;
};

// Resolves a command name like a shell would (a name with '/' is taken as a
// path); nullopt when no executable file is found. `path_env` is the PATH.
std::optional<std::filesystem::path> find_executable(const std::string& name, const std::string& path_env);

// A helper program run to completion (Graphviz dot, a browser in tests):
// argv[0] looked up on PATH, `input` fed to stdin, stdout/stderr captured,
// the child's process group killed at the timeout.
struct ProcessResult {
  bool started = false;   // false: the program could not be executed
  bool timed_out = false;
  int exit_code = -1;     // when it exited normally
  int signal = 0;         // when a signal ended it
  std::string out, err;
  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
};

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input,
                          std::chrono::milliseconds timeout);

}  // namespace scalefuzz::harness
