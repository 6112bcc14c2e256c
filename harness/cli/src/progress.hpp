// Progress of a campaign on stderr: one updating status line on a terminal,
// one plain line per finished run otherwise (CI logs). Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <ostream>
#include <string>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::cli {

class Progress {
 public:
  Progress(std::size_t total, std::ostream& out);
  void started(const harness::RunSpec& spec);
  void finished(const harness::RunSpec& spec, const harness::Outcome& outcome);
  void done();  // ends the status line on a terminal

 private:
  void redraw_locked();
  std::mutex mutex_;
  std::ostream& out_;
  bool tty_;
  std::size_t total_, done_ = 0, running_ = 0;
  std::map<std::string, std::size_t> counts_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace scalefuzz::cli
