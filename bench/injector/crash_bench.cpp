// SIGKILL crash-safety trials: run a communication loop on 2 ranks under the
// injector, kill rank 1 at a random moment, and check that both ranks' traces
// read back valid: dense records, only the last call (and its children)
// unfinished, no corrupt tail.
// usage: inject_crash_bench PROGRAM [trials]   (PROGRAM: inject_microbench)
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <thread>

#include "run_helpers.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"

namespace fs = std::filesystem;
using namespace scalefuzz::trace;
using namespace scalefuzz::inject::testing;
using namespace std::chrono_literals;

namespace {
// Empty string when `rt` is a valid crash trace, else what is wrong.
std::string problem(const RankTrace& rt) {
  for (const auto& w : rt.warnings)
    if (w.find("cut") != std::string::npos || w.find("corrupt") != std::string::npos) return w;
  if (rt.events.empty()) return "";
  std::size_t group = rt.events.size() - 1;
  while (group > 0 && (rt.events[group].flags & kFlagChild) != 0) --group;
  for (std::size_t i = 0; i < group; ++i)
    if (rt.events[i].t_exit_ns == 0) return "record " + std::to_string(i) + " unfinished before the last call";
  if (!rt.live) return "no live state";
  if (rt.live->current_seq > rt.events.size()) return "live state ahead of the events file";
  return "";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROGRAM [trials]\n", argv[0]);
    return 2;
  }
  std::string program = argv[1];
  int trials = argc > 2 ? std::atoi(argv[2]) : 100;
  std::mt19937 rng(static_cast<unsigned>(::getpid()));
  int ok = 0, in_progress = 0, header_only = 0;
  std::size_t events_total = 0;
  for (int t = 0; t < trials; ++t) {
    fs::path dir = fresh_dir("trial");
    pid_t job = spawn(recording_launch(dir, 2, {program, "300000"}));
    fs::path events = dir / "ranks" / "1.events";
    FileHeader h{};
    bool ready = false;
    for (int i = 0; i < 4000 && !ready; ++i) {
      std::this_thread::sleep_for(2ms);
      if (FILE* f = std::fopen(events.c_str(), "rb")) {
        ready = std::fread(&h, sizeof h, 1, f) == 1 && header_problem(h, FileKind::Events) == nullptr;
        std::fclose(f);
      }
    }
    if (!ready) {
      std::printf("trial %d: rank 1 never started\n", t);
      wait_exit(job, 1ms);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<int>(0, 300000)(rng)));
    ::kill(static_cast<pid_t>(h.pid), SIGKILL);
    wait_exit(job, 60s);
    bool good = true;
    for (int r = 0; r < 2; ++r) {
      try {
        RankTrace rt = read_rank(dir, r);
        std::string p = problem(rt);
        if (!p.empty()) {
          std::printf("trial %d rank %d: %s\n", t, r, p.c_str());
          good = false;
        }
        if (r == 1) {
          events_total += rt.events.size();
          if (rt.events.empty()) ++header_only;
          if (rt.last_event_in_progress) ++in_progress;
        }
      } catch (const std::exception& e) {
        std::printf("trial %d rank %d: unreadable: %s\n", t, r, e.what());
        good = false;
      }
    }
    ok += good;
  }
  std::printf("crash trials: %d/%d readable (killed rank: %d ended in a call in progress, %d killed inside MPI_Init, "
              "%.0f events on average)\n",
              ok, trials, in_progress, header_only, trials > 0 ? double(events_total) / trials : 0.0);
  return ok == trials ? 0 : 1;
}
