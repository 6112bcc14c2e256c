// Wait-for edges of a hung run (issue 21 item 7): which rank each blocked
// rank waits for, in which call, and what that rank is doing — a rank that
// waits for a rank that already finalized (or exited), or for a rank that
// runs outside MPI, is stuck for that reason and not in a deadlock cycle
// (cycles of ranks blocked in MPI are MPI-PD's and PDG's deadlocks).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "comms.hpp"
#include "requests.hpp"
#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::detectors::usage {

namespace {

using trace::Event;
using trace::OpClass;
namespace ops = trace::ops;

bool unfinished(const Event& e) { return e.t_exit_ns == 0; }
bool failed_poll(const Event& e) { return (e.flags & trace::kFlagTestFailed) != 0; }

// What a peer is doing when the run was stopped.
enum class PeerState { InMpi, Finalized, Exited, OutsideMpi, Unknown };

struct Peer {
  PeerState state = PeerState::Unknown;
  std::optional<std::size_t> at;  // its MPI_Finalize record, or its last record
};

Peer peer_state(const trace::RankTrace& rt) {
  Peer p;
  if (rt.rank < 0 || rt.fatal_signal) return p;
  const auto& ev = rt.events;
  for (std::size_t k = ev.size(); k-- > 0;)
    if (op_class(ev[k]) == OpClass::Finalize) {
      p.state = PeerState::Finalized;
      p.at = k;
      return p;
    }
  if (rt.live && rt.live->finalized != 0) {
    p.state = PeerState::Finalized;
    return p;
  }
  if (!ev.empty()) p.at = ev.size() - 1;
  if (rt.exited_without_finalize) {
    p.state = PeerState::Exited;
  } else if ((!ev.empty() && (unfinished(ev.back()) || failed_poll(ev.back()))) ||
             (rt.live && rt.live->in_call != 0)) {
    p.state = PeerState::InMpi;  // blocked, or polling
  } else if (!ev.empty()) {
    p.state = PeerState::OutsideMpi;
  }
  return p;
}

// One request (or blocking call) of a blocked rank and whom it needs.
struct Need {
  std::size_t post;  // record that posted it (== the blocked call for blocking ones)
  bool receive;
  std::int32_t peer;  // world rank or kAnySource
  std::int32_t tag;
  std::uint32_t comm;
};

// Requests active (posted or started) and neither completed nor cancelled
// before record `end`: request id -> the record that made it active
// (Isend/Irecv/Icollective/Start, which carry its envelope) and whether it receives.
std::map<std::uint64_t, std::pair<std::size_t, bool>> pending_posts(const trace::RankTrace& rt, std::size_t end) {
  std::map<std::uint64_t, std::pair<std::size_t, bool>> pending;
  for (const auto& [id, r] : open_requests(rt, end))
    if (r.active && !r.cancelled) pending[id] = {r.started, r.receive};
  return pending;
}


}  // namespace

void check_finalized_waits(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out) {
  std::vector<Peer> peers;
  for (const auto& rt : run.ranks) peers.push_back(peer_state(rt));
  // Sends that no receive took, per (source, destination): a receive from a
  // finalized rank can still complete with one of those.
  std::set<std::pair<int, int>> undelivered;
  for (const auto& ref : matching.unmatched_sends) {
    const Event& s = run.ranks[static_cast<std::size_t>(ref.rank)].events[ref.index];
    undelivered.insert({ref.rank, s.peer});
  }
  // Sends some receive took (a Waitall writes its requests' completions only
  // when all are done, so a delivered Isend may still look pending).
  std::set<std::pair<int, std::size_t>> delivered;
  for (const auto& m : matching.messages) delivered.insert({m.send.rank, m.send.index});
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0 || rt.events.empty()) continue;
    if (peers[static_cast<std::size_t>(rt.rank)].state != PeerState::InMpi) continue;
    std::size_t b = rt.events.size() - 1;
    const Event& blocked = rt.events[b];
    const OpClass c = op_class(blocked);
    std::vector<Need> needs;
    bool need_all = true;  // Waitall-like: one hopeless request blocks the call
    if (c == OpClass::Recv || c == OpClass::Probe) {
      needs.push_back({b, true, blocked.peer, blocked.tag, blocked.comm});
    } else if (c == OpClass::Send || c == OpClass::Sendrecv) {
      needs.push_back({b, false, blocked.peer, blocked.tag, blocked.comm});
    } else if (c == OpClass::Completion) {
      const std::uint16_t op = blocked.op;
      need_all = op != ops::Waitany && op != ops::Testany && op != ops::Waitsome && op != ops::Testsome;
      auto pending = pending_posts(rt, b);
      if (blocked.request != 0 && pending.count(blocked.request) != 0 && (op == ops::Wait || op == ops::Test)) {
        pending = {{blocked.request, pending[blocked.request]}};
      }
      for (const auto& [req, at] : pending) {
        const Event& p = rt.events[at.first];
        if (op_class(p) == OpClass::Icollective) continue;  // collective-missing
        needs.push_back({at.first, at.second, p.peer, p.tag, p.comm});
      }
    } else {
      continue;  // collectives: collective-missing; local calls: MPI-PD
    }
    if (needs.empty()) continue;
    // Which needs can never be met because the peer has finalized or exited.
    std::optional<std::size_t> hopeless;
    std::size_t hopeless_count = 0;
    for (std::size_t i = 0; i < needs.size(); ++i) {
      const Need& n = needs[i];
      if (n.peer < 0 || static_cast<std::size_t>(n.peer) >= peers.size()) continue;  // any source, PROC_NULL
      const Peer& p = peers[static_cast<std::size_t>(n.peer)];
      if (p.state != PeerState::Finalized && p.state != PeerState::Exited) continue;
      if (n.receive && undelivered.count({n.peer, rt.rank}) != 0) continue;  // a message is there
      if (!n.receive && delivered.count({rt.rank, n.post}) != 0) continue;    // it was received
      ++hopeless_count;
      if (!hopeless) hopeless = i;
    }
    if (!hopeless || (!need_all && hopeless_count != needs.size())) {
      // Otherwise: one needed rank that runs outside MPI (not blocked, not
      // polling, not finalized) is what this rank waits for.
      if (needs.size() != 1 || needs[0].peer < 0 || static_cast<std::size_t>(needs[0].peer) >= peers.size()) continue;
      const Peer& q = peers[static_cast<std::size_t>(needs[0].peer)];
      if (q.state != PeerState::OutsideMpi) continue;
      Issue is;
      is.kind = "waits-for-rank-outside-mpi";
      is.section = "MPI-4.0 §3.5 (a blocking operation completes only when its peer takes part)";
      is.rule = "a rank that another rank waits for must reach the matching MPI call";
      is.message = "rank " + std::to_string(rt.rank) + " waits in " + trace::op_name(blocked.op) + " for rank " +
                   std::to_string(needs[0].peer) + ", which was running outside MPI when the run was stopped" +
                   " (its last MPI call had returned): not a deadlock cycle, that rank is stuck in its own code";
      is.sides.push_back({rt.rank, b, "waits here"});
      if (needs[0].post != b) is.sides.push_back({rt.rank, needs[0].post, "request posted here"});
      if (q.at) is.sides.push_back({needs[0].peer, *q.at, "last MPI call of the rank waited for"});
      out.push_back(std::move(is));
      continue;
    }
    const Need& n = needs[*hopeless];
    const Peer& p = peers[static_cast<std::size_t>(n.peer)];
    const bool exited = p.state == PeerState::Exited;
    Issue is;
    is.kind = "waits-for-finalized";
    is.section = exited ? "MPI-4.0 §11.2.2 (every process must call MPI_Finalize)"
                        : "MPI-4.0 §11.2.2 (MPI_Finalize: all communication a process takes part in must be complete)";
    is.rule = "a rank must not finalize (or exit) while another rank still needs a message from, or a receive by, it";
    const Event& post = rt.events[n.post];
    is.message = "rank " + std::to_string(rt.rank) + " waits in " + trace::op_name(blocked.op) + " for " +
                 (n.receive ? "a message from" : "a receive by") + " rank " + std::to_string(n.peer) +
                 (n.post != b ? std::string(" (") + trace::op_name(post.op) + ")" : std::string()) + ", which " +
                 (exited ? "exited without MPI_Finalize" : "already called MPI_Finalize") +
                 (n.receive ? " without sending it" : " without receiving it") +
                 "; not a deadlock cycle: that rank will never act again";
    is.sides.push_back({rt.rank, b, "waits here"});
    if (n.post != b) is.sides.push_back({rt.rank, n.post, "request posted here"});
    if (p.at) is.sides.push_back({n.peer, *p.at, exited ? "last MPI call before exiting" : "finalized here"});
    out.push_back(std::move(is));
  }
}

}  // namespace scalefuzz::detectors::usage
