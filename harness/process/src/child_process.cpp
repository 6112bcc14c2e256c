#include "scalefuzz/harness/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "pid_namespace.hpp"

extern char** environ;

namespace scalefuzz::harness {
namespace {

std::mutex& spawn_mutex() {
  static std::mutex m;
  return m;
}

void truncate_file(const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + path.string());
}

// The child's side: everything prepared by the parent, syscalls only (the
// child of a multi-threaded process may not allocate or take locks).
struct ChildPlan {
  const char* executable;
  char* const* argv;
  char* const* envp;
  int stdin_fd, stdout_fd, stderr_fd;  // >= 0: use these
  const char* stdout_path;
  const char* stderr_path;
  bool same_output;
  bool own_group;
  bool kill_with_parent;
  bool own_namespace;
  int parent_alive_fd;  // read end; EOF/HUP once the parent is gone
  int error_fd;         // CLOEXEC pipe: gets the stage and errno when something fails
};

enum Stage { kMountProc = 1, kStreams = 2, kExec = 3 };

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
    // getppid() is 0 across a namespace boundary: the parent's liveness is
    // read from a pipe whose write end only it holds.
    pollfd fd{plan.parent_alive_fd, POLLIN, 0};
    if (::poll(&fd, 1, 0) > 0 && (fd.revents & (POLLHUP | POLLIN))) ::_exit(127);
  }
  if (plan.own_namespace && !mount_own_proc()) child_fail(plan, kMountProc);
  // A harness that ignores SIGPIPE must not pass that on: a helper writing
  // to a reader that quit should die as usual.
  ::signal(SIGPIPE, SIG_DFL);
  const int in = plan.stdin_fd >= 0 ? plan.stdin_fd : ::open("/dev/null", O_RDONLY);
  const int out = plan.stdout_fd >= 0 ? plan.stdout_fd : ::open(plan.stdout_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  const int err = plan.stderr_fd >= 0 ? plan.stderr_fd
                  : plan.same_output  ? out
                                      : ::open(plan.stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0 || err < 0) child_fail(plan, kStreams);
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) child_fail(plan, kStreams);
  ::execve(plan.executable, plan.argv, plan.envp);
  child_fail(plan, kExec);
}

}  // namespace

long spawn_child(const SpawnRequest& request) {
  if (request.stdout_fd < 0) truncate_file(request.stdout_path);
  if (request.stderr_fd < 0 && request.stderr_path != request.stdout_path) truncate_file(request.stderr_path);
  const bool own_namespace = request.own_pid_namespace && pid_namespaces_available();

  // Everything the child needs is allocated here, before the clone.
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

  std::lock_guard lock(spawn_mutex());
  int alive[2], error_pipe[2];
  if (::pipe2(alive, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    ::close(alive[0]), ::close(alive[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const ChildPlan plan{executable.c_str(), argv.data(), request.environment ? envp.data() : environ,
                       request.stdin_fd, request.stdout_fd, request.stderr_fd,
                       stdout_path.c_str(), stderr_path.c_str(), request.stdout_path == request.stderr_path,
                       request.own_process_group, request.kill_with_parent, own_namespace,
                       alive[0], error_pipe[1]};
  // A raw clone, like fork() but without atfork handlers: the child makes
  // syscalls only. With the namespace flags it is PID 1 of a new PID and
  // mount namespace.
  const unsigned long flags = SIGCHLD | (own_namespace ? pid_namespace_clone_flags() : 0);
  const auto pid = static_cast<pid_t>(::syscall(SYS_clone, flags, nullptr, nullptr, nullptr, 0));
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
    throw std::runtime_error("cannot start " + executable + (own_namespace ? " in its own PID namespace: " : ": ") +
                             std::strerror(clone_errno));
  }
  int report[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(error_pipe[0], report, sizeof report)) < 0 && errno == EINTR) {
  }
  ::close(error_pipe[0]);
  ::close(alive[1]);
  if (n > 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const char* stage = report[0] == kMountProc ? "mounting its /proc"
                        : report[0] == kStreams ? "opening its standard streams"
                                                : "exec";
    throw std::runtime_error("cannot start " + executable + ": " + stage + ": " + std::strerror(report[1]));
  }
  return pid;
}

ChildExitWaiter::ChildExitWaiter(long pid) : pid_(pid) {
#ifdef SYS_pidfd_open
  pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
#endif
}

ChildExitWaiter::~ChildExitWaiter() {
  if (pidfd_ >= 0) ::close(pidfd_);
}

std::optional<int> ChildExitWaiter::wait_until(std::chrono::steady_clock::time_point deadline) {
  using namespace std::chrono;
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
    if (r == pid_) return status;
    if (r < 0 && errno != EINTR) return std::nullopt;  // not our child (any more)
    auto now = steady_clock::now();
    if (now >= deadline) return std::nullopt;
    auto left = duration_cast<milliseconds>(deadline - now).count() + 1;
    if (pidfd_ >= 0) {
      // Readable once the child has exited.
      pollfd fd{pidfd_, POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    } else {
      std::this_thread::sleep_for(milliseconds(std::min<long long>(left, 5)));
    }
  }
}

std::optional<std::filesystem::path> find_executable(const std::string& name, const std::string& path_env) {
  auto executable = [](const std::filesystem::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (executable(name)) return std::filesystem::path(name);
    return std::nullopt;
  }
  std::size_t begin = 0;
  while (begin <= path_env.size()) {
    std::size_t end = path_env.find(':', begin);
    if (end == std::string::npos) end = path_env.size();
    std::string dir = path_env.substr(begin, end - begin);
    auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (executable(candidate)) return candidate;
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace scalefuzz::harness
