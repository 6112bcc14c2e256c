// Times the PDG analysis (model building from rank traces, SEMI-DIST, DIST)
// on synthetic hangs of an SPMD program and prints the LP tasks it finds.
//
// The program: MPI_Init, then ITERATIONS passes over PHASES phases; in each
// phase a rank of class c = rank % 4 posts an Isend and an Irecv from its own
// call sites (class-specific code paths), waits in a shared Waitall, then joins
// a shared Allreduce. The hang: rank F stalls computing before phase K of the
// last pass; its ring neighbours wait in Waitall(K) on F; every other rank
// waits in Allreduce(K).
//
// Usage: pdg_bench [tasks ...]   (default: 32768 1000000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "scalefuzz/detectors/pdg.hpp"

namespace pdg = scalefuzz::detectors::pdg;
namespace trace = scalefuzz::trace;

namespace {

constexpr int kClasses = 4;
constexpr int kPhases = 8;
constexpr int kIterations = 10;
constexpr int kStallPhase = 5;

std::uint64_t site_init() { return 0x5000; }
std::uint64_t site_isend(int phase, int cls) { return 0x6000 + phase * 16 + cls; }
std::uint64_t site_irecv(int phase, int cls) { return 0x7000 + phase * 16 + cls; }
std::uint64_t site_waitall(int phase) { return 0x8000 + phase; }
std::uint64_t site_allreduce(int phase) { return 0x9000 + phase; }

enum class Role { Stalled, Neighbour, Other };

// One rank's trace from the call path it went through.
trace::RankTrace rank_from_path(const std::vector<std::uint64_t>& path, bool in_call, trace::OpClass op_class) {
  trace::RankTrace r;
  std::vector<std::uint64_t> distinct;
  auto id_of = [&](std::uint64_t h) {
    auto it = std::find(distinct.begin(), distinct.end(), h);
    if (it != distinct.end()) return static_cast<std::uint32_t>(it - distinct.begin());
    distinct.push_back(h);
    trace::CallSiteInfo s;
    s.id = static_cast<std::uint32_t>(distinct.size() - 1);
    s.stable_hash = h;
    r.sites.push_back(s);
    return s.id;
  };
  std::uint32_t prev = trace::kMarkovStart;
  for (std::uint64_t h : path) {
    const std::uint32_t cur = id_of(h);
    auto e = std::find_if(r.markov.edges.begin(), r.markov.edges.end(),
                          [&](const trace::MarkovModel::Edge& x) { return x.from == prev && x.to == cur; });
    if (e == r.markov.edges.end()) r.markov.edges.push_back({prev, cur, 1, 0});
    else ++e->count;
    prev = cur;
  }
  trace::LiveState live{};
  live.callsite = prev;
  live.calls = live.current_seq = path.size();
  live.in_call = in_call ? 1 : 0;
  live.op_class = static_cast<std::uint8_t>(op_class);
  live.peer = trace::kNoPeer;
  r.live = live;
  return r;
}

trace::RankTrace make_template(int cls, Role role) {
  std::vector<std::uint64_t> path{site_init()};
  auto phase = [&](int p) {
    path.insert(path.end(), {site_isend(p, cls), site_irecv(p, cls), site_waitall(p), site_allreduce(p)});
  };
  for (int it = 0; it + 1 < kIterations; ++it) {
    for (int p = 0; p < kPhases; ++p) phase(p);
  }
  for (int p = 0; p < kStallPhase; ++p) phase(p);
  switch (role) {
    case Role::Stalled:  // computing after Allreduce(K-1)
      return rank_from_path(path, false, trace::OpClass::Collective);
    case Role::Neighbour: {  // in Waitall(K) on an Irecv from the stalled rank
      path.insert(path.end(), {site_isend(kStallPhase, cls), site_irecv(kStallPhase, cls), site_waitall(kStallPhase)});
      trace::RankTrace r = rank_from_path(path, true, trace::OpClass::Completion);
      r.live->npending = 1;
      r.live->pending[0].op_class = static_cast<std::uint8_t>(trace::OpClass::Irecv);
      r.live->pending[0].request = 7;
      return r;
    }
    case Role::Other:
      phase(kStallPhase);
      return rank_from_path(path, true, trace::OpClass::Collective);
  }
  return {};
}

struct Templates {
  std::vector<trace::RankTrace> t = std::vector<trace::RankTrace>(kClasses * 3);
  Templates() {
    for (int c = 0; c < kClasses; ++c) {
      for (Role role : {Role::Stalled, Role::Neighbour, Role::Other}) t[index(c, role)] = make_template(c, role);
    }
  }
  static std::size_t index(int cls, Role role) { return static_cast<std::size_t>(cls * 3 + static_cast<int>(role)); }
  // The template of `rank`, adjusted to be that rank of a world of `n` with `stalled` stalled.
  trace::RankTrace& rank(int rank, int n, int stalled) {
    const Role role = rank == stalled ? Role::Stalled
                      : (rank == (stalled + 1) % n || rank == (stalled + n - 1) % n) ? Role::Neighbour
                                                                                     : Role::Other;
    trace::RankTrace& r = t[index(rank % kClasses, role)];
    r.rank = rank;
    r.world_size = n;
    if (role == Role::Neighbour) r.live->pending[0].peer = stalled;
    return r;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
double best_of(int reps, F&& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

std::string lp_text(const pdg::PdgResult& r) {
  return scalefuzz::detectors::rank_ranges(r.lp_tasks) + " (" + std::to_string(r.nodes.size()) + " groups, " +
         std::to_string(r.edges.size()) + " edges)";
}

void run(int n) {
  const int stalled = n / 3 + 1;
  Templates templates;
  std::printf("\n== %d tasks, rank %d stalled ==\n", n, stalled);

  pdg::ProgressModel model;
  const double t_build = best_of(3, [&] {
    pdg::ProgressModelBuilder b;
    b.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) b.add_rank(templates.rank(r, n, stalled));
    model = b.finish();
  });
  std::printf("  model: %zu states, %zu distinct task models, %zu p2p dependencies\n", model.states.size(),
              model.models.size(), model.p2p.size());
  std::printf("  %-52s %8.3f s\n", "build model from rank traces (streamed)", t_build);

  struct Case {
    const char* name;
    pdg::Variant variant;
    pdg::P2pElimination elimination;
    bool visits;
  };
  const Case cases[] = {
      {"SEMI-DIST, paper elimination", pdg::Variant::SemiDist, pdg::P2pElimination::Paper, false},
      {"SEMI-DIST, strict elimination", pdg::Variant::SemiDist, pdg::P2pElimination::Strict, false},
      {"SEMI-DIST, strict + visit counts", pdg::Variant::SemiDist, pdg::P2pElimination::Strict, true},
      {"DIST, paper elimination", pdg::Variant::Dist, pdg::P2pElimination::Paper, false},
      {"DIST, strict + visit counts", pdg::Variant::Dist, pdg::P2pElimination::Strict, true},
  };
  for (const Case& c : cases) {
    pdg::PdgOptions o;
    o.variant = c.variant;
    o.elimination = c.elimination;
    o.resolve_with_visit_counts = c.visits;
    pdg::PdgResult res;
    const double t = best_of(3, [&] { res = pdg::analyze_progress(model, o); });
    std::printf("  %-52s %8.3f s   build+analyze %6.3f s   LP %s\n", (std::string("analyze: ") + c.name).c_str(), t,
                t + t_build, lp_text(res).c_str());
  }

  if (n <= 65536) {
    // Worst case for the model cache and for DIST: every rank's counts differ
    // (here the count of its first transition), so every task has its own model.
    pdg::ProgressModel distinct;
    const double t_b = best_of(1, [&] {
      pdg::ProgressModelBuilder b;
      for (int r = 0; r < n; ++r) {
        trace::RankTrace& rt = templates.rank(r, n, stalled);
        const std::uint64_t saved = rt.markov.edges[0].count;
        rt.markov.edges[0].count = 1 + static_cast<std::uint64_t>(r);
        b.add_rank(rt);
        rt.markov.edges[0].count = saved;
      }
      distinct = b.finish();
    });
    std::printf("  all ranks' models distinct (%zu models): build %.3f s\n", distinct.models.size(), t_b);
    for (pdg::Variant v : {pdg::Variant::SemiDist, pdg::Variant::Dist}) {
      pdg::PdgOptions o;
      o.variant = v;
      o.resolve_with_visit_counts = true;
      pdg::PdgResult res;
      const double t = best_of(1, [&] { res = pdg::analyze_progress(distinct, o); });
      std::printf("  %-52s %8.3f s   LP %s\n", (std::string("analyze distinct models: ") + pdg::to_string(v)).c_str(), t,
                  lp_text(res).c_str());
    }
  }

  if (n <= 65536) {  // the whole RunTrace in memory (several KB per rank)
    trace::RunTrace whole;
    for (int r = 0; r < n; ++r) whole.ranks.push_back(templates.rank(r, n, stalled));
    pdg::PdgResult res;
    const double t = best_of(3, [&] { res = pdg::analyze_progress(whole, pdg::PdgOptions{}); });
    std::printf("  %-52s %8.3f s   LP %s\n", "analyze_progress(RunTrace) SEMI-DIST, end to end", t, lp_text(res).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const long v = std::strtol(argv[i], &end, 10);
    if (*end != '\0' || v < 4 || v > 50'000'000) {
      std::fprintf(stderr, "pdg_bench: task count must be an integer in 4..5e7, got '%s'\n", argv[i]);
      return 2;
    }
    sizes.push_back(static_cast<int>(v));
  }
  if (sizes.empty()) sizes = {32768, 1000000};
  std::printf("PDG analysis, one core, best of 3 (%d phases x %d iterations, %d rank classes)\n", kPhases,
              kIterations, kClasses);
  for (int n : sizes) run(n);
  return 0;
}
