// Stage 2 of Figure 3: LocalizeFaultyProcesses / BacktraceCommDep.
//
// The recursion is followed line by line, but unrolled: BacktraceCommDep makes
// exactly one recursive call per level, so the descent is a path (P_dep in
// call order) and the return path applies lines 32-35 level by level, last
// level first. Return codes: 0 = valid, -1/-2 = situations (a)/(b) counted
// up by line 34, and "p" of line 27 encoded as p + 1 so that rank 0 is not
// confused with the "valid" code 0.
//
// One addition keeps it linear: a process (with a failure event) whose call
// returned 0 returns 0 whenever it is reached again, because its dependency
// chain is fixed and P_e only grows, so the chain still ends at a process of
// P_e (or returns 0 before reaching it). Without that, a propagation chain of
// n processes costs O(n^2). The unit tests compare it with a literal
// recursive transcription of Figure 3 on random graphs.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

namespace {

struct Backtracker {
  const EventGraph& graph;
  const trace::RunTrace& run;
  const std::vector<FailureEvent>& fe;
  std::vector<char> in_pe;       // P_e
  std::vector<char> on_path;     // membership of P_dep
  std::vector<char> returns_zero;
  std::vector<Origin> origins;

  bool overflow_event(int rank) const {
    const FailureEvent& f = fe[static_cast<std::size_t>(rank)];
    if (f.kind != FailureKind::Communication || !f.event) return false;
    return graph.info[static_cast<std::size_t>(rank)][*f.event].overflow;
  }

  // BacktraceCommDep(p, {}) as called from line 18.
  long backtrace(int p) {
    std::vector<int> path;  // P_dep, in call order
    int cur = p;
    long ret = 0;
    for (;;) {
      const FailureEvent& f = fe[static_cast<std::size_t>(cur)];
      if (in_pe[static_cast<std::size_t>(cur)] || (f.kind == FailureKind::None && path.empty()) ||  // line 24
          returns_zero[static_cast<std::size_t>(cur)]) {
        ret = 0;
        break;
      }
      if (f.kind == FailureKind::Calculation) {  // line 25: (a)
        ret = -1;
        origins.push_back({Situation::CalculationFault, {cur}});
        break;
      }
      if (f.kind == FailureKind::None) {  // line 26: (b)
        ret = -2;
        origins.push_back({Situation::NonOccurredEvent, {path.back(), cur}});
        break;
      }
      if (on_path[static_cast<std::size_t>(cur)]) {  // line 27: (c) or (d)
        ret = static_cast<long>(cur) + 1;
        auto from = std::find(path.begin(), path.end(), cur);
        Origin o{Situation::Deadlock, std::vector<int>(from, path.end())};
        for (int r : o.ranks)
          if (overflow_event(r)) o.situation = Situation::BufferOverflow;
        origins.push_back(std::move(o));
        break;
      }
      const int q = f.ptr;  // line 29
      if (q < 0 || q >= graph.nranks) {
        // Not in the paper (it assumes valid ranks): the process waits on a
        // sender nobody can name (MPI_ANY_SOURCE). Like (a), the chain ends
        // here and this process is the one reported.
        ret = -1;
        origins.push_back({Situation::NonOccurredEvent, {cur}});
        break;
      }
      path.push_back(cur);  // line 30
      on_path[static_cast<std::size_t>(cur)] = 1;
      cur = q;  // line 31
    }
    // Returning through the levels: level k called BacktraceCommDep(q_k).
    for (std::size_t k = path.size(); k-- > 0;) {
      const int level_p = path[k];
      const int q = k + 1 < path.size() ? path[k + 1] : cur;
      if (ret != 0) in_pe[static_cast<std::size_t>(q)] = 1;  // line 32
      if (ret == static_cast<long>(level_p) + 1) ret = 0;     // line 33
      else if (ret < 0) ++ret;                                // line 34
      on_path[static_cast<std::size_t>(level_p)] = 0;
      if (ret == 0) returns_zero[static_cast<std::size_t>(level_p)] = 1;  // level_p has a failure event
    }
    return ret;
  }
};

}  // namespace

BacktrackResult localize_faulty_processes(const EventGraph& graph, const trace::RunTrace& run,
                                          const std::vector<FailureEvent>& failure) {
  if (failure.size() != static_cast<std::size_t>(graph.nranks))
    throw std::invalid_argument("mpipd: " + std::to_string(failure.size()) + " failure events for " +
                                std::to_string(graph.nranks) + " ranks");
  const std::size_t n = failure.size();
  Backtracker b{graph, run, failure, std::vector<char>(n, 0), std::vector<char>(n, 0), std::vector<char>(n, 0), {}};
  for (int p = 0; p < graph.nranks; ++p)   // line 17
    if (b.backtrace(p) != 0) b.in_pe[static_cast<std::size_t>(p)] = 1;  // line 18
  BacktrackResult out;
  for (int p = 0; p < graph.nranks; ++p)
    if (b.in_pe[static_cast<std::size_t>(p)]) out.faulty.push_back(p);
  out.origins = std::move(b.origins);
  return out;
}

}  // namespace scalefuzz::detectors::mpipd
