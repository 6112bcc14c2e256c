// Helpers for the end-to-end tests of the `scalefuzz` binary: temporary
// directories, campaign files written on the fly, the binary run with an
// argv vector (never a shell), and a look through /proc for leftovers.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "scalefuzz/testing/files.hpp"
#include "scalefuzz/harness/child_process.hpp"

namespace scalefuzz::e2e {

namespace fs = std::filesystem;

inline fs::path scalefuzz_binary() { return SCALEFUZZ_BINARY; }
inline fs::path build_dir() { return SCALEFUZZ_BUILD_TREE; }
inline fs::path source_dir() { return SCALEFUZZ_SOURCE_TREE; }

// A fresh directory under the build tree, removed at the end of the test.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("t", build_dir() / "tests" / "tmp") {}
};

using testing::read_file;
using testing::write_file;

// Runs `scalefuzz ARGS...` to completion.
harness::ProcessResult run_scalefuzz(const std::vector<std::string>& args,
                                     std::chrono::seconds timeout = std::chrono::seconds(300));

// Starts `scalefuzz ARGS...` in the background (own process group, output to
// files in `log_dir`) and returns its pid. A `prefix` that execs its command
// (e.g. setpriv ... --) runs before it, looked up on PATH; the pid is then
// scalefuzz's once the prefix has exec'd it.
pid_t start_scalefuzz(const std::vector<std::string>& args, const fs::path& log_dir,
                      const std::vector<std::string>& prefix = {});

// Pids of live processes whose environment or command line mentions
// `marker` (e.g. a campaign's output directory), excluding this process.
std::vector<pid_t> processes_mentioning(const std::string& marker);

// Number of files named `name` one level below `dir` (e.g. runs/*/outcome.json).
int count_children_with(const fs::path& dir, const std::string& name);

// Splits a printed command line (a replay line): words separated by spaces,
// '...' quoting as shell_quote() writes it.
std::vector<std::string> split_shell_words(const std::string& line);

// Checks `done()` every `poll` until it holds (true) or `timeout` passed (false).
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout,
                std::chrono::milliseconds poll = std::chrono::milliseconds(20));

}  // namespace scalefuzz::e2e
