#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace scalefuzz::cli {

Progress::Progress(std::size_t total, std::ostream& out)
    : out_(out), tty_(isatty(STDERR_FILENO) != 0), total_(total), start_(std::chrono::steady_clock::now()) {}

void Progress::started(const harness::RunSpec&) {
  std::lock_guard lock(mutex_);
  ++running_;
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
  if (tty_) {
    out_ << "\r\033[K" << line.str() << "\n";
    redraw_locked();
  } else {
    out_ << line.str() << std::endl;
  }
}

void Progress::redraw_locked() {
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::ostringstream s;
  s << "\r\033[K" << done_ << "/" << total_ << " done, " << running_ << " running";
  for (const auto& [k, n] : counts_) s << ", " << n << " " << k;
  if (done_ > 0 && done_ < total_) {
    double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    s << ", ETA " << static_cast<long>(eta) << "s";
  }
  out_ << s.str() << std::flush;
}

void Progress::done() {
  std::lock_guard lock(mutex_);
  if (tty_) out_ << "\r\033[K" << std::flush;
}

}  // namespace scalefuzz::cli
