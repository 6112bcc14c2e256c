#include "run_helpers.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace scalefuzz::inject::testing {

Launch recording_launch(const std::filesystem::path& dir, int nprocs, const std::vector<std::string>& program,
                        int mpiexec_timeout_s) {
  Launch l;
  l.argv = {SCALEFUZZ_MPIEXEC, "-n", std::to_string(nprocs), "-genv", "LD_PRELOAD", SCALEFUZZ_INJECT_LIB};
  l.argv.insert(l.argv.end(), program.begin(), program.end());
  l.env = {"SCALEFUZZ_RUN_DIR=" + dir.string(), "MPIEXEC_TIMEOUT=" + std::to_string(mpiexec_timeout_s)};
  l.stdout_file = dir / "stdout";
  l.stderr_file = dir / "stderr";
  return l;
}

Result run_launch(Launch l, const std::filesystem::path& dir, std::chrono::milliseconds timeout) {
  Result r;
  r.dir = dir;
  l.stdout_file = dir / "stdout";
  l.stderr_file = dir / "stderr";
  r.rc = wait_exit(spawn(l), timeout);
  r.out = slurp(l.stdout_file);
  r.err = slurp(l.stderr_file);
  return r;
}

pid_t spawn(const Launch& l) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, 0);
  for (const auto& e : l.env) putenv(strdup(e.c_str()));
  int out = open(l.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int err = open(l.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out >= 0) dup2(out, 1);
  if (err >= 0) dup2(err, 2);
  std::vector<char*> argv;
  for (const auto& a : l.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

int wait_exit(pid_t pid, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (true) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::filesystem::path fresh_dir(const std::string& name) {
  std::filesystem::path d = std::filesystem::path(SCALEFUZZ_TEST_TMP) / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace scalefuzz::inject::testing
