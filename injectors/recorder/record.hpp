// Writing one call's records: entry record, children, exit completion, and
// the per-call updates of the live state, features and Markov model.
#pragma once

#include "handlers.hpp"
#include "state.hpp"
#include "types.hpp"

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
// The same with the record's fields written by `fill` straight into its slot,
// which then holds blank_event()'s values (no prototype record built and
// copied: ~60 instructions less per call). `fill` runs under the state lock:
// it must not take it (look up type_info()/locked_comm() before).
using EventFill = FnRef<void(trace::Event&)>;
Active begin_call_in_place(const Call& c, EventFill fill, std::int64_t bytes_out);
// A whole blocking call in one function: begin_call_in_place(c, fill,
// bytes_out), run_blocking(call, nb) (oversub.hpp), end_call with bytes_in
// if it succeeded. Returns its result. (~40 instructions less per call than
// the three calls: the collectives' path.)
int record_blocking(const Call& c, EventFill fill, std::int64_t bytes_out, std::int64_t bytes_in, Invoke call,
                    NbInvoke nb);

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

// A fresh injector request id (handlers_p2p.cpp).
std::uint64_t next_request_id();
// Registers a request created by a successful post into `*slot` and lists it
// as pending (handlers_p2p.cpp; also the R* one-sided requests).
void register_request(MPI_Request* slot, RequestInfo info, bool pending);

// Attributes received bytes to a call site (e.g. an Irecv's site at its Wait).
void add_received(std::uint32_t site, std::int64_t bytes);

// count elements of `t` in bytes (0 for MPI_DATATYPE_NULL or count <= 0).
inline std::int64_t type_bytes(MPI_Datatype t, std::int64_t count) {
  if (t == MPI_DATATYPE_NULL || count <= 0) return 0;
#if defined(MPICH_VERSION)
  // MPICH's builtin datatypes carry their size in the handle (0x4c00SSxx, as
  // MPICH's own MPIR_Datatype_get_basic_size reads it): skips the lookup,
  // ~100 instructions per call site on the hot path (twice per collective).
  const auto h = static_cast<std::uint32_t>(t);
  if ((h & 0xFC000000u) == 0x4C000000u) return static_cast<std::int64_t>((h >> 8) & 0xFFu) * count;
#endif
  return static_cast<std::int64_t>(type_info(t).size) * count;
}
std::int32_t world_peer(const CommInfo* comm, int peer);

// At a call's entry: when its send or receive buffer lies on the calling
// thread's stack, notes the caller's stack and frame pointer in ranks/N.frames
// (handlers_usage_buffers.cpp explains) so the usage checks can find the variable.
inline void note_stack_buffers(const Call& c, std::uint64_t seq, std::uint32_t site) {
  using namespace usage_detail;
  if (g_fd_frames < 0 || c.frame == nullptr) return;
  const auto sp = reinterpret_cast<std::uintptr_t>(c.frame) + 2 * sizeof(void*);
  const auto sb = reinterpret_cast<std::uintptr_t>(c.sbuf), rb = reinterpret_cast<std::uintptr_t>(c.rbuf);
  // Cheap first: both buffers below the caller's stack pointer are not on
  // this thread's stack (heap and globals lie below the stack on Linux).
  if (sb < sp && rb < sp) return;
  // Then the loop case: this site's line is already written for this frame.
  const auto fp = *static_cast<const std::uintptr_t*>(c.frame);
  const LastFrame& last = g_last_frames[site & 255u];
  if (last.site == site && last.sp == sp && last.fp == fp) return;
  note_stack_frame(seq, site, sp, fp, sb, rb);
}

// The fields of a blank record that are not zero.
inline void set_blank_fields(trace::Event& e) {
  e.peer = trace::kNoPeer;
  e.tag = trace::kNoTag;
  e.root = trace::kNoPeer;
  e.status_source = trace::kNoPeer;
  e.status_tag = trace::kNoTag;
}
inline trace::Event blank_event() {
  trace::Event e{};
  set_blank_fields(e);
  return e;
}

}  // namespace scalefuzz::inject
