// Programs that complete only because MPI buffers standard-mode sends
// (issue 21, check 4, on the trace): MPI-4.0 §3.5 calls a program that
// relies on buffering unsafe — a standard send may complete only once the
// matching receive is posted. The run's recorded calls are replayed with
// every standard send synchronous (a send, or the wait of a nonblocking
// send, completes only when its matched receive has been posted) and every
// blocking collective synchronizing (§6.14: a portable program must not rely
// on either). When the replay gets stuck with a rank blocked in a send, the
// program deadlocks on an MPI that does not buffer (or once the message is
// above the eager limit): the stuck calls are the finding. Stuck with no
// send but a rank in a collective, it completed only because the collective
// did not synchronize (a root leaving MPI_Bcast/MPI_Scatter early): also
// unportable (§6.14).
//
// Calls the replay does not model (probes, persistent and nonblocking
// collective requests, one-sided ...) never block in it, so they can only
// let the replay go further: what it reports stuck is stuck.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "comms.hpp"
#include "scalefuzz/detectors/usage.hpp"

namespace scalefuzz::detectors::usage {

namespace {

using trace::Event;
using trace::EventRef;
using trace::OpClass;

struct Step {
  std::size_t first = 0, last = 0;  // the call's record and its last child record
};

// Why a rank cannot leave its current call in the replay.
struct Block {
  bool send = false;  // waiting for a receive to be posted (buffering would have let it go)
  std::string what;   // "MPI_Send to rank 1 waits for its receive"
  bool collective = false;  // waiting for the other members to call the collective
  int waits_for = -1;        // collective: a member that has not called it yet but calls it later
};

class Replay {
 public:
  Replay(const trace::RunTrace& run, const trace::Matching& matching) : run_(run), comms_(comms_of(run)) {
    const std::size_t n = run.ranks.size();
    steps_.resize(n);
    pc_.assign(n, 0);
    reach_.assign(n, -1);
    colls_.resize(n);
    totals_.resize(n);
    ordinal_.resize(n);
    for (const auto& m : matching.messages) {
      send_to_recv_[{m.send.rank, m.send.index}] = m.recv_post;
      recv_to_send_[{m.recv_post.rank, m.recv_post.index}] = m.send;
    }
    for (const auto& rt : run.ranks) {
      if (rt.rank < 0) continue;
      auto& steps = steps_[static_cast<std::size_t>(rt.rank)];
      std::map<std::uint64_t, std::size_t> posts;  // request id -> its latest post
      for (std::size_t i = 0; i < rt.events.size(); ++i) {
        const Event& e = rt.events[i];
        const OpClass c = op_class(e);
        if ((c == OpClass::Isend || c == OpClass::Irecv) && e.request != 0) posts[e.request] = i;
        if (c == OpClass::Collective && (e.flags & trace::kFlagChild) == 0) ++totals_[static_cast<std::size_t>(rt.rank)][e.comm];
        if (c == OpClass::RequestDone && (e.flags & trace::kFlagTestFailed) == 0)
          if (auto it = posts.find(e.request); it != posts.end()) done_post_[{rt.rank, i}] = it->second;
        if ((e.flags & trace::kFlagChild) == 0 || steps.empty()) steps.push_back({i, i});
        else steps.back().last = i;
      }
    }
  }

  // Runs the replay; the ranks left inside a call, with why.
  std::vector<std::pair<int, Block>> stuck() {
    const int n = static_cast<int>(run_.ranks.size());
    for (int r = 0; r < n; ++r) enter(r);
    for (bool progress = true; progress;) {
      progress = false;
      for (int r = 0; r < n; ++r)
        while (pc_[r] < steps_[r].size() && !blocked(r)) {
          ++pc_[r];
          enter(r);
          progress = true;
        }
    }
    std::vector<std::pair<int, Block>> out;
    for (int r = 0; r < n; ++r)
      if (pc_[r] < steps_[r].size()) out.emplace_back(r, *blocked(r));
    return out;
  }
  std::size_t call_of(int r) const { return steps_[r].at(pc_[r]).first; }

 private:
  const Event& ev(int r, std::size_t i) const { return run_.ranks[static_cast<std::size_t>(r)].events[i]; }
  bool posted(const EventRef& ref) const { return static_cast<std::int64_t>(ref.index) <= reach_[ref.rank]; }
  static std::string peer_text(const Event& e) { return "rank " + std::to_string(e.peer); }

  void enter(int r) {
    if (pc_[r] >= steps_[r].size()) return;
    const Step& s = steps_[r][pc_[r]];
    reach_[r] = static_cast<std::int64_t>(s.last);
    const Event& e = ev(r, s.first);
    if (op_class(e) == OpClass::Collective) ordinal_[r] = colls_[r][e.comm]++;
  }

  // The send record at (r, i) waits for its receive; nullopt: it may go.
  std::optional<Block> send_waits(int r, std::size_t i) const {
    const Event& e = ev(r, i);
    if (e.peer < 0 || (e.flags & (trace::kFlagBuffered | trace::kFlagCancelled)) != 0) return std::nullopt;
    auto it = send_to_recv_.find({r, i});
    if (it == send_to_recv_.end() || posted(it->second)) return std::nullopt;
    return Block{true, std::string(trace::op_name(e.op)) + " to " + peer_text(e) + " waits for rank " +
                           std::to_string(it->second.rank) + " to post its receive"};
  }
  std::optional<Block> recv_waits(int r, std::size_t i) const {
    auto it = recv_to_send_.find({r, i});
    if (it == recv_to_send_.end() || posted(it->second)) return std::nullopt;
    return Block{false, std::string(trace::op_name(ev(r, i).op)) + " waits for rank " +
                            std::to_string(it->second.rank) + "'s send"};
  }

  std::optional<Block> blocked(int r) const {
    const Step& s = steps_[r][pc_[r]];
    const Event& e = ev(r, s.first);
    switch (op_class(e)) {
      case OpClass::Send:
        return send_waits(r, s.first);
      case OpClass::Recv:
        return recv_waits(r, s.first);
      case OpClass::Sendrecv: {
        if (auto b = send_waits(r, s.first)) return b;
        for (std::size_t i = s.first + 1; i <= s.last; ++i)
          if (op_class(ev(r, i)) == OpClass::Recv) return recv_waits(r, i);
        return std::nullopt;
      }
      case OpClass::Completion:
        for (std::size_t i = s.first + 1; i <= s.last; ++i) {
          auto post = done_post_.find({r, i});
          if (post == done_post_.end()) continue;
          const OpClass pc = op_class(ev(r, post->second));
          auto b = pc == OpClass::Isend ? send_waits(r, post->second) : recv_waits(r, post->second);
          if (b) {
            b->what = std::string(trace::op_name(e.op)) + ": " + b->what;
            return b;
          }
        }
        return std::nullopt;
      case OpClass::Collective: {
        auto members = comms_.members.find(e.comm);
        if (comms_.inter.count(e.comm) != 0 || members == comms_.members.end() || !members->second.count(r))
          return std::nullopt;
        for (int m : members->second) {
          if (m < 0 || m >= static_cast<int>(colls_.size())) return std::nullopt;
          auto it = colls_[m].find(e.comm);
          if (it == colls_[m].end() || it->second <= ordinal_[r]) {
            // A member that never calls it is collective-missing, not this.
            auto total = totals_[m].find(e.comm);
            const bool later = total != totals_[m].end() && total->second > ordinal_[r];
            return Block{false, std::string(trace::op_name(e.op)) + " waits for rank " + std::to_string(m) +
                                    " to call it", later, later ? m : -1};
          }
        }
        return std::nullopt;
      }
      default:
        return std::nullopt;
    }
  }

  const trace::RunTrace& run_;
  Comms comms_;
  std::vector<std::vector<Step>> steps_;
  std::vector<std::size_t> pc_;
  std::vector<std::int64_t> reach_;                         // last record a rank has entered
  std::vector<std::map<std::uint32_t, std::size_t>> colls_;  // collectives entered per communicator
  std::vector<std::map<std::uint32_t, std::size_t>> totals_;  // collectives called per communicator in the run
  std::vector<std::size_t> ordinal_;                        // of the collective a rank is in
  std::map<std::pair<int, std::size_t>, EventRef> send_to_recv_, recv_to_send_;
  std::map<std::pair<int, std::size_t>, std::size_t> done_post_;  // RequestDone -> its Isend/Irecv
};

}  // namespace

void check_buffering(const trace::RunTrace& run, const trace::Matching& matching, const Options& options,
                     std::vector<Issue>& out) {
  if (!options.run_completed) return;  // a hang is MPI-PD's; a crash is not a completed replay
  for (const auto& rt : run.ranks)
    if (rt.rank < 0 || rt.events.empty() || rt.events_capped) return;
  Replay replay(run, matching);
  auto stuck = replay.stuck();
  bool on_send = false, in_collective = false;
  for (const auto& [r, b] : stuck) {
    on_send = on_send || b.send;
    // The member it waits for is stuck elsewhere (a receive, another
    // collective) and would call it later: a cycle through the collective.
    for (const auto& [other, ob] : stuck)
      in_collective = in_collective || (b.collective && other == b.waits_for);
  }
  if (!on_send && !in_collective) return;
  Issue is;
  is.kind = "potential-deadlock";
  if (on_send) {
    is.section = "MPI-4.0 §3.5 (a program that relies on the buffering of standard-mode sends is unsafe), §6.14";
    is.rule = "a program must complete when standard-mode sends do not buffer (they may complete only once the "
              "matching receive is posted)";
    is.message = "completed only because MPI buffered the sends; without buffering";
  } else {
    // No send is stuck: the run completed only because a collective let a
    // member leave before the others called it (MPICH's Bcast/Scatter root,
    // Gather non-roots, eager trees). MPI-4.0 §6.14: a portable program must
    // not depend on whether a collective synchronizes.
    is.section = "MPI-4.0 §6.14 (a correct, portable program must not depend on whether collectives synchronize)";
    is.rule = "a program must complete whether or not a collective operation synchronizes its members";
    is.message = "completed only because a collective did not synchronize; with a synchronizing collective";
  }
  for (const auto& [r, b] : stuck) {
    is.message += (is.sides.empty() ? " " : "; ") + std::string("rank ") + std::to_string(r) + ": " + b.what;
    is.sides.push_back({r, replay.call_of(r), b.send ? "blocked in a send" : b.collective ? "blocked in a collective" : "blocked"});
  }
  // Blocked sends first: that is where buffering was relied on (without
  // one, the collective the program assumed not to synchronize).
  std::stable_partition(is.sides.begin(), is.sides.end(), [&](const Side& s) {
    for (const auto& [r, b] : stuck)
      if (r == s.rank) return on_send ? b.send : b.collective;
    return false;
  });
  out.push_back(std::move(is));
}

}  // namespace scalefuzz::detectors::usage
