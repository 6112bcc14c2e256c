#include "pid_namespace.hpp"

#include "exec_image.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalefuzz::harness {
namespace {

constexpr unsigned long kCloneFlags = CLONE_NEWPID | CLONE_NEWNS | SIGCHLD;

// Like fork(), but the child is PID 1 of a new PID namespace and has its own
// mount namespace. No atfork handlers run: the child makes syscalls only.
pid_t clone_into_namespace() {
  return static_cast<pid_t>(::syscall(SYS_clone, kCloneFlags, nullptr, nullptr, nullptr, 0));
}

// In the child: a private copy of the mount tree with the namespace's own /proc.
bool mount_own_proc() {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
}

bool probe() {
  if (const char* off = std::getenv("SCALEFUZZ_PID_NAMESPACE"); off && std::string(off) == "0") return false;
  const pid_t pid = clone_into_namespace();
  if (pid < 0) return false;
  if (pid == 0) ::_exit(mount_own_proc() ? 0 : 1);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The child's side: everything prepared by the parent, syscalls only.
struct ChildPlan {
  const ExecImage* image;
  bool own_group;
  bool kill_with_parent;
  int parent_alive_fd;  // read end; EOF/HUP once the parent is gone
  int error_fd;         // CLOEXEC pipe: gets {stage, errno} when the start fails
};

[[noreturn]] void child_fail(const ChildPlan& plan, int stage) {
  report_start_failure(plan.error_fd, stage);
  ::_exit(127);
}

[[noreturn]] void run_child(const ChildPlan& plan) {
  if (plan.own_group) ::setpgid(0, 0);
  if (plan.kill_with_parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // getppid() is 0 across the namespace boundary: the parent's liveness
    // is read from a pipe whose write end only it holds.
    pollfd fd{plan.parent_alive_fd, POLLIN, 0};
    if (::poll(&fd, 1, 0) > 0 && (fd.revents & (POLLHUP | POLLIN))) ::_exit(127);
  }
  if (!mount_own_proc()) child_fail(plan, kStageSetup);
  child_fail(plan, plan.image->redirect_and_exec());
}

}  // namespace

bool pid_namespaces_available() {
  static const bool available = probe();
  return available;
}

long spawn_in_pid_namespace(const SpawnRequest& request) {
  const ExecImage image(request);  // everything the child needs, allocated before the fork
  int alive[2], error_pipe[2];
  if (::pipe2(alive, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    ::close(alive[0]), ::close(alive[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const ChildPlan plan{&image, request.own_process_group, request.kill_with_parent, alive[0], error_pipe[1]};
  const pid_t pid = clone_into_namespace();
  if (pid == 0) {
    ::close(alive[1]);
    ::close(error_pipe[0]);
    run_child(plan);
  }
  const int clone_errno = errno;
  ::close(alive[0]);
  ::close(error_pipe[1]);
  if (pid < 0) {
    ::close(alive[1]), ::close(error_pipe[0]);
    throw std::runtime_error("cannot start " + image.executable() + " in its own PID namespace: " +
                             std::strerror(clone_errno));
  }
  const std::string failure = exec_failure(pid, error_pipe[0], "mounting its /proc");
  ::close(alive[1]);
  if (!failure.empty()) throw std::runtime_error("cannot start " + image.executable() + ": " + failure);
  return pid;
}

}  // namespace scalefuzz::harness
