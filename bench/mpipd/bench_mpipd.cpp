// MPI-PD on a synthetic failed run of about 10^6 events (issue 5: < 1 s).
//
// R ranks exchange around a ring (Irecv left, Isend right, two MPI_Wait)
// until one rank stops computing in the last round: its right neighbour
// hangs in MPI_Wait, everyone else in the final barrier. Times, best of
// --repeat: the message matching (trace library), MPI-PD proper (event
// graph + failure events + Figure 3) and the findings with the timeline.
//
// Usage: bench_mpipd [--ranks R] [--events-per-rank E] [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "scalefuzz/detectors/mpipd.hpp"

namespace {

using scalefuzz::trace::Event;
using scalefuzz::trace::OpClass;
namespace mpipd = scalefuzz::detectors::mpipd;

struct Gen {
  scalefuzz::trace::RunTrace run;
  std::uint64_t clock = 1;

  Event& add(int r, OpClass c, std::int32_t peer, std::uint64_t req, bool done, std::uint8_t flags = 0) {
    auto& ev = run.ranks[static_cast<std::size_t>(r)].events;
    Event e{};
    e.seq = ev.size() + 1;
    e.t_enter_ns = clock++;
    e.t_exit_ns = done ? clock++ : 0;
    e.op_class = static_cast<std::uint8_t>(c);
    e.flags = flags;
    e.peer = peer;
    e.tag = 7;
    e.root = scalefuzz::trace::kNoPeer;
    e.bytes = 64;
    e.count = 16;
    e.request = req;
    e.status_source = -1;
    ev.push_back(e);
    return ev.back();
  }
};

scalefuzz::trace::RunTrace synthetic_run(int ranks, int events_per_rank, int stopper) {
  Gen g;
  g.run.run_id = "bench";
  g.run.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    g.run.ranks[static_cast<std::size_t>(r)].rank = r;
    g.run.ranks[static_cast<std::size_t>(r)].world_size = ranks;
    g.run.ranks[static_cast<std::size_t>(r)].events.reserve(static_cast<std::size_t>(events_per_rank) + 8);
    g.add(r, OpClass::Init, scalefuzz::trace::kNoPeer, 0, true);
  }
  const int rounds = (events_per_rank - 2) / 6;
  std::uint64_t req = 1;
  for (int it = 0; it < rounds; ++it) {
    const bool last = it + 1 == rounds;
    for (int r = 0; r < ranks; ++r) {
      if (last && r == stopper) continue;  // stops computing before its last exchange
      const int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
      const std::uint64_t rr = req++, sr = req++;
      g.add(r, OpClass::Irecv, left, rr, true);
      g.add(r, OpClass::Isend, right, sr, true);
      const bool starved = last && left == stopper;
      g.add(r, OpClass::Completion, scalefuzz::trace::kNoPeer, 0, true);
      Event& sd = g.add(r, OpClass::RequestDone, scalefuzz::trace::kNoPeer, sr, true, scalefuzz::trace::kFlagChild);
      sd.status_source = -1;
      g.add(r, OpClass::Completion, scalefuzz::trace::kNoPeer, 0, !starved);
      if (!starved) {
        Event& rd = g.add(r, OpClass::RequestDone, scalefuzz::trace::kNoPeer, rr, true, scalefuzz::trace::kFlagChild);
        rd.status_source = left;
        rd.status_tag = 7;
        rd.status_bytes = 64;
      }
    }
  }
  for (int r = 0; r < ranks; ++r) {
    const int left = (r + ranks - 1) % ranks;
    if (r == stopper || left == stopper) continue;
    g.add(r, OpClass::Collective, scalefuzz::trace::kNoPeer, 0, false);  // the final barrier
  }
  return g.run;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int ranks = 1000, per_rank = 1000, repeat = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const int v = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--ranks") == 0 && v >= 2) ranks = v;
    else if (std::strcmp(argv[i], "--events-per-rank") == 0 && v >= 8) per_rank = v;
    else if (std::strcmp(argv[i], "--repeat") == 0 && v >= 1) repeat = v;
    else {
      std::fprintf(stderr, "usage: %s [--ranks R>=2] [--events-per-rank E>=8] [--repeat N>=1]\n", argv[0]);
      return 2;
    }
  }
  const int stopper = ranks / 3;
  const auto run = synthetic_run(ranks, per_rank, stopper);
  std::size_t events = 0;
  for (const auto& rt : run.ranks) events += rt.events.size();

  double best_match = 1e30, best_mpipd = 1e30, best_findings = 1e30;
  mpipd::MpipdResult res;
  for (int k = 0; k < repeat; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    auto matching = scalefuzz::trace::match_messages(run);
    best_match = std::min(best_match, ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    res = mpipd::localize_failure(run, matching, mpipd::MpipdInput{"hang", std::nullopt, 0});
    best_mpipd = std::min(best_mpipd, ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    auto findings = mpipd::mpipd_findings(res, run, "bench");
    best_findings = std::min(best_findings, ms_since(t0));
  }
  const bool correct = res.situation == mpipd::Situation::CalculationFault && res.faulty == std::vector<int>{stopper};
  std::printf("MPI-PD bench: %zu events, %d ranks (best of %d)\n", events, ranks, repeat);
  std::printf("  match_messages (trace)           %8.1f ms\n", best_match);
  std::printf("  MPI-PD graph + stage 1 + Fig. 3  %8.1f ms   (target < 1000 ms)\n", best_mpipd);
  std::printf("  findings + timeline SVG          %8.1f ms\n", best_findings);
  std::printf("  MPI-PD total incl. matching      %8.1f ms\n", best_match + best_mpipd + best_findings);
  std::printf("  result: %s, faulty %s (expected calculation-fault, faulty %d): %s\n", res.situation_label.c_str(),
              scalefuzz::detectors::rank_ranges(res.faulty).c_str(), stopper, correct ? "ok" : "WRONG");
  return correct ? 0 : 1;
}
