#include "scalefuzz/harness/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include "scalefuzz/harness/terminal_text.hpp"
#include "text.hpp"

namespace scalefuzz::harness {

namespace {
std::size_t terminal_width(std::FILE* out) {
  winsize ws{};
  const int fd = ::fileno(out);
  if (fd >= 0 && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
  return 100;
}
}  // namespace

ConsoleProgress::ConsoleProgress(std::size_t total, std::FILE* out)
    : ConsoleProgress(total, out, ::isatty(::fileno(out)) == 1) {}

ConsoleProgress::ConsoleProgress(std::size_t total, std::FILE* out, bool tty, std::chrono::milliseconds refresh)
    : out_(out), tty_(tty), total_(total), refresh_(refresh) {
  // The line moves on its own (elapsed time, ETA) while a long run or the
  // analysis of one keeps every other event away.
  if (tty_) ticker_ = std::jthread([this](std::stop_token stop) { tick(stop); });
}

ConsoleProgress::~ConsoleProgress() { finish(); }

void ConsoleProgress::tick(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, stop, refresh_, [] { return false; })) {
    if (stop.stop_requested()) return;
    redraw();
  }
}

std::string ConsoleProgress::counter() const {
  const auto width = std::to_string(total_).size();
  std::string done = std::to_string(done_);
  if (done.size() < width) done.insert(0, width - done.size(), ' ');
  return "[" + done + "/" + std::to_string(total_) + "]";
}

std::string ConsoleProgress::status_line() const {
  auto count = [&](const char* label) {
    auto it = counts_.find(label);
    return it == counts_.end() ? std::size_t{0} : it->second;
  };
  const auto now = std::chrono::steady_clock::now();
  std::string line = counter() + " " + phase_ + " | " + std::to_string(running_) + " running | ok " +
                     std::to_string(count("ok")) + " | failed " + std::to_string(count("failed")) + " | hang " +
                     std::to_string(count("hang")) + " | crashed " + std::to_string(count("crashed"));
  for (const auto& [label, n] : counts_)
    if (label != "ok" && label != "failed" && label != "hang" && label != "crashed")
      line += " | " + label + " " + std::to_string(n);
  line += " | " + text::human_seconds(std::chrono::duration<double>(now - start_).count()) + " elapsed";
  const std::size_t done_here = done_ - resumed_;
  const double launching = std::chrono::duration<double>((launching_ ? now : launch_end_) - start_).count();
  if (done_ >= total_ || !launching_) line += " | runs done";
  else if (done_here == 0) line += " | ETA ?";
  else line += " | ETA " + text::human_seconds(launching / static_cast<double>(done_here) * static_cast<double>(total_ - done_));
  return line;
}

void ConsoleProgress::clear_status() {
  if (status_shown_) std::fputs("\r\x1b[K", out_);
  status_shown_ = false;
}

void ConsoleProgress::redraw() {
  if (!tty_ || finished_) return;
  std::string line = terminal_safe(status_line());  // the phase may name a file
  const auto width = terminal_width(out_);
  if (line.size() >= width) line.resize(width - 1);  // a wrapped line could not be rewritten in place
  std::fputs("\r\x1b[K", out_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
  status_shown_ = true;
}

void ConsoleProgress::print_note(const std::string& line) {
  std::lock_guard lock(mutex_);
  clear_status();
  // Notes and run lines carry program output, paths and run ids: control
  // bytes in them must not retitle or recolour the terminal.
  std::fprintf(out_, "%s\n", terminal_safe(line).c_str());
  if (tty_) redraw();
  else std::fflush(out_);
}

ConsoleProgress::NoteBuffer::int_type ConsoleProgress::NoteBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  if (traits_type::to_char_type(c) == '\n') {
    owner_.print_note(line_);
    line_.clear();
  } else {
    line_ += traits_type::to_char_type(c);
  }
  return c;
}

void ConsoleProgress::add_already_finished(std::size_t count) {
  std::lock_guard lock(mutex_);
  done_ += count;
  resumed_ += count;
  counts_["resumed"] += count;
  if (tty_) redraw();
  else if (count > 0) {
    std::fprintf(out_, "%s %zu runs already finished (resumed)\n", counter().c_str(), count);
    std::fflush(out_);
  }
}

void ConsoleProgress::run_started(const RunSpec&) {
  std::lock_guard lock(mutex_);
  ++running_;
  redraw();
}

void ConsoleProgress::run_finished(const RunSpec& spec, const Outcome& outcome) {
  std::lock_guard lock(mutex_);
  if (running_ > 0) --running_;
  ++done_;
  const std::string label = to_string(outcome.kind);
  ++counts_[label];
  std::string line = counter() + " " + spec.run_id + " " + label + " " + text::human_seconds(outcome.wall_seconds);
  if (outcome.kind != OutcomeKind::Ok && !outcome.detail.empty()) line += "  " + outcome.detail;
  line = terminal_safe(line);
  if (tty_) {
    if (outcome.kind != OutcomeKind::Ok) {
      clear_status();
      std::fprintf(out_, "%s\n", line.c_str());
    }
    redraw();
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
    std::fflush(out_);
  }
}

void ConsoleProgress::end() {
  std::lock_guard lock(mutex_);
  if (!launching_) return;
  launching_ = false;
  launch_end_ = std::chrono::steady_clock::now();
  phase_ = "launched";
  redraw();
}

void ConsoleProgress::set_phase(const std::string& phase) {
  std::lock_guard lock(mutex_);
  phase_ = phase;
  redraw();
}

void ConsoleProgress::finish() {
  {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    if (tty_ && status_shown_) {
      redraw();
      std::fputs("\n", out_);
      std::fflush(out_);
    }
    finished_ = true;
  }
  if (ticker_.joinable()) {
    ticker_.request_stop();
    ticker_.join();
  }
}

}  // namespace scalefuzz::harness
