// Stage 1 of Figure 3: the failure event fe_p of every process, and ptr(fe_p).
//
// The paper's run-time checker stops a process at its first communication
// error, so fe_p is the earliest error event of p (isolated, overflow, or a
// call that returned an MPI error): with buffered sends that is the faulty
// send itself, not the later call where the process finally got stuck (§5.2).
// Without an error event, fe_p is where p terminated: the MPI call it never
// returned from, or a calculation event when it stopped outside MPI. A process
// that reached MPI_Finalize terminated normally: fe_p = null.
#include <algorithm>

#include "classify.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

using namespace detail;

namespace {

struct RankView {
  const trace::RunTrace& run;
  const trace::RankTrace& rt;
  const std::vector<EventInfo>& info;
  const EventGraph& g;
  int rank;
};

int collective_dependency(const RankView& v, std::size_t i) {
  const auto& inst = v.g.collectives[static_cast<std::size_t>(v.info[i].collective)];
  const Event& e = v.rt.events[i];
  for (int m : inst.missing)
    if (m == e.root) return m;  // a rooted collective waits for its root first
  if (!inst.missing.empty()) return inst.missing.front();
  // Everyone arrived but the call never returned. Once all members are in, a
  // collective completes unless the run is torn down: a member that already
  // left it went on and failed later (or is the next link to that), so follow it.
  // Without one, the members still inside wait for each other.
  for (const auto& ref : inst.events)
    if (ref.rank != v.rank && !v.g.info[static_cast<std::size_t>(ref.rank)][ref.index].unfinished) return ref.rank;
  for (const auto& ref : inst.events)
    if (ref.rank != v.rank) return ref.rank;
  return -1;
}

int post_dependency(const RankView& v, std::size_t i);

// The request a Wait/Test call is stuck on: the named one if the record
// carries it, else the first open post with no partner, else the first open post.
int completion_dependency(const RankView& v, std::size_t i) {
  const Event& e = v.rt.events[i];
  if (v.info[i].nb_partner.rank >= 0) return post_dependency(v, v.info[i].nb_partner.index);
  std::optional<std::size_t> first_open, first_isolated;
  for (std::size_t k = 0; k < i; ++k) {
    const Event& p = v.rt.events[k];
    if (!is_post(p) || v.info[k].nb_partner.rank >= 0 || !v.info[k].communication) continue;
    if (e.request != 0 && p.request == e.request) return post_dependency(v, k);
    if (!first_open) first_open = k;
    if (!first_isolated && v.info[k].partner.rank < 0) first_isolated = k;
  }
  if (first_isolated) return post_dependency(v, *first_isolated);
  if (first_open) return post_dependency(v, *first_open);
  return -1;
}

int post_dependency(const RankView& v, std::size_t i) {
  const Event& e = v.rt.events[i];
  const EventInfo& info = v.info[i];
  if (info.collective >= 0) return collective_dependency(v, i);
  if (info.partner.rank >= 0) return info.partner.rank;
  if (valid_rank(e.peer, v.g.nranks)) return e.peer;
  return -1;  // MPI_ANY_SOURCE with no message: the sender cannot be named
}

int dependency(const RankView& v, std::size_t i) {
  const Event& e = v.rt.events[i];
  if (op_class(e) == OpClass::Completion || op_class(e) == OpClass::RequestDone) return completion_dependency(v, i);
  return post_dependency(v, i);
}

std::string error_reason(const RankView& v, std::size_t i) {
  const Event& e = v.rt.events[i];
  const EventInfo& info = v.info[i];
  std::string op = op_label(e);
  if (info.overflow && info.partner.rank >= 0) {
    const Event& other = v.run.ranks[static_cast<std::size_t>(info.partner.rank)].events[info.partner.index];
    const bool send = side_of(e, persistent_kinds(v.rt)) == Side::SendPost;
    const std::int64_t sent = send ? e.bytes : other.bytes, room = send ? other.bytes : e.bytes;
    return "overflow: " + op + (send ? " to rank " : " from rank ") + std::to_string(info.partner.rank) + " (message " +
           std::to_string(sent) + " B > receive buffer " + std::to_string(room) + " B)";
  }
  if (info.isolated) {
    switch (side_of(e, persistent_kinds(v.rt))) {
      case Side::SendPost: return "isolated send: " + op + " to rank " + std::to_string(e.peer) + " was never received";
      case Side::RecvPost:
        return "isolated receive: " + op + " from " +
               (e.peer == trace::kAnySource ? std::string("any source") : "rank " + std::to_string(e.peer)) +
               " never got a message";
      case Side::Probe: return "isolated probe: " + op + " never saw a message";
      case Side::Collective: return "isolated collective: " + op + " was not called by every member";
      default: break;
    }
  }
  if (info.mpi_error) return op + " returned MPI error " + std::to_string(e.error);
  return op + " never returned";
}

bool is_error(const EventInfo& info) { return info.isolated || info.overflow || info.mpi_error; }

FailureEvent failure_of_rank(const RankView& v, const MpipdInput& input) {
  FailureEvent fe;
  fe.rank = v.rank;
  const auto& ev = v.rt.events;
  std::optional<std::size_t> last_done;
  for (std::size_t k = ev.size(); k-- > 0;)
    if (!unfinished(ev[k])) { last_done = k; break; }

  // MPI_Abort is the rank's own verdict on the run: its failure event
  // whatever came before it (a send the killed ranks never received is
  // teardown, not the cause).
  for (std::size_t k = 0; k < ev.size(); ++k) {
    if (op_class(ev[k]) != OpClass::Abort) continue;
    fe.kind = FailureKind::Calculation;
    fe.event = k;
    fe.reason = "called MPI_Abort with error code " + std::to_string(ev[k].count);
    return fe;
  }
  if (input.crashed_rank && *input.crashed_rank == v.rank) {
    fe.kind = FailureKind::Calculation;
    fe.event = ev.empty() ? std::nullopt : std::optional<std::size_t>(ev.size() - 1);
    fe.reason = "killed by signal " + std::to_string(input.signal) +
                (ev.empty() || !unfinished(ev.back()) ? " outside MPI" : " inside " + op_label(ev.back()));
    return fe;
  }
  for (std::size_t k = 0; k < ev.size(); ++k) {
    if (!is_error(v.info[k])) continue;
    fe.kind = FailureKind::Communication;
    fe.event = k;
    fe.ptr = dependency(v, k);
    fe.reason = error_reason(v, k);
    return fe;
  }
  bool finalized = v.rt.live && v.rt.live->finalized != 0;
  for (const Event& e : ev) finalized = finalized || op_class(e) == OpClass::Finalize;
  if (finalized) return fe;  // terminated normally: fe_p = null

  if (!ev.empty() && unfinished(ev.back())) {
    const std::size_t k = ev.size() - 1;  // the innermost record (a child when there is one)
    fe.event = k;
    fe.kind = FailureKind::Communication;
    fe.ptr = v.info[k].communication ? dependency(v, k) : -1;
    fe.reason = error_reason(v, k);
    if (!v.info[k].communication) fe.kind = FailureKind::Calculation;  // stuck in a local MPI call
    return fe;
  }
  if (last_done && test_failed(ev[*last_done])) {
    // A polling loop (Test/Iprobe that keep failing) is a wait, not computation.
    fe.kind = FailureKind::Communication;
    fe.event = *last_done;
    fe.ptr = dependency(v, *last_done);
    fe.reason = "polling " + op_label(ev[*last_done]) + " never succeeded";
    return fe;
  }
  fe.kind = FailureKind::Calculation;
  fe.event = last_done;
  fe.reason = last_done ? "stopped outside MPI after " + op_label(ev[*last_done]) : "recorded no MPI call";
  return fe;
}

}  // namespace

std::vector<int> aborting_ranks(const trace::RunTrace& run) {
  std::vector<int> out;
  for (std::size_t r = 0; r < run.ranks.size(); ++r)
    if (std::any_of(run.ranks[r].events.begin(), run.ranks[r].events.end(),
                    [](const Event& e) { return op_class(e) == OpClass::Abort; }))
      out.push_back(static_cast<int>(r));
  return out;
}

std::vector<FailureEvent> identify_failure_events(const EventGraph& graph, const trace::RunTrace& run,
                                                  const MpipdInput& input) {
  std::vector<FailureEvent> out(run.ranks.size());
  const bool failed = input.outcome != "ok" && input.outcome != "wrong-result";
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    out[r].rank = static_cast<int>(r);
    if (!failed) continue;
    if (run.ranks[r].rank < 0) {  // no files for this rank
      out[r].kind = FailureKind::Calculation;
      out[r].reason = "no trace recorded (died before or during MPI_Init)";
      continue;
    }
    out[r] = failure_of_rank({run, run.ranks[r], graph.info[r], graph, static_cast<int>(r)}, input);
  }
  return out;
}

}  // namespace scalefuzz::detectors::mpipd
