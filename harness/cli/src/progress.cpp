#include "progress.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace scalefuzz::cli {

namespace {

std::mutex g_live_mutex;
Progress* g_live = nullptr;  // the Progress report_phase() talks to

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

// A CI log gets a line at most this often while nothing else happens.
constexpr auto kHeartbeat = std::chrono::seconds(30);

}  // namespace

void report_phase(const std::string& phase) {
  std::lock_guard lock(g_live_mutex);
  if (g_live) g_live->phase(phase);
}

Progress::Progress(std::size_t total, std::ostream& out, std::chrono::milliseconds tick)
    : out_(out),
      tty_(isatty(STDERR_FILENO) != 0),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      phase_start_(start_),
      last_line_(start_),
      tick_(tick) {
  {
    std::lock_guard lock(g_live_mutex);
    g_live = this;
  }
  timer_ = std::thread([this] { tick_loop(); });
}

Progress::~Progress() { done(); }

void Progress::tick_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, tick_);
    if (stopping_) break;
    const auto now = std::chrono::steady_clock::now();
    if (tty_) {
      redraw_locked();
    } else if (now - last_line_ >= kHeartbeat) {
      out_ << "... " << phase_ << " (" << clock_text(std::chrono::duration<double>(now - phase_start_).count())
           << "; " << done_ << "/" << total_ << " runs done, " << running_ << " running)" << std::endl;
      last_line_ = now;
    }
  }
}

void Progress::started(const harness::RunSpec& spec) {
  std::lock_guard lock(mutex_);
  ++running_;
  phase_ = running_ == 1 ? "running " + spec.run_id : "running " + std::to_string(running_) + " runs";
  if (tty_) redraw_locked();
}

void Progress::finished(const harness::RunSpec& spec, const harness::Outcome& outcome) {
  std::lock_guard lock(mutex_);
  --running_;
  ++done_;
  ++counts_[harness::to_string(outcome.kind)];
  const int width = static_cast<int>(std::to_string(total_).size());
  std::ostringstream line;
  line << "[" << std::setw(width) << done_ << "/" << total_ << "] " << spec.run_id << " "
       << harness::to_string(outcome.kind) << " " << std::fixed << std::setprecision(1) << outcome.wall_seconds << "s";
  if (outcome.kind != harness::OutcomeKind::Ok && !outcome.detail.empty()) line << " (" << outcome.detail << ")";
  last_line_ = std::chrono::steady_clock::now();
  if (tty_) {
    out_ << "\r\033[K" << line.str() << "\n";
    redraw_locked();
  } else {
    out_ << line.str() << std::endl;
  }
}

void Progress::phase(const std::string& what) {
  std::lock_guard lock(mutex_);
  if (what == phase_) return;
  phase_ = what;
  phase_start_ = last_line_ = std::chrono::steady_clock::now();
  if (tty_) redraw_locked();
  else out_ << what << std::endl;
}

void Progress::redraw_locked() {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::ostringstream s;
  s << "\r\033[K" << clock_text(elapsed) << " " << done_ << "/" << total_ << " done, " << running_ << " running";
  for (const auto& [k, n] : counts_) s << ", " << n << " " << k;
  if (done_ > 0 && done_ < total_)
    s << ", ETA " << clock_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  s << " | " << phase_;
  std::string line = s.str();
  if (line.size() > 200) line.resize(200);  // one terminal line, roughly
  out_ << line << std::flush;
}

void Progress::done() {
  {
    std::lock_guard lock(g_live_mutex);
    if (g_live == this) g_live = nullptr;
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    if (tty_) out_ << "\r\033[K" << std::flush;
  }
  wake_.notify_all();
  if (timer_.joinable()) timer_.join();
}

}  // namespace scalefuzz::cli
