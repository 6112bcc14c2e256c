#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <thread>

#include "scalefuzz/harness/progress.hpp"

namespace scalefuzz::harness {
namespace {

// Captures what ConsoleProgress prints.
class Capture {
 public:
  Capture() : file_(::open_memstream(&buf_, &size_)) {}
  ~Capture() {
    if (file_) std::fclose(file_);
    std::free(buf_);
  }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

RunSpec spec(const std::string& id) {
  RunSpec s;
  s.run_id = id;
  return s;
}

Outcome outcome(OutcomeKind k, double wall, const std::string& detail = "") {
  Outcome o;
  o.kind = k;
  o.wall_seconds = wall;
  o.detail = detail;
  return o;
}

TEST(ConsoleProgress, PlainLinesWhenNotATerminal) {
  Capture cap;
  {
    ConsoleProgress p(12, cap.file(), false);
    EXPECT_FALSE(p.tty());
    p.add_already_finished(2);
    p.run_started(spec("np4-none-r0"));
    p.run_finished(spec("np4-none-r0"), outcome(OutcomeKind::Ok, 1.2));
    p.run_finished(spec("np8-none-r0"), outcome(OutcomeKind::Hang, 10, "timeout after 10s"));
  }
  EXPECT_EQ(cap.text(),
            "[ 2/12] 2 runs already finished (resumed)\n"
            "[ 3/12] np4-none-r0 ok 1.20s\n"
            "[ 4/12] np8-none-r0 hang 10.0s  timeout after 10s\n");
}

TEST(ConsoleProgress, StatusLineOnATerminal) {
  Capture cap;
  {
    ConsoleProgress p(3, cap.file(), true, std::chrono::hours(1));
    p.run_started(spec("a"));
    p.run_started(spec("b"));
    p.run_finished(spec("a"), outcome(OutcomeKind::Ok, 1));
    p.run_finished(spec("b"), outcome(OutcomeKind::Crashed, 2, "rank 1 SIGSEGV"));
    p.run_finished(spec("c"), outcome(OutcomeKind::Ok, 1));
  }
  const auto out = cap.text();
  EXPECT_NE(out.find("\r\x1b[K[0/3] launching | 2 running | ok 0 | failed 0 | hang 0 | crashed 0 | "), std::string::npos)
      << out;
  EXPECT_THAT(out, ::testing::ContainsRegex("crashed 0 . [0-9.]+s elapsed . ETA [?]")) << "no ETA before a run ended";
  EXPECT_NE(out.find("\r\x1b[K[2/3] b crashed 2.00s  rank 1 SIGSEGV\n"), std::string::npos)
      << "failures stay visible above the status line: " << out;
  EXPECT_NE(out.find("[2/3] launching | 0 running | ok 1 | failed 0 | hang 0 | crashed 1 | "), std::string::npos) << out;
  EXPECT_THAT(out, ::testing::ContainsRegex("crashed 1 . [0-9.]+s elapsed . ETA [0-9]"));
  EXPECT_EQ(out.find("a ok"), std::string::npos) << "ok runs only update the status line";
  EXPECT_NE(out.rfind("\r\x1b[K[3/3] launching | 0 running | ok 2 | failed 0 | hang 0 | crashed 1 | "), std::string::npos);
  EXPECT_TRUE(out.ends_with(" elapsed | runs done\n")) << out;
}

TEST(ConsoleProgress, PhasesAndNotesOnATerminal) {
  Capture cap;
  {
    ConsoleProgress p(1, cap.file(), true, std::chrono::hours(1));
    p.run_started(spec("a"));
    p.run_finished(spec("a"), outcome(OutcomeKind::Hang, 5, "timeout after 5s"));
    p.end();
    p.set_phase("analysing: mpipd on a");
    p.notes() << "kcca: model trained" << std::endl;
    p.set_phase("writing report.html");
  }
  const auto out = cap.text();
  EXPECT_THAT(out, ::testing::HasSubstr("\r\x1b[K[1/1] analysing: mpipd on a | 0 running"));
  EXPECT_THAT(out, ::testing::HasSubstr("\r\x1b[Kkcca: model trained\n\r\x1b[K[1/1] analysing: mpipd on a |"))
      << "a note clears the status line, prints whole, and the line comes back";
  EXPECT_NE(out.rfind("\r\x1b[K[1/1] writing report.html | 0 running | ok 0 | failed 0 | hang 1 | "), std::string::npos);
  EXPECT_TRUE(out.ends_with("\n")) << "the status line ends with a newline: " << out;
}

TEST(ConsoleProgress, TheTimerRedrawsWhileNothingHappens) {
  Capture cap;
  ConsoleProgress p(2, cap.file(), true, std::chrono::milliseconds(20));
  p.run_started(spec("a"));
  const auto before = cap.text().size();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  p.finish();
  const auto out = cap.text();
  std::size_t redraws = 0;
  for (auto at = out.find("[0/2] launching", before); at != std::string::npos; at = out.find("[0/2] launching", at + 1))
    ++redraws;
  EXPECT_GE(redraws, 3u) << "the elapsed time moves without any run event: " << out;
}

TEST(ConsoleProgress, PhasesAndNotesWhenNotATerminal) {
  Capture cap;
  {
    ConsoleProgress p(1, cap.file(), false);
    p.run_started(spec("a"));
    p.run_finished(spec("a"), outcome(OutcomeKind::Ok, 1));
    p.end();
    p.set_phase("analysing: races on a");
    p.notes() << "races: 1 run" << std::endl;
    p.set_phase("writing report.html");
  }
  EXPECT_EQ(cap.text(), "[1/1] a ok 1.00s\nraces: 1 run\n") << "one line per run, the notes, no status line";
}

TEST(ConsoleProgress, ThreadSafeLinesNeverInterleave) {
  Capture cap;
  constexpr int kThreads = 8, kEach = 50;
  {
    ConsoleProgress p(kThreads * kEach, cap.file(), false);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < kEach; ++i) {
          const auto id = "t" + std::to_string(t) + "-" + std::to_string(i);
          p.run_started(spec(id));
          p.run_finished(spec(id), outcome(i % 5 ? OutcomeKind::Ok : OutcomeKind::Failed, 0.5));
        }
      });
    for (auto& th : threads) th.join();
  }
  std::istringstream lines(cap.text());
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    char expect[32];
    std::snprintf(expect, sizeof expect, "[%3d/400] t", n);
    ASSERT_EQ(line.rfind(expect, 0), 0u) << "line " << n << ": " << line;
  }
  EXPECT_EQ(n, kThreads * kEach);
}

// Issue 34 item 7: a program's output reaches the progress line through the
// outcome's detail ("last stderr line: ..."), notes and the phase; its
// control bytes (title, colour, bell) must not reach the terminal.
TEST(ConsoleProgress, ControlBytesFromProgramOutputNeverReachTheTerminal) {
  const std::string hostile = "last stderr line: \x1b]0;owned title\x07\x1b[31mred\x1b[0m\x9b" "2J\r";
  for (bool tty : {false, true}) {
    Capture cap;
    {
      ConsoleProgress p(2, cap.file(), tty, std::chrono::hours(1));
      p.set_phase("analysing \x1b[5mblink");
      p.run_started(spec("np2-none-r0"));
      p.run_finished(spec("np2-none-r0"), outcome(OutcomeKind::Failed, 1, hostile));
      p.notes() << "note from a trace \x1b[2J\n";
    }
    std::string out = cap.text();
    // The status line's own rewrite sequence is the only escape allowed.
    for (std::size_t at; (at = out.find("\r\x1b[K")) != std::string::npos;) out.erase(at, 4);
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << (tty ? "tty: " : "plain: ") << out;
    EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
    EXPECT_EQ(out.find('\x9b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\r'), std::string::npos) << out;
    EXPECT_THAT(out, ::testing::HasSubstr("\\x1B]0;owned title\\x07")) << "shown, escaped";
  }
}

}  // namespace
}  // namespace scalefuzz::harness
