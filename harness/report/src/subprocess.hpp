// Runs a helper program (Graphviz dot, a browser in tests) from an argv
// vector, never a shell: feeds stdin, captures stdout/stderr, enforces a
// timeout by killing the child's process group.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace scalefuzz::harness {

struct ProcessResult {
  bool started = false;   // false: the program could not be executed
  bool timed_out = false;
  int exit_code = -1;     // when it exited normally
  int signal = 0;         // when a signal ended it
  std::string out, err;
  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
};

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input,
                          std::chrono::milliseconds timeout);

}  // namespace scalefuzz::harness
