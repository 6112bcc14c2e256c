#include "stack_capture.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "scalefuzz/harness/child_process.hpp"

namespace scalefuzz::harness {
namespace {

constexpr auto kPerStackTimeout = std::chrono::seconds(30);

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Capture {
  int rank = -1;
  long target_pid = 0;
  std::filesystem::path file;
  long tool_pid = 0;
  std::unique_ptr<ChildExitWaiter> waiter;
  std::string failure;  // set when eu-stack could not run or did not finish
};

}  // namespace

std::vector<RankStack> capture_stacks(const std::vector<std::pair<int, long>>& rank_pids,
                                      const std::filesystem::path& stacks_dir, bool source_lines,
                                      int parallelism) {
  std::filesystem::create_directories(stacks_dir);
  const char* path_env = std::getenv("PATH");
  auto eu_stack = find_executable("eu-stack", path_env ? path_env : "/usr/bin:/bin");

  std::vector<Capture> captures;
  for (const auto& [rank, pid] : rank_pids) {
    std::string name = rank >= 0 ? "rank-" + std::to_string(rank) : "pid-" + std::to_string(pid);
    Capture c;
    c.rank = rank;
    c.target_pid = pid;
    c.file = stacks_dir / (name + ".txt");
    captures.push_back(std::move(c));
  }

  auto finish = [](Capture& c) {
    auto status = c.waiter->wait_until(std::chrono::steady_clock::now() + kPerStackTimeout);
    if (!status) {
      kill(static_cast<pid_t>(c.tool_pid), SIGKILL);
      status = c.waiter->wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(5));
      c.failure = "eu-stack did not finish within 30 s";
    } else if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
      // eu-stack exits 1 when some frames could not be unwound but still
      // prints the stack; keep the text and only note it.
      if (WIFSIGNALED(*status)) c.failure = "eu-stack killed by signal " + std::to_string(WTERMSIG(*status));
    }
    c.waiter.reset();
  };

  std::size_t next_to_finish = 0;
  std::size_t running = 0;
  int limit = parallelism < 1 ? 1 : parallelism;
  for (auto& c : captures) {
    if (!eu_stack) {
      c.failure = "eu-stack not found on PATH (Debian package elfutils)";
      continue;
    }
    while (running >= static_cast<std::size_t>(limit)) {
      if (captures[next_to_finish].waiter) {
        finish(captures[next_to_finish]);
        --running;
      }
      ++next_to_finish;
    }
    SpawnRequest request;
    request.executable = *eu_stack;
    if (source_lines) request.args = {"-i", "-s"};
    request.args.push_back("-p");
    request.args.push_back(std::to_string(c.target_pid));
    request.stdout_path = request.stderr_path = c.file;
    try {
      c.tool_pid = spawn_child(request);
      c.waiter = std::make_unique<ChildExitWaiter>(c.tool_pid);
      ++running;
    } catch (const std::exception& e) {
      c.failure = e.what();
    }
  }
  for (auto& c : captures)
    if (c.waiter) finish(c);

  std::vector<RankStack> stacks;
  for (auto& c : captures) {
    RankStack s;
    s.rank = c.rank;
    s.pid = c.target_pid;
    s.text = read_all(c.file);
    if (!c.failure.empty()) {
      s.text += (s.text.empty() ? "" : "\n") + ("[scalefuzz: " + c.failure + "]\n");
      std::ofstream(c.file, std::ios::trunc) << s.text;
    }
    stacks.push_back(std::move(s));
  }
  return stacks;
}

}  // namespace scalefuzz::harness
