#include "instances.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace scalefuzz::detectors::races {

namespace {

const trace::Event& event_at(const trace::RunTrace& run, const trace::EventRef& ref) {
  return run.ranks.at(static_cast<std::size_t>(ref.rank)).events.at(ref.index);
}

}  // namespace

std::uint64_t site_hash(const trace::RunTrace& run, int rank, std::uint32_t site) {
  const auto& sites = run.ranks.at(static_cast<std::size_t>(rank)).sites;
  // A site missing from the table (truncated sites file) still gets a key that
  // cannot collide with real stable hashes of other sites on that rank.
  return site < sites.size() ? sites[site].stable_hash : (0xFFFF000000000000ull | site);
}

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

std::vector<std::vector<long>> message_of_event(const trace::RunTrace& run, const trace::Matching& matching,
                                                trace::EventRef trace::MatchedMessage::*side) {
  std::vector<std::vector<long>> out(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) out[r].assign(run.ranks[r].events.size(), -1);
  for (std::size_t i = 0; i < matching.messages.size(); ++i) {
    const trace::EventRef& at = matching.messages[i].*side;
    out[static_cast<std::size_t>(at.rank)][at.index] = static_cast<long>(i);
  }
  return out;
}

namespace {

bool is_send(const trace::Event& e, long as_send) {
  const auto cls = static_cast<trace::OpClass>(e.op_class);
  return cls == trace::OpClass::Send || cls == trace::OpClass::Isend || cls == trace::OpClass::Sendrecv || as_send >= 0;
}

}  // namespace

std::vector<std::vector<std::uint64_t>> send_instances(const trace::RunTrace& run, const trace::Matching& matching) {
  const auto as_send = message_of_event(run, matching, &trace::MatchedMessage::send);
  std::vector<std::vector<std::uint64_t>> out(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::map<std::tuple<std::uint64_t, std::uint32_t, std::int32_t>, std::uint64_t> count;
    const auto& events = run.ranks[r].events;
    out[r].assign(events.size(), 0);
    for (std::size_t i = 0; i < events.size(); ++i)
      if (is_send(events[i], as_send[r][i]))
        out[r][i] = count[{site_hash(run, static_cast<int>(r), events[i].callsite), events[i].comm, events[i].tag}]++;
  }
  return out;
}

std::vector<ObservedMatch> observe_matches(const trace::RunTrace& run, const trace::Matching& matching) {
  const auto rounds = event_rounds(run);
  const std::size_t n = matching.messages.size();
  // Instance numbers count every send and receive post of a rank in event
  // order, matched or not: a run cut short (an abort, a crash) leaves some
  // unmatched, and numbering only the matched ones would shift the rest.
  const auto as_send = message_of_event(run, matching, &trace::MatchedMessage::send);
  const auto as_recv = message_of_event(run, matching, &trace::MatchedMessage::recv_post);
  const auto send_instance = send_instances(run, matching);
  std::vector<ObservedMatch> out(n);
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::map<std::tuple<std::uint64_t, std::uint32_t, std::int32_t, std::int32_t>, std::uint64_t> send_to_count;
    std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> recv_count;
    // Phases: the round, split again at a receive posted while none of the
    // rank's earlier receives is pending. `pending` holds the event index
    // where each posted receive completed (never, for an unmatched one).
    std::uint64_t phase = 0, phase_round = 0;
    bool phase_has_recv = false;
    std::multiset<std::size_t> pending;
    const auto& events = run.ranks[r].events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const trace::Event& e = events[i];
      if (rounds[r][i] != phase_round) {
        phase_round = rounds[r][i];
        ++phase;
        phase_has_recv = false;
      }
      const auto cls = static_cast<trace::OpClass>(e.op_class);
      const bool send = is_send(e, as_send[r][i]);
      const bool recv = cls == trace::OpClass::Recv || cls == trace::OpClass::Irecv || as_recv[r][i] >= 0;
      const std::uint64_t hash = site_hash(run, static_cast<int>(r), e.callsite);
      if (send) {
        const std::uint64_t instance = send_instance[r][i];
        const std::uint64_t to_instance = send_to_count[{hash, e.comm, e.tag, e.peer}]++;
        if (long m = as_send[r][i]; m >= 0) {
          ObservedMatch& o = out[static_cast<std::size_t>(m)];
          o.send_rank = static_cast<int>(r);
          o.send_site_id = e.callsite;
          o.send_site_hash = hash;
          o.send_seq = e.seq;
          o.send_instance = instance;
          o.send_to_instance = to_instance;
        }
      }
      if (recv) {
        const std::uint64_t instance = recv_count[{hash, e.comm}]++;
        pending.erase(pending.begin(), pending.lower_bound(i));  // completed before this post
        if (pending.empty() && phase_has_recv) ++phase;
        phase_has_recv = true;
        const long posted = as_recv[r][i];
        pending.insert(posted >= 0 ? matching.messages[static_cast<std::size_t>(posted)].recv_done.index
                                   : std::numeric_limits<std::size_t>::max());
        if (long m = posted; m >= 0) {
          const auto& msg = matching.messages[static_cast<std::size_t>(m)];
          const trace::Event& done = event_at(run, msg.recv_done);
          ObservedMatch& o = out[static_cast<std::size_t>(m)];
          o.recv_rank = static_cast<int>(r);
          o.recv_site_id = e.callsite;
          o.recv_site_hash = hash;
          o.recv_seq = e.seq;
          o.recv_instance = instance;
          o.recv_round = rounds[r][i];
          o.recv_phase = phase;
          o.recv_done_ns = done.t_exit_ns != 0 ? done.t_exit_ns : done.t_enter_ns;
          o.wildcard = e.peer == trace::kAnySource;
          o.tag = msg.tag;
          o.comm = msg.comm;
        }
      }
    }
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
