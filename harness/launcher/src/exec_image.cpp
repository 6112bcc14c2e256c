#include "exec_image.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace scalefuzz::harness {

ExecImage::ExecImage(const SpawnRequest& request)
    : executable_(request.executable.string()),
      stdout_path_(request.stdout_path.string()),
      stderr_path_(request.stderr_path.string()),
      same_output_(request.stdout_path == request.stderr_path),
      own_environment_(request.environment.has_value()) {
  args_.push_back(executable_);
  args_.insert(args_.end(), request.args.begin(), request.args.end());
  for (auto& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
  if (own_environment_) {
    for (const auto& [k, v] : *request.environment) env_strings_.push_back(k + "=" + v);
    for (auto& e : env_strings_) envp_.push_back(e.data());
    envp_.push_back(nullptr);
  }
}

int ExecImage::redirect_and_exec() const {
  const int in = ::open("/dev/null", O_RDONLY);
  const int out = ::open(stdout_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  const int err = same_output_ ? out : ::open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0 || err < 0) return kStageOutputFiles;
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) return kStageOutputFiles;
  ::execve(executable_.c_str(), argv_.data(), own_environment_ ? envp_.data() : environ);
  return kStageExec;
}

void report_start_failure(int error_fd, int stage) {
  const int report[2] = {stage, errno};
  ssize_t ignored = ::write(error_fd, report, sizeof report);
  (void)ignored;
}

std::string exec_failure(pid_t child, int error_read_fd, const char* setup) {
  int report[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(error_read_fd, report, sizeof report)) < 0 && errno == EINTR) {
  }
  ::close(error_read_fd);
  if (n <= 0) return "";
  int status = 0;
  ::waitpid(child, &status, 0);
  const char* stage = report[0] == kStageSetup ? setup : report[0] == kStageOutputFiles ? "opening its output files" : "exec";
  return std::string(stage) + ": " + std::strerror(report[1]);
}

}  // namespace scalefuzz::harness
