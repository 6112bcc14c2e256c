// Live progress of a campaign on the console. On a terminal: one status line
// rewritten in place (done/total, running, outcome counts, ETA) with a
// permanent line for every run that did not end ok. Otherwise (CI logs): one
// plain line per finished run, "[ 3/12] np4-none-r0 ok 1.20s".
// All methods are thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

class ConsoleProgress : public RunListener {
 public:
  // TTY mode when `out` is a terminal.
  explicit ConsoleProgress(std::size_t total, std::FILE* out = stderr);
  ConsoleProgress(std::size_t total, std::FILE* out, bool tty);
  ~ConsoleProgress() override;
  ConsoleProgress(const ConsoleProgress&) = delete;
  ConsoleProgress& operator=(const ConsoleProgress&) = delete;

  // Runs finished by an earlier session of a resumed campaign: counted as
  // done, not in the ETA.
  void add_already_finished(std::size_t count);
  void run_started(const RunSpec& spec) override;
  void run_finished(const RunSpec& spec, const Outcome& outcome) override;
  void end() override { finish(); }
  // Ends the status line on a terminal; idempotent, also called by the destructor.
  void finish();

  bool tty() const { return tty_; }

 private:
  std::string counter() const;      // "[ 3/12]"
  std::string status_line() const;  // the TTY line, without control codes
  void redraw();
  void clear_status();

  std::FILE* out_;
  bool tty_;
  std::size_t total_;
  std::size_t done_ = 0, resumed_ = 0, running_ = 0;
  std::map<std::string, std::size_t> counts_;  // outcome label -> runs
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool status_shown_ = false;
  bool finished_ = false;
  mutable std::mutex mutex_;
};

}  // namespace scalefuzz::harness
