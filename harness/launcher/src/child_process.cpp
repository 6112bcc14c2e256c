#include "child_process.hpp"

#include "pid_namespace.hpp"
#include "run_keeper.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace bp = boost::process;

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

}  // namespace

long spawn_child(const SpawnRequest& request) {
  truncate_file(request.stdout_path);
  if (request.stderr_path != request.stdout_path) truncate_file(request.stderr_path);

  if (request.own_pid_namespace && pid_namespaces_available()) {
    std::lock_guard lock(spawn_mutex());
    return spawn_in_pid_namespace(request);
  }
  if (request.own_pid_namespace) {
    // No namespace (no privilege): a subreaper keeper still takes every
    // process of the run down, even when the harness is SIGKILLed.
    std::lock_guard lock(spawn_mutex());
    return spawn_under_keeper(request);
  }
  bool own_group = request.own_process_group;
  bool kill_with_parent = request.kill_with_parent;
  pid_t parent = ::getpid();
  // Runs in the forked child before exec: async-signal-safe calls only.
  auto setup = bp::extend::on_exec_setup = [own_group, kill_with_parent, parent](auto&) {
    if (own_group) ::setpgid(0, 0);
    if (kill_with_parent) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
    }
  };
  boost::filesystem::path exe(request.executable.string());
  boost::filesystem::path out(request.stdout_path.string());
  boost::filesystem::path err(request.stderr_path.string());

  std::lock_guard lock(spawn_mutex());
  try {
    bp::child child;
    bool same = request.stdout_path == request.stderr_path;
    if (request.environment) {
      bp::environment env;
      for (const auto& [k, v] : *request.environment) env[k] = v;
      if (same)
        child = bp::child(bp::exe = exe, bp::args = request.args, env, bp::std_in < bp::null,
                          (bp::std_out & bp::std_err) > out, setup);
      else
        child = bp::child(bp::exe = exe, bp::args = request.args, env, bp::std_in < bp::null,
                          bp::std_out > out, bp::std_err > err, setup);
    } else {
      if (same)
        child = bp::child(bp::exe = exe, bp::args = request.args, bp::std_in < bp::null,
                          (bp::std_out & bp::std_err) > out, setup);
      else
        child = bp::child(bp::exe = exe, bp::args = request.args, bp::std_in < bp::null,
                          bp::std_out > out, bp::std_err > err, setup);
    }
    long pid = child.id();
    // From here on the pid is ours to wait for (ChildExitWaiter), not Boost's.
    child.detach();
    return pid;
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot start " + request.executable.string() + ": " + e.what());
  }
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
