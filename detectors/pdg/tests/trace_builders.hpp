// Hand-made rank traces for the PDG tests: a rank is described by the path of
// call sites (stable hashes) it went through; its Markov model, call-site
// table and live state follow from the path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::pdg::testing {

struct RankPath {
  RankPath() = default;
  RankPath(std::vector<std::uint64_t> p, bool blocked = true, trace::OpClass c = trace::OpClass::Collective,
           std::int32_t to = trace::kNoPeer)
      : path(std::move(p)), in_call(blocked), op_class(c), peer(to) {}

  std::vector<std::uint64_t> path;  // call sites visited, in order; the last is the current one
  bool in_call = true;              // blocked inside the last call (else computing after it)
  trace::OpClass op_class = trace::OpClass::Collective;
  std::int32_t peer = trace::kNoPeer;
  std::vector<trace::PendingRequest> pending;
  bool reverse_site_ids = false;    // number local call sites backwards (ids differ across ranks)
};

inline trace::RankTrace make_rank(int rank, int world, const RankPath& p) {
  trace::RankTrace r;
  r.rank = rank;
  r.world_size = world;
  std::vector<std::uint64_t> distinct;
  for (std::uint64_t h : p.path) {
    if (std::find(distinct.begin(), distinct.end(), h) == distinct.end()) distinct.push_back(h);
  }
  if (p.reverse_site_ids) std::reverse(distinct.begin(), distinct.end());
  auto id_of = [&](std::uint64_t h) {
    return static_cast<std::uint32_t>(std::find(distinct.begin(), distinct.end(), h) - distinct.begin());
  };
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    trace::CallSiteInfo s;
    s.id = static_cast<std::uint32_t>(i);
    s.stable_hash = distinct[i];
    r.sites.push_back(s);
  }
  std::uint32_t prev = trace::kMarkovStart;
  for (std::uint64_t h : p.path) {
    const std::uint32_t cur = id_of(h);
    auto it = std::find_if(r.markov.edges.begin(), r.markov.edges.end(),
                           [&](const trace::MarkovModel::Edge& e) { return e.from == prev && e.to == cur; });
    if (it == r.markov.edges.end()) {
      r.markov.edges.push_back({prev, cur, 1, 0});
    } else {
      ++it->count;
    }
    prev = cur;
  }
  if (!p.path.empty()) {
    trace::LiveState live{};
    live.callsite = id_of(p.path.back());
    live.current_seq = p.path.size();
    live.calls = p.path.size();
    live.in_call = p.in_call ? 1 : 0;
    live.op_class = static_cast<std::uint8_t>(p.op_class);
    live.peer = p.peer;
    live.npending = static_cast<std::uint32_t>(p.pending.size());
    for (std::size_t i = 0; i < p.pending.size(); ++i) live.pending[i] = p.pending[i];
    r.live = live;
  }
  return r;
}

inline trace::PendingRequest pending(trace::OpClass c, std::int32_t peer) {
  trace::PendingRequest q{};
  q.op_class = static_cast<std::uint8_t>(c);
  q.peer = peer;
  q.request = 1;
  return q;
}

}  // namespace scalefuzz::detectors::pdg::testing
