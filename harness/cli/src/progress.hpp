// Progress of a campaign on stderr: one status line on a terminal, redrawn on
// a timer (elapsed time, runs done/running, ETA, the current phase — which
// run is launching, which detector is analysing, which report is being
// written); plain lines otherwise (CI logs: one per finished run, one per
// phase change, a heartbeat while a phase lasts). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::cli {

// What the process is doing now ("launching", "analysing races over 12 runs",
// "writing report.html"). Shown by the live Progress, if any; cheap to call
// from anywhere (the analysis and report code call it).
void report_phase(const std::string& phase);

class Progress {
 public:
  Progress(std::size_t total, std::ostream& out, std::chrono::milliseconds tick = std::chrono::milliseconds(1000));
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void started(const harness::RunSpec& spec);
  void finished(const harness::RunSpec& spec, const harness::Outcome& outcome);
  void phase(const std::string& what);
  void done();  // stops the timer and ends the status line on a terminal

 private:
  void redraw_locked();
  void tick_loop();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::ostream& out_;
  bool tty_;
  bool stopping_ = false;
  std::size_t total_, done_ = 0, running_ = 0;
  std::map<std::string, std::size_t> counts_;
  std::string phase_ = "launching";
  std::chrono::steady_clock::time_point start_, phase_start_, last_line_;
  std::chrono::milliseconds tick_;
  std::thread timer_;
};

}  // namespace scalefuzz::cli
