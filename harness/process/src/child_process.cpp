#include "scalefuzz/harness/child_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
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
  // Under a keeper (no PID namespace for a child that asked for one): the
  // read and write ends of the harness-alive pipe (harness_alive_pipe).
  bool keeper;
  int harness_alive_fd, harness_alive_write_fd;
};

enum Stage { kMountProc = 1, kStreams = 2, kExec = 3, kKeeperFork = 4 };

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


// ---- The keeper (where PID namespaces are not available: an ordinary user,
// or SCALEFUZZ_PID_NAMESPACE=0). The child is started under a small keeper
// process that is child subreaper (PR_SET_CHILD_SUBREAPER needs no
// privilege): every process of the run that detaches (setsid children,
// double forks) is reparented to the keeper, never to init. The keeper
// relays the child's exit status as its own. When the harness dies, even by
// SIGKILL, the keeper sees the harness-alive pipe close and sweeps: SIGKILL
// to each child, reap, again, until it has no child left. It is a clone of a
// multithreaded process: system calls only.

// "/proc/<pid>/stat" into `out` (no snprintf: not async-signal-safe).
void stat_path(const char* pid, char* out) {
  std::memcpy(out, "/proc/", 6);
  std::size_t n = 6;
  for (const char* p = pid; *p && n < 40; ++p) out[n++] = *p;
  std::memcpy(out + n, "/stat", 6);
}

// The parent pid from a /proc/PID/stat line: "pid (comm) S ppid ...".
long parent_of(const char* pid_name) {
  char path[64];
  stat_path(pid_name, path);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* close_paren = nullptr;
  for (const char* p = buf; *p; ++p)
    if (*p == ')') close_paren = p;
  if (!close_paren || close_paren[1] != ' ' || close_paren[2] == '\0' || close_paren[3] != ' ') return -1;
  long ppid = 0;
  for (const char* p = close_paren + 4; *p >= '0' && *p <= '9'; ++p) ppid = ppid * 10 + (*p - '0');
  return ppid;
}

// SIGKILL to every process whose parent is this keeper.
void kill_children() {
  const long self = ::getpid();
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char buf[8192];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buf + at);
      at += entry->d_reclen;
      const char* name = entry->d_name;
      if (name[0] < '1' || name[0] > '9') continue;
      long pid = 0;
      bool numeric = true;
      for (const char* p = name; *p; ++p) {
        if (*p < '0' || *p > '9') numeric = false;
        else pid = pid * 10 + (*p - '0');
      }
      if (numeric && parent_of(name) == self) ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
  }
  ::close(dir);
}

// The harness is gone: orphans come to the keeper (subreaper), so killing
// its children round after round reaches every descendant.
[[noreturn]] void sweep_and_exit() {
  const timespec pause{0, 5 * 1000 * 1000};
  for (;;) {
    kill_children();
    int status = 0;
    pid_t reaped;
    while ((reaped = ::waitpid(-1, &status, WNOHANG)) > 0) {
    }
    if (reaped < 0 && errno == ECHILD) ::_exit(0);
    ::nanosleep(&pause, nullptr);
  }
}

// The child ended: end the same way, so the harness classifies its status.
[[noreturn]] void relay(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

[[noreturn]] void run_keeper(const ChildPlan& plan) {
  ::close(plan.harness_alive_write_fd);
  if (plan.own_group) ::setpgid(0, 0);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // The harness's handlers (Ctrl-C sets its stop flag) mean nothing here.
  struct sigaction plain {};
  plain.sa_handler = SIG_DFL;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &plain, nullptr);
  pollfd gone{plan.harness_alive_fd, POLLIN, 0};
  if (::poll(&gone, 1, 0) > 0) ::_exit(127);  // the harness died before we got here
  // The child proper: no group, no death signal of its own (the keeper
  // outlives it and sweeps), a raw clone like the keeper's.
  ChildPlan child = plan;
  child.own_group = false;
  child.kill_with_parent = false;
  child.keeper = false;
  const auto app = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, 0));
  if (app == 0) {
    ::close(plan.harness_alive_fd);
    run_child(child);
  }
  if (app < 0) child_fail(plan, kKeeperFork);
  ::close(plan.error_fd);  // the child's copy closes at its exec: the harness then reads EOF
  const int app_fd = static_cast<int>(::syscall(SYS_pidfd_open, app, 0));
  for (;;) {
    int status = 0;
    pid_t reaped;
    while ((reaped = ::waitpid(-1, &status, WNOHANG)) > 0)  // orphans of the run are ours to reap too
      if (reaped == app) relay(status);
    pollfd fds[2] = {{plan.harness_alive_fd, POLLIN, 0}, {app_fd, POLLIN, 0}};
    // Without a pidfd (old kernels) the loop polls the child every 20 ms.
    const int ready = ::poll(fds, app_fd >= 0 ? 2 : 1, app_fd >= 0 ? 1000 : 20);
    if (ready > 0 && fds[0].revents != 0) sweep_and_exit();
  }
}

// One pipe per harness process: only the harness holds the write end (every
// keeper closes its copy at once, exec'd children lose it by close-on-exec),
// so the read end reports EOF exactly when the harness is gone. A process
// forked from a harness that becomes a harness itself (tests do) makes its
// own. Called with the spawn mutex held.
struct HarnessAlivePipe {
  int read_fd = -1, write_fd = -1;
  pid_t owner = 0;
};
const HarnessAlivePipe& harness_alive_pipe() {
  static HarnessAlivePipe pipe;  // deliberately never closed by its owner
  if (pipe.owner != ::getpid()) {
    if (pipe.owner != 0) ::close(pipe.read_fd), ::close(pipe.write_fd);  // the parent harness's
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    pipe = {fds[0], fds[1], ::getpid()};
  }
  return pipe;
}

}  // namespace

long spawn_child(const SpawnRequest& request) {
  if (request.stdout_fd < 0) truncate_file(request.stdout_path);
  if (request.stderr_fd < 0 && request.stderr_path != request.stdout_path) truncate_file(request.stderr_path);
  const bool own_namespace = request.own_pid_namespace && pid_namespaces_available();
  const bool keeper = request.own_pid_namespace && !own_namespace;

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
  const HarnessAlivePipe* harness_alive = keeper ? &harness_alive_pipe() : nullptr;
  int alive[2], error_pipe[2];
  if (::pipe2(alive, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    ::close(alive[0]), ::close(alive[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const ChildPlan plan{executable.c_str(), argv.data(), request.environment ? envp.data() : environ,
                       request.stdin_fd, request.stdout_fd, request.stderr_fd,
                       stdout_path.c_str(), stderr_path.c_str(), request.stdout_path == request.stderr_path,
                       request.own_process_group, request.kill_with_parent && !keeper, own_namespace,
                       alive[0], error_pipe[1], keeper,
                       keeper ? harness_alive->read_fd : -1, keeper ? harness_alive->write_fd : -1};
  // A raw clone, like fork() but without atfork handlers: the child makes
  // syscalls only. With the namespace flags it is PID 1 of a new PID and
  // mount namespace.
  const unsigned long flags = SIGCHLD | (own_namespace ? pid_namespace_clone_flags() : 0);
  const auto pid = static_cast<pid_t>(::syscall(SYS_clone, flags, nullptr, nullptr, nullptr, 0));
  if (pid == 0) {
    ::close(alive[1]);
    ::close(error_pipe[0]);
    if (plan.keeper) run_keeper(plan);
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
    const char* stage = report[0] == kMountProc    ? "mounting its /proc"
                        : report[0] == kStreams    ? "opening its standard streams"
                        : report[0] == kKeeperFork ? "fork under its keeper"
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
