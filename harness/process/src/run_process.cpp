#include "scalefuzz/harness/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace scalefuzz::harness {

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  // stdin is a socket so that writing to a child that quit early gives EPIPE
  // (send with MSG_NOSIGNAL) instead of killing the harness with SIGPIPE.
  bool open_socket() { return ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd) == 0; }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
};

// waitpid that survives a launcher reaping all children (a child subreaper
// may collect our child first: then the status is unknown, not an error).
bool wait_child(pid_t pid, int& status) {
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input,
                          std::chrono::milliseconds timeout) {
  ProcessResult result;
  if (argv.empty()) return result;
  Pipe in, out, err;
  if (!in.open_socket() || !out.open() || !err.open()) return result;

  const char* path = std::getenv("PATH");
  const auto executable = find_executable(argv[0], path ? path : "/usr/bin:/bin");
  if (!executable) {
    result.err = "cannot execute " + argv[0] + ": not found";
    return result;
  }
  SpawnRequest request;
  request.executable = *executable;
  request.args.assign(argv.begin() + 1, argv.end());
  request.stdin_fd = in.fd[0];
  request.stdout_fd = out.fd[1];
  request.stderr_fd = err.fd[1];
  request.own_process_group = true;  // a timeout kills helpers it started too
  pid_t pid = 0;
  try {
    pid = static_cast<pid_t>(spawn_child(request));
  } catch (const std::exception& e) {
    result.err = e.what();
    return result;
  }
  result.started = true;
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  if (input.empty()) in.close_end(1);

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t written = 0;
  char buf[16384];
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd fds[3] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}, {in.fd[1], POLLOUT, 0}};
    const int n = ::poll(fds, 3, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    for (int k = 0; k < 2; ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Pipe& p = k == 0 ? out : err;
      const ssize_t got = ::read(p.fd[0], buf, sizeof buf);
      if (got > 0) (k == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(got));
      else if (got == 0 || errno != EINTR) p.close_end(0);
    }
    if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      const ssize_t put =
          ::send(in.fd[1], input.data() + written, input.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (put > 0) written += static_cast<std::size_t>(put);
      if ((put < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in.close_end(1);
    }
  }
  in.close_end(1);
  int status = 0;
  if (wait_child(pid, status)) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  } else {
    result.exit_code = result.timed_out ? -1 : 0;  // reaped elsewhere; judge by output
  }
  return result;
}

}  // namespace scalefuzz::harness
