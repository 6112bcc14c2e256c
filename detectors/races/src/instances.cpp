#include "instances.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace scalefuzz::detectors::races {

namespace {

const trace::Event& event_at(const trace::RunTrace& run, const trace::EventRef& ref) {
  return run.ranks.at(static_cast<std::size_t>(ref.rank)).events.at(ref.index);
}

std::uint64_t site_hash(const trace::RunTrace& run, int rank, std::uint32_t site) {
  const auto& sites = run.ranks.at(static_cast<std::size_t>(rank)).sites;
  // A site missing from the table (truncated sites file) still gets a key that
  // cannot collide with real stable hashes of other sites on that rank.
  return site < sites.size() ? sites[site].stable_hash : (0xFFFF000000000000ull | site);
}

}  // namespace

bool ends_round(const trace::Event& e) {
  switch (static_cast<trace::OpClass>(e.op_class)) {
    case trace::OpClass::Send:
    case trace::OpClass::Isend:
    case trace::OpClass::Sendrecv:
    case trace::OpClass::Start:
    case trace::OpClass::Collective:
    case trace::OpClass::Icollective:
      return true;
    default:
      return false;
  }
}

std::vector<std::vector<std::uint64_t>> event_rounds(const trace::RunTrace& run) {
  std::vector<std::vector<std::uint64_t>> rounds(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::uint64_t round = 0;
    const auto& events = run.ranks[r].events;
    rounds[r].resize(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (ends_round(events[i])) ++round;
      rounds[r][i] = round;
    }
  }
  return rounds;
}

std::vector<ObservedMatch> observe_matches(const trace::RunTrace& run, const trace::Matching& matching) {
  const auto rounds = event_rounds(run);
  // Instance numbers follow each rank's event order: sort the message
  // indices by (rank, event index) on each side and count per key.
  const std::size_t n = matching.messages.size();
  std::vector<std::size_t> by_send(n), by_recv(n);
  for (std::size_t i = 0; i < n; ++i) by_send[i] = by_recv[i] = i;
  auto order = [&](auto side) {
    return [&, side](std::size_t a, std::size_t b) {
      const trace::EventRef& x = side(matching.messages[a]);
      const trace::EventRef& y = side(matching.messages[b]);
      return std::tie(x.rank, x.index) < std::tie(y.rank, y.index);
    };
  };
  std::sort(by_send.begin(), by_send.end(), order([](const trace::MatchedMessage& m) -> const trace::EventRef& { return m.send; }));
  std::sort(by_recv.begin(), by_recv.end(),
            order([](const trace::MatchedMessage& m) -> const trace::EventRef& { return m.recv_post; }));

  std::vector<ObservedMatch> out(n);
  std::map<std::tuple<int, std::uint64_t, std::uint32_t, std::int32_t>, std::uint64_t> send_count;
  for (std::size_t i : by_send) {
    const auto& m = matching.messages[i];
    const trace::Event& send = event_at(run, m.send);
    ObservedMatch& o = out[i];
    o.send_rank = m.send.rank;
    o.send_site_id = send.callsite;
    o.send_site_hash = site_hash(run, m.send.rank, send.callsite);
    o.send_seq = send.seq;
    o.tag = m.tag;
    o.comm = m.comm;
    o.send_instance = send_count[{o.send_rank, o.send_site_hash, m.comm, m.tag}]++;
  }
  std::map<std::tuple<int, std::uint64_t, std::uint32_t>, std::uint64_t> recv_count;
  for (std::size_t i : by_recv) {
    const auto& m = matching.messages[i];
    const trace::Event& recv = event_at(run, m.recv_post);
    const trace::Event& done = event_at(run, m.recv_done);
    ObservedMatch& o = out[i];
    o.recv_rank = m.recv_post.rank;
    o.recv_site_id = recv.callsite;
    o.recv_site_hash = site_hash(run, m.recv_post.rank, recv.callsite);
    o.recv_seq = recv.seq;
    o.recv_instance = recv_count[{o.recv_rank, o.recv_site_hash, m.comm}]++;
    o.recv_round = rounds[static_cast<std::size_t>(o.recv_rank)][m.recv_post.index];
    o.recv_done_ns = done.t_exit_ns != 0 ? done.t_exit_ns : done.t_enter_ns;
    o.wildcard = recv.peer == trace::kAnySource;
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
