#include "pid_namespace.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace scalefuzz::harness {

unsigned long pid_namespace_clone_flags() { return CLONE_NEWPID | CLONE_NEWNS; }

bool mount_own_proc() {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
}

namespace {

bool probe() {
  if (const char* off = std::getenv("SCALEFUZZ_PID_NAMESPACE"); off && std::string(off) == "0") return false;
  const auto pid =
      static_cast<pid_t>(::syscall(SYS_clone, pid_namespace_clone_flags() | SIGCHLD, nullptr, nullptr, nullptr, 0));
  if (pid < 0) return false;
  if (pid == 0) ::_exit(mount_own_proc() ? 0 : 1);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

bool pid_namespaces_available() {
  static const bool available = probe();
  return available;
}

}  // namespace scalefuzz::harness
