// /proc readers and PATH lookup, on this test process and a child of it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "scalefuzz/harness/child_process.hpp"
#include "proc_table.hpp"

namespace scalefuzz::harness {
namespace {

TEST(ProcTable, ReadsOwnStatAndEnvironment) {
  setenv("SCALEFUZZ_PROC_TEST", "value with spaces", 1);
  auto stat = proc::read_stat(getpid());
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->ppid, getppid());
  EXPECT_EQ(stat->state, 'R');
  EXPECT_GT(stat->start_time, 0u);
  EXPECT_TRUE(proc::is_same_process(getpid(), stat->start_time));
  EXPECT_FALSE(proc::is_same_process(getpid(), stat->start_time + 1));
  // /proc/PID/environ shows the environment the process started with.
  auto env = proc::read_environ(getpid());
  EXPECT_TRUE(env.count("PATH"));
  EXPECT_FALSE(proc::read_stat(-5));
}

TEST(ChildProcess, SpawnWaitAndEnvironment) {
  auto dir = std::filesystem::temp_directory_path() / ("sf-child-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  SpawnRequest request;
  request.executable = "/bin/sh";
  request.args = {"-c", "echo \"$SF_VALUE\"; echo err >&2; exit 3"};
  request.environment = std::map<std::string, std::string>{{"SF_VALUE", "hello"}, {"PATH", "/bin:/usr/bin"}};
  request.stdout_path = dir / "out.txt";
  request.stderr_path = dir / "err.txt";
  request.own_process_group = true;
  long pid = spawn_child(request);
  ChildExitWaiter waiter(pid);
  auto status = waiter.wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(20));
  ASSERT_TRUE(status);
  EXPECT_TRUE(WIFEXITED(*status));
  EXPECT_EQ(WEXITSTATUS(*status), 3);
  std::ifstream out(dir / "out.txt");
  std::string line;
  std::getline(out, line);
  EXPECT_EQ(line, "hello");
  std::filesystem::remove_all(dir);
}

TEST(ChildProcess, WaiterTimesOutThenSeesTheKill) {
  auto dir = std::filesystem::temp_directory_path() / ("sf-child2-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  SpawnRequest request;
  request.executable = "/bin/sleep";
  request.args = {"30"};
  request.stdout_path = request.stderr_path = dir / "out.txt";
  long pid = spawn_child(request);
  ChildExitWaiter waiter(pid);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(waiter.wait_until(t0 + std::chrono::milliseconds(200)));
  kill(static_cast<pid_t>(pid), SIGKILL);
  auto status = waiter.wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(status);
  EXPECT_TRUE(WIFSIGNALED(*status));
  EXPECT_FALSE(proc::read_stat(pid));  // reaped
  std::filesystem::remove_all(dir);
}

TEST(FindExecutable, PathLookupAndExplicitPaths) {
  EXPECT_EQ(find_executable("sh", "/nonexistent:/bin").value(), std::filesystem::path("/bin/sh"));
  EXPECT_FALSE(find_executable("sh", "/nonexistent"));
  EXPECT_TRUE(find_executable("/bin/sh", ""));
  auto plain = std::filesystem::temp_directory_path() / ("sf-plain-" + std::to_string(getpid()));
  std::ofstream(plain) << "not a program\n";
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_FALSE(find_executable(plain.string(), "/usr/bin"));  // not executable
  std::filesystem::remove(plain);
  EXPECT_FALSE(find_executable("/etc", "/usr/bin"));           // a directory
  EXPECT_FALSE(find_executable("", "/bin"));
}

}  // namespace
}  // namespace scalefuzz::harness
