// Writing one call's records: entry record, children, exit completion, and
// the per-call updates of the live state, features and Markov model.
#pragma once

#include "handlers.hpp"
#include "state.hpp"

namespace scalefuzz::inject {

// The in-flight call of this thread (for the error handler).
extern thread_local constinit trace::Event* tl_current;

struct Active {
  trace::Event* ev = nullptr;  // null when the events file could not grow
  std::uint32_t site = 0;
  std::uint64_t seq = 0;
};

// Entry: identifies the call site, writes `proto` (t_enter, op, class, site,
// seq are filled here) with t_exit_ns = 0 and seq stored last, and updates
// the live state, the Markov edge from the previous call and the site's
// features (calls, bytes_sent = `bytes_out`).
Active begin_call(const Call& c, const trace::Event& proto, std::int64_t bytes_out);

// Polls (Test*, Iprobe, Improbe): repeated unsuccessful polls of one thread
// with the same key (op, call site, requests or envelope) fold into the first
// one's record — `repeats` counts the extra calls, t_exit_ns is the last one's
// exit — as long as nothing but such polls of that thread (up to 4 distinct
// ones: a loop alternating MPI_Test and MPI_Iprobe) was recorded after it. Features, Markov
// edges and the live state still count every call. Use: begin_poll, the
// call, poll_result (before any child record), children, end_poll.
struct Poll {
  Active a;                         // a.ev null while folded (until poll_result)
  trace::Event* folded = nullptr;   // the record this call folds into
  trace::Event entry;               // this call's record, written if it succeeds after all (set only when folded)
  std::uint64_t key = 0;
};
Poll begin_poll(const Call& c, const trace::Event& proto, std::uint64_t key);
// `failed`: nothing completed / no message; flags the record kFlagTestFailed.
void poll_result(Poll& p, bool failed, int rc, std::uint64_t t);
void end_poll(Poll& p, int rc, std::uint64_t t);

// A complete child record (kFlagChild is set here) written after its parent.
// `t_exit` (0: now) lets the completion handlers read the clock once for the
// children and the parent's exit.
void child_record(const Active& parent, const trace::Event& proto, bool complete, std::uint64_t t_exit = 0);
// A child written at the parent's entry and completed by finish_child().
trace::Event* open_child(const Active& parent, const trace::Event& proto);
void finish_child(trace::Event* ev, const MPI_Status& st, const CommInfo* comm, int rc, std::uint64_t t_exit);

// Exit: stores `rc`, then t_exit_ns; live state back to "not in a call".
// `bytes_in` is added to the site's bytes_received and the live counter.
void end_call(Active& a, int rc, std::int64_t bytes_in, std::uint64_t t_exit = 0);

// Completion status fields of `ev` from an MPI status of a receive on `comm`.
void store_status(trace::Event& ev, const MPI_Status& st, const CommInfo* comm);
// Bytes a receive completed with `st` received (MPI_Get_count in MPI_BYTE; 0 if undefined).
std::int32_t received_bytes(const MPI_Status& st);

// Live-state pending list (call inside a LiveWrite).
void pending_add(const RequestInfo& r, trace::OpClass cls);
void pending_remove(std::uint64_t request);

// Seqlock writer section on the live state.
class LiveWrite {
 public:
  LiveWrite();
  ~LiveWrite();
  LiveWrite(const LiveWrite&) = delete;
  LiveWrite& operator=(const LiveWrite&) = delete;
};

// Attributes received bytes to a call site (e.g. an Irecv's site at its Wait).
void add_received(std::uint32_t site, std::int64_t bytes);

std::int64_t type_bytes(MPI_Datatype t, std::int64_t count);
std::int32_t world_peer(const CommInfo* comm, int peer);

inline trace::Event blank_event() {
  trace::Event e{};
  e.peer = trace::kNoPeer;
  e.tag = trace::kNoTag;
  e.root = trace::kNoPeer;
  e.status_source = trace::kNoPeer;
  e.status_tag = trace::kNoTag;
  return e;
}

}  // namespace scalefuzz::inject
