// Live progress of a campaign on the console. On a terminal: one status line
// rewritten in place, on a timer (default every second), naming the current
// phase (launching, analysing which detector on which run, writing which
// report), done/total, running, outcome counts, elapsed time and the ETA of
// the launches; a permanent line for every run that did not end ok, and the
// notes (analysis log) above the status line. Otherwise (CI logs): one plain
// line per finished run, "[ 3/12] np4-none-r0 ok 1.20s", and the notes; no
// phases, no timer. All methods are thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "scalefuzz/harness/run_listener.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

class ConsoleProgress : public RunListener {
 public:
  static constexpr std::chrono::milliseconds kDefaultRefresh{1000};
  // TTY mode when `out` is a terminal.
  explicit ConsoleProgress(std::size_t total, std::FILE* out = stderr);
  ConsoleProgress(std::size_t total, std::FILE* out, bool tty, std::chrono::milliseconds refresh = kDefaultRefresh);
  ~ConsoleProgress() override;
  ConsoleProgress(const ConsoleProgress&) = delete;
  ConsoleProgress& operator=(const ConsoleProgress&) = delete;

  // Runs finished by an earlier session of a resumed campaign: counted as
  // done, not in the ETA.
  void add_already_finished(std::size_t count);
  void run_started(const RunSpec& spec) override;
  void run_finished(const RunSpec& spec, const Outcome& outcome) override;
  // Launching is over; the status line stays for the phases that follow.
  void end() override;
  // What the campaign does now, at the front of the status line
  // ("analysing: mpipd on np4-none-r0", "writing report.html").
  void set_phase(const std::string& phase);
  // Whole lines printed above the status line (never torn by a redraw).
  std::ostream& notes() { return notes_; }
  // Ends the status line (and its timer); idempotent, also called by the destructor.
  void finish();

  bool tty() const { return tty_; }

 private:
  class NoteBuffer : public std::streambuf {
   public:
    explicit NoteBuffer(ConsoleProgress& owner) : owner_(owner) {}

   protected:
    int_type overflow(int_type c) override;

   private:
    ConsoleProgress& owner_;
    std::string line_;
  };

  std::string counter() const;      // "[ 3/12]"
  std::string status_line() const;  // the TTY line, without control codes
  void print_note(const std::string& line);
  void redraw();
  void clear_status();
  void tick(std::stop_token stop);

  std::FILE* out_;
  bool tty_;
  std::size_t total_;
  std::chrono::milliseconds refresh_;
  std::size_t done_ = 0, resumed_ = 0, running_ = 0;
  std::map<std::string, std::size_t> counts_;  // outcome label -> runs
  std::string phase_ = "launching";
  bool launching_ = true;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point launch_end_{};
  bool status_shown_ = false;
  bool finished_ = false;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  NoteBuffer note_buffer_{*this};
  std::ostream notes_{&note_buffer_};
  std::jthread ticker_;  // last: started when everything above exists
};

}  // namespace scalefuzz::harness
