// Event graph of MPI-PD (paper §2.1, §2.3): relations and communication errors.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "classify.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

using namespace detail;

namespace {

const Event& at(const trace::RunTrace& run, const trace::EventRef& r) {
  return run.ranks[static_cast<std::size_t>(r.rank)].events[r.index];
}

// Post -> completion by request id, per rank. A persistent request opens a
// new instance at each Start; the next RequestDone with its id closes it.
void link_nonblocking(const trace::RankTrace& rt, int rank, EventGraph& g) {
  std::unordered_map<std::uint64_t, std::size_t> open;
  auto& info = g.info[static_cast<std::size_t>(rank)];
  for (std::size_t i = 0; i < rt.events.size(); ++i) {
    const Event& e = rt.events[i];
    if (e.request == 0) continue;
    if (is_post(e)) {
      open[e.request] = i;
    } else if (op_class(e) == OpClass::RequestDone && !test_failed(e) && !unfinished(e)) {
      auto it = open.find(e.request);
      if (it == open.end()) continue;
      info[it->second].nb_partner = {rank, i};
      info[i].nb_partner = {rank, it->second};
      g.nonblocking.push_back({{rank, it->second}, {rank, i}, Relation::Nonblocking});
      open.erase(it);
    }
  }
}

// Members of a communicator: world = every rank of the run, self = none to
// wait for, others = every rank with any record on it (its creation record
// included), since traces carry no member lists.
std::map<std::uint32_t, std::vector<int>> communicator_members(const trace::RunTrace& run) {
  std::map<std::uint32_t, std::set<int>> seen;
  for (std::size_t r = 0; r < run.ranks.size(); ++r)
    for (const Event& e : run.ranks[r].events)
      if (e.comm != trace::kCommWorld && e.comm != trace::kCommSelf) seen[e.comm].insert(static_cast<int>(r));
  std::map<std::uint32_t, std::vector<int>> out;
  for (auto& [comm, ranks] : seen) out[comm].assign(ranks.begin(), ranks.end());
  std::vector<int> world(run.ranks.size());
  for (std::size_t r = 0; r < world.size(); ++r) world[r] = static_cast<int>(r);
  out[trace::kCommWorld] = std::move(world);
  return out;
}

void build_collectives(const trace::RunTrace& run, EventGraph& g) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> index;  // (comm, ordinal) -> instance
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::unordered_map<std::uint32_t, std::uint64_t> ordinal;  // per communicator
    const auto& events = run.ranks[r].events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      if (op_class(e) != OpClass::Collective && op_class(e) != OpClass::Icollective) continue;
      if (e.comm == trace::kCommSelf) continue;  // nobody to wait for
      auto key = std::make_pair(e.comm, ordinal[e.comm]++);
      auto [it, inserted] = index.try_emplace(key, g.collectives.size());
      if (inserted) g.collectives.push_back({key.first, key.second, {}, {}});
      g.collectives[it->second].events.push_back({static_cast<int>(r), i});
      g.info[r][i].collective = static_cast<std::int32_t>(it->second);
    }
  }
  auto members = communicator_members(run);
  for (auto& inst : g.collectives) {
    std::set<int> present;
    for (const auto& ref : inst.events) present.insert(ref.rank);
    for (int m : members[inst.comm])
      if (!present.count(m)) inst.missing.push_back(m);
  }
}

struct Pending {
  trace::EventRef ref;
  std::int32_t tag;
  std::int64_t bytes;
};

bool tag_fits(std::int32_t recv_tag, std::int32_t send_tag) {
  return recv_tag == trace::kAnyTag || recv_tag == send_tag;
}

// Pairs sends the matching left unmatched with receive posts that never
// completed (or failed), in MPI order per (source, destination, communicator):
// such a pair would have matched, so the message was in flight when the run
// ended or, when the send is longer than the receive buffer, overflowed it.
void pair_leftovers(const trace::RunTrace& run, const trace::Matching& m, EventGraph& g) {
  using Key = std::tuple<int, int, std::uint32_t>;  // source, destination, comm
  std::map<Key, std::vector<Pending>> sends;
  for (const auto& ref : m.unmatched_sends) {
    const Event& e = at(run, ref);
    if (!valid_rank(e.peer, g.nranks)) continue;
    sends[{ref.rank, e.peer, e.comm}].push_back({ref, e.tag, e.bytes});
  }
  for (auto& [key, list] : sends)
    std::sort(list.begin(), list.end(), [](const Pending& a, const Pending& b) { return a.ref.index < b.ref.index; });
  std::set<std::pair<int, std::size_t>> used;  // (rank, index) of paired sends
  std::vector<trace::EventRef> recvs = m.unmatched_recvs;
  std::sort(recvs.begin(), recvs.end(),
            [](const auto& a, const auto& b) { return std::tie(a.rank, a.index) < std::tie(b.rank, b.index); });
  for (const auto& ref : recvs) {
    const Event& r = at(run, ref);
    const auto& info = g.info[static_cast<std::size_t>(ref.rank)][ref.index];
    const bool ended = unfinished(r) || r.error != 0 ||
                       (info.nb_partner.rank >= 0 && at(run, info.nb_partner).error != 0) ||
                       (is_post(r) && info.nb_partner.rank < 0);
    if (!ended) continue;
    std::vector<int> sources;
    if (valid_rank(r.peer, g.nranks)) sources.push_back(r.peer);
    else if (r.peer == trace::kAnySource)
      for (int s = 0; s < g.nranks; ++s) sources.push_back(s);
    for (int s : sources) {
      auto it = sends.find({s, ref.rank, r.comm});
      if (it == sends.end()) continue;
      auto cand = std::find_if(it->second.begin(), it->second.end(), [&](const Pending& p) {
        return !used.count({p.ref.rank, p.ref.index}) && tag_fits(r.tag, p.tag);
      });
      if (cand == it->second.end()) continue;
      used.insert({cand->ref.rank, cand->ref.index});
      auto& si = g.info[static_cast<std::size_t>(cand->ref.rank)][cand->ref.index];
      auto& ri = g.info[static_cast<std::size_t>(ref.rank)][ref.index];
      si.partner = ref;
      ri.partner = cand->ref;
      if (cand->bytes > r.bytes) si.overflow = ri.overflow = true;
      g.concurrent.push_back({cand->ref, ref, Relation::Concurrent});
      break;
    }
  }
}

}  // namespace

EventGraph build_event_graph(const trace::RunTrace& run, const trace::Matching& matching) {
  EventGraph g;
  g.nranks = static_cast<int>(run.ranks.size());
  g.info.resize(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) g.info[r].resize(run.ranks[r].events.size());

  for (std::size_t r = 0; r < run.ranks.size(); ++r) link_nonblocking(run.ranks[r], static_cast<int>(r), g);

  for (const auto& msg : matching.messages) {
    auto& si = g.info[static_cast<std::size_t>(msg.send.rank)][msg.send.index];
    auto& ri = g.info[static_cast<std::size_t>(msg.recv_post.rank)][msg.recv_post.index];
    si.partner = msg.recv_post;
    ri.partner = msg.send;
    if (!(msg.recv_done == msg.recv_post))
      g.info[static_cast<std::size_t>(msg.recv_done.rank)][msg.recv_done.index].partner = msg.send;
    if (at(run, msg.send).bytes > at(run, msg.recv_post).bytes) si.overflow = ri.overflow = true;
    g.concurrent.push_back({msg.send, msg.recv_post, Relation::Concurrent});
  }
  pair_leftovers(run, matching, g);
  build_collectives(run, g);

  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const auto& rt = run.ranks[r];
    auto kinds = persistent_kinds(rt);
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const Event& e = rt.events[i];
      EventInfo& info = g.info[r][i];
      info.unfinished = unfinished(e);
      info.mpi_error = !info.unfinished && e.error != 0;
      const Side side = side_of(e, kinds);
      info.communication = side != Side::None;
      const bool nb_post = is_post(e);
      switch (side) {
        case Side::SendPost:
          info.isolated = info.partner.rank < 0;
          break;
        case Side::RecvPost:
          // A post that matched but never completed is not an error of its
          // own: the process stopped elsewhere before waiting for it.
          info.isolated = info.partner.rank < 0 &&
                          (info.unfinished || info.mpi_error || (nb_post && info.nb_partner.rank < 0));
          break;
        case Side::Probe:
          info.isolated = info.unfinished;  // a blocking probe that never saw its message
          break;
        case Side::Collective:
          info.isolated = info.collective >= 0 && !g.collectives[static_cast<std::size_t>(info.collective)].missing.empty();
          break;
        default:
          break;
      }
    }
  }
  return g;
}

}  // namespace scalefuzz::detectors::mpipd
