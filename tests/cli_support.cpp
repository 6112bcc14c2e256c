#include "cli_support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace scalefuzz::e2e {

harness::ProcessResult run_scalefuzz(const std::vector<std::string>& args, std::chrono::seconds timeout) {
  std::vector<std::string> argv{scalefuzz_binary().string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return harness::run_process(argv, "", timeout);
}

pid_t start_scalefuzz(const std::vector<std::string>& args, const fs::path& log_dir,
                      const std::vector<std::string>& prefix) {
  fs::create_directories(log_dir);
  std::vector<std::string> argv = prefix;
  argv.push_back(scalefuzz_binary().string());
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, (log_dir / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (log_dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], &actions, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("posix_spawn scalefuzz failed");
  return pid;
}

std::vector<pid_t> processes_mentioning(const std::string& marker) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = std::stoi(name);
    if (pid == getpid()) continue;
    // A zombie has no environment or command line left: it is gone.
    const std::string status = read_file(entry.path() / "status");
    if (status.find("State:\tZ") != std::string::npos) continue;
    const std::string env = read_file(entry.path() / "environ");
    const std::string cmd = read_file(entry.path() / "cmdline");
    if (env.find(marker) != std::string::npos || cmd.find(marker) != std::string::npos) found.push_back(pid);
  }
  return found;
}

int count_children_with(const fs::path& dir, const std::string& name) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (fs::exists(entry.path() / name)) ++n;
  return n;
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout, std::chrono::milliseconds poll) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll);
  }
}

std::vector<std::string> split_shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any) words.push_back(word);
  return words;
}

}  // namespace scalefuzz::e2e
