#include "run_keeper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec_image.hpp"

namespace scalefuzz::harness {
namespace {

// The keeper runs between fork and its own exit in a copy of a multithreaded
// harness: system calls only, no allocation, no locks.
struct KeeperPlan {
  const ExecImage* image;
  bool own_group;
  int harness_alive_fd;        // read end; readable (EOF) once the harness is gone
  int harness_alive_write_fd;  // the write end: closed at once in the keeper
  int error_fd;                // CLOEXEC pipe: gets {stage, errno} when mpiexec cannot start
};

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

// SIGKILL to every process whose parent is this keeper. Returns how many.
int kill_children() {
  const long self = ::getpid();
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  int killed = 0;
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
      if (!numeric || parent_of(name) != self) continue;
      ::kill(static_cast<pid_t>(pid), SIGKILL);
      ++killed;
    }
  }
  ::close(dir);
  return killed;
}

// The harness is gone: nothing of the run may outlive this keeper. Orphans
// come to the keeper (subreaper), so killing its children round after round
// reaches every descendant; done when waitpid says there is no child left.
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

// mpiexec ended: end the same way, so the harness classifies its status.
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

[[noreturn]] void run_mpiexec(const KeeperPlan& plan) {
  ::close(plan.harness_alive_fd);
  report_start_failure(plan.error_fd, plan.image->redirect_and_exec());
  ::_exit(127);
}

[[noreturn]] void run_keeper(const KeeperPlan& plan) {
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
  const pid_t app = ::fork();
  if (app == 0) run_mpiexec(plan);
  if (app < 0) {
    report_start_failure(plan.error_fd, kStageSetup);
    ::_exit(127);
  }
  ::close(plan.error_fd);  // mpiexec's copy closes at its exec: the harness then reads EOF
  const int app_fd = static_cast<int>(::syscall(SYS_pidfd_open, app, 0));
  for (;;) {
    int status = 0;
    pid_t reaped;
    while ((reaped = ::waitpid(-1, &status, WNOHANG)) > 0)  // orphans of the run are ours to reap too
      if (reaped == app) relay(status);
    pollfd fds[2] = {{plan.harness_alive_fd, POLLIN, 0}, {app_fd, POLLIN, 0}};
    // Without a pidfd (old kernels) the loop polls mpiexec every 20 ms.
    const int ready = ::poll(fds, app_fd >= 0 ? 2 : 1, app_fd >= 0 ? 1000 : 20);
    if (ready > 0 && fds[0].revents != 0) sweep_and_exit();
  }
}

// One pipe per harness process: only the harness holds the write end (every
// keeper closes its copy at once, exec'd children lose it by close-on-exec),
// so the read end reports EOF exactly when the harness is gone. A process
// forked from a harness that becomes a harness itself (tests do) makes its
// own: the inherited write end would keep its keepers waiting for the parent.
struct HarnessAlivePipe {
  int read_fd = -1, write_fd = -1;
  pid_t owner = 0;
};

// Called with the spawn mutex held (spawn_child).
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

long spawn_under_keeper(const SpawnRequest& request) {
  const ExecImage image(request);  // everything the keeper and mpiexec need, allocated before the fork
  const HarnessAlivePipe& alive = harness_alive_pipe();
  int error_pipe[2];
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const KeeperPlan plan{&image, request.own_process_group, alive.read_fd, alive.write_fd, error_pipe[1]};
  const pid_t keeper = ::fork();
  if (keeper == 0) {
    ::close(error_pipe[0]);
    run_keeper(plan);
  }
  const int fork_errno = errno;
  ::close(error_pipe[1]);
  if (keeper < 0) {
    ::close(error_pipe[0]);
    throw std::runtime_error("cannot start " + image.executable() + ": fork: " + std::strerror(fork_errno));
  }
  const std::string failure = exec_failure(keeper, error_pipe[0], "fork");
  if (!failure.empty()) throw std::runtime_error("cannot start " + image.executable() + ": " + failure);
  return keeper;
}

}  // namespace scalefuzz::harness
