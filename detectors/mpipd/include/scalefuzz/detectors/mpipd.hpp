// MPI-PreDebugger (Okita, Ino, Hagihara, AADEBUG 2003): localizes the faulty
// processes of a failed (crashed, aborted or hung) MPI run from its traces.
//
// 1. The event graph (paper §2.1): sequential order (program order per rank),
//    concurrent order (matched send -> receive posts; collective instances as
//    concurrent across the members of one communicator, k-th collective call
//    with k-th) and nonblocking order (post -> its completion).
// 2. Communication errors (§2.3): isolated events (no concurrent partner, or a
//    post with neither a partner nor a completion) and the paper's *truncated*
//    pairs, called `overflow` here because format.hpp already calls a record
//    that never returned "truncated" (len(send) > len(receive buffer)).
// 3. One failure event per process (§3 stage 1), then the backtracking
//    algorithm of Figure 3 (stage 2), which yields the faulty set P_e and the
//    failure situation: calculation fault, non-occurred event, deadlock or
//    buffer overflow (Figure 4).
// 4. A timeline (Figure 7): failure events and the events just before them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::mpipd {

// ---- event graph ---------------------------------------------------------

enum class Relation : std::uint8_t { Sequential, Concurrent, Nonblocking };

struct Edge {
  trace::EventRef from;
  trace::EventRef to;
  Relation relation = Relation::Sequential;
};

// What the graph knows about one record (indexed like RankTrace::events).
struct EventInfo {
  bool communication = false;  // takes part in a message or a collective
  bool unfinished = false;     // t_exit_ns == 0: the call never returned
  bool isolated = false;       // §2.3: no concurrent partner / no nonblocking partner
  bool overflow = false;       // §2.3 "truncated" pair member: send longer than receive buffer
  bool mpi_error = false;      // the call returned an MPI error code
  // Concurrent partner for point-to-point events (send <-> receive post), or
  // rank -1. For a receive completed through a request, the partner is on the
  // post; the completion's partner is the same send.
  trace::EventRef partner{-1, 0};
  // Nonblocking partner: post -> completion (RequestDone) or back, or rank -1.
  trace::EventRef nb_partner{-1, 0};
  std::int32_t collective = -1;  // index into EventGraph::collectives, or -1
};

// One collective call instance: the k-th collective on a communicator at
// every member. `missing` are members whose trace has no k-th call.
struct CollectiveInstance {
  std::uint32_t comm = 0;
  std::uint64_t ordinal = 0;
  std::vector<trace::EventRef> events;
  std::vector<int> missing;
};

struct EventGraph {
  int nranks = 0;
  std::vector<std::vector<EventInfo>> info;      // [rank][event index]
  std::vector<Edge> concurrent;                  // point-to-point C edges (send -> receive post)
  std::vector<Edge> nonblocking;                 // N edges (post -> completion)
  std::vector<CollectiveInstance> collectives;   // C relation of collectives
  // Sequential edges are implicit: (r, i) -> (r, i + 1).
};

// Builds the graph from a run and its message matching. Unmatched sends and
// receive posts that never completed are paired by MPI's matching rule
// (source, destination, communicator, tag in order) only to find overflow
// pairs (the receive aborted or failed because the message was too long);
// such pairs get a concurrent edge and are not isolated.
EventGraph build_event_graph(const trace::RunTrace& run, const trace::Matching& matching);

// ---- localization ----------------------------------------------------------

enum class Situation { None, CalculationFault, NonOccurredEvent, Deadlock, BufferOverflow };
// "none", "calculation-fault", "non-occurred-event", "deadlock", "buffer-overflow"
const char* situation_name(Situation s);

enum class FailureKind {
  None,           // fe_p = null: the process terminated normally (reached MPI_Finalize)
  Calculation,    // stopped or died outside MPI (or crashed by a signal, or called MPI_Abort)
  Communication,  // a communication event: an error event or the call it never returned from
};

struct FailureEvent {
  int rank = -1;
  FailureKind kind = FailureKind::None;
  // The record (Communication), or the last completed record before a
  // Calculation failure (nullopt if the rank recorded nothing).
  std::optional<std::size_t> event;
  int ptr = -1;         // ptr(fe_p): rank it depends on; -1 = none/unknown (ANY_SOURCE)
  std::string reason;   // "isolated receive", "overflow (send 400 B > receive 40 B)", ...
};

// One place where Figure 3's recursion stopped with a nonzero code.
struct Origin {
  Situation situation = Situation::None;
  std::vector<int> ranks;   // (a) {s}; (b) {r, s}; (c)/(d) the cycle members
};

struct MpipdResult {
  Situation situation = Situation::None;   // of the first origin found
  std::string situation_label;             // situation_name(situation)
  std::vector<int> faulty;                 // P_e, sorted
  std::vector<int> aborted;                // ranks that called MPI_Abort (then faulty == aborted)
  std::vector<FailureEvent> failure_events;  // E_e, one per rank (index == rank)
  std::vector<Origin> origins;
  std::string explanation;                 // a few sentences a person can read
  std::shared_ptr<const EventGraph> graph; // the analysed graph (for the timeline)
};

struct MpipdInput {
  std::string outcome = "hang";   // harness OutcomeKind string: hang, crashed, mpi-abort, failed, ok ...
  std::optional<int> crashed_rank;  // rank killed by a signal, when the harness knows it
  int signal = 0;
};

// Figure 3 on a built graph. Exposed for unit tests with hand-made graphs:
// `failure` holds fe_p per rank (stage 1 already done).
struct BacktrackResult {
  std::vector<int> faulty;       // P_e, sorted
  std::vector<Origin> origins;   // in discovery order
};
BacktrackResult localize_faulty_processes(const EventGraph& graph, const trace::RunTrace& run,
                                          const std::vector<FailureEvent>& failure);

// Ranks whose trace holds an MPI_Abort record, ascending. An abort is the
// rank's own verdict on the run (issue 35): its failure event is the
// MPI_Abort call, and the run's failure starts there, not at the waits of
// the ranks the launcher killed after it.
std::vector<int> aborting_ranks(const trace::RunTrace& run);

// Stage 1: fe_p for every rank.
std::vector<FailureEvent> identify_failure_events(const EventGraph& graph, const trace::RunTrace& run,
                                                  const MpipdInput& input);

// The whole analysis. A run whose outcome is "ok" or "wrong-result" did not
// terminate unexpectedly: the result has situation None. When ranks called
// MPI_Abort, Figure 3 is not run: each aborting rank is an origin of
// situation calculation-fault (the paper's (a): it terminated outside any
// communication, by its own decision) and P_e holds the aborting ranks only;
// the other ranks' failure events are kept for the timeline, marked as
// stopped by the abort.
MpipdResult localize_failure(const trace::RunTrace& run, const trace::Matching& matching,
                             const MpipdInput& input);
MpipdResult localize_failure(const trace::RunTrace& run, const MpipdInput& input);  // matches itself

// ---- report ----------------------------------------------------------------

// Figure 7: ranks x time order; failure events and the events just before
// them; matched messages as arrows, failed communications dashed red; legend.
std::string timeline_svg(const MpipdResult& result, const trace::RunTrace& run, const EventGraph& graph);

// One event box of the timeline: its lane (rank) and its entry time.
struct TimelineEvent {
  int rank = 0;
  std::uint64_t t_enter_ns = 0;
};
// The column of every event box, in input order (events of one rank given
// in their recorded order). Columns follow time across ranks, and a rank's
// events take strictly increasing columns, so two events entered at the same
// instant (the send and receive halves of MPI_Sendrecv) sit side by side
// instead of on top of each other.
std::vector<int> timeline_columns(const std::vector<TimelineEvent>& events);

// One finding (kind = situation name) with the faulty ranks, failure events
// in details and the timeline as an "mpipd-timeline" image/svg+xml artifact.
// Empty when the situation is None.
std::vector<Finding> mpipd_findings(const MpipdResult& result, const trace::RunTrace& run,
                                    const std::string& run_id);

}  // namespace scalefuzz::detectors::mpipd
