#include "pid_namespace.hpp"

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

extern char** environ;

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
  const char* executable;
  char* const* argv;
  char* const* envp;
  const char* stdout_path;
  const char* stderr_path;
  bool same_output;
  bool own_group;
  bool kill_with_parent;
  int parent_alive_fd;  // read end; EOF/HUP once the parent is gone
  int error_fd;         // CLOEXEC pipe: gets errno when exec fails
};

[[noreturn]] void child_fail(const ChildPlan& plan, int stage) {
  int report[2] = {stage, errno};
  ssize_t ignored = ::write(plan.error_fd, report, sizeof report);
  (void)ignored;
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
  if (!mount_own_proc()) child_fail(plan, 1);
  const int in = ::open("/dev/null", O_RDONLY);
  const int out = ::open(plan.stdout_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  const int err = plan.same_output ? out : ::open(plan.stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0 || err < 0) child_fail(plan, 2);
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) child_fail(plan, 2);
  ::execve(plan.executable, plan.argv, plan.envp);
  child_fail(plan, 3);
}

}  // namespace

bool pid_namespaces_available() {
  static const bool available = probe();
  return available;
}

long spawn_in_pid_namespace(const SpawnRequest& request) {
  // Everything the child needs is allocated here, before the fork.
  const std::string executable = request.executable.string();
  std::vector<std::string> args{executable};
  args.insert(args.end(), request.args.begin(), request.args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  std::vector<char*> envp;
  if (request.environment) {
    for (const auto& [k, v] : *request.environment) env_strings.push_back(k + "=" + v);
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
  const std::string stdout_path = request.stdout_path.string();
  const std::string stderr_path = request.stderr_path.string();

  int alive[2], error_pipe[2];
  if (::pipe2(alive, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    ::close(alive[0]), ::close(alive[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  ChildPlan plan{executable.c_str(), argv.data(), request.environment ? envp.data() : environ,
                 stdout_path.c_str(), stderr_path.c_str(), request.stdout_path == request.stderr_path,
                 request.own_process_group, request.kill_with_parent, alive[0], error_pipe[1]};
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
    throw std::runtime_error("cannot start " + executable + " in its own PID namespace: " + std::strerror(clone_errno));
  }
  int report[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(error_pipe[0], report, sizeof report)) < 0 && errno == EINTR) {
  }
  ::close(error_pipe[0]);
  ::close(alive[1]);
  if (n > 0) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    const char* stage = report[0] == 1 ? "mounting its /proc" : report[0] == 2 ? "opening its output files" : "exec";
    throw std::runtime_error("cannot start " + executable + ": " + stage + ": " + std::strerror(report[1]));
  }
  return pid;
}

}  // namespace scalefuzz::harness
