// Starting and waiting for direct children of the harness, safely from many
// threads at once.
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
  std::filesystem::path stdout_path;  // truncated first
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

// Starts the child (stdin from /dev/null, outputs streamed to the files) and
// returns its pid. Throws std::runtime_error when it cannot start.
// Spawns are serialized process-wide: Boost.Process 1.74 creates its
// exec-error pipe before marking it close-on-exec, so a concurrent fork
// could inherit it and stall the other spawn until that child exits.
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

}  // namespace scalefuzz::harness
