#include "record.hpp"
#include "oversub.hpp"
#include "replay.hpp"
#include "types.hpp"


#include <atomic>

namespace scalefuzz::inject {

using trace::Event;
using trace::OpClass;

thread_local constinit Event* tl_current = nullptr;
namespace {
thread_local constinit std::uint32_t tl_prev_site = trace::kMarkovStart;
thread_local constinit std::uint64_t tl_prev_exit_ns = 0;

// markov_add's hash-table probe, for an edge not found through markov_into.
__attribute__((noinline)) void markov_probe(std::uint32_t from, std::uint32_t to, std::uint64_t dt,
                                             std::uint32_t& into) {
  State& s = *g_state;
  std::uint64_t h = (static_cast<std::uint64_t>(from) << 32 | to) * 0x9E3779B97F4A7C15ull;
  std::size_t mask = s.markov_capacity - 1;
  for (std::size_t i = (h >> 20) & mask, n = 0; n < s.markov_capacity; i = (i + 1) & mask, ++n) {
    trace::MarkovEdge& e = s.markov[i];
    if (e.count == 0) {
      // Load factor limit keeps probes short; beyond it new edges are dropped.
      if ((s.markov_used + 1) * 10 > s.markov_capacity * 7) {
        ++s.markov_dropped;
        return;
      }
      e.from = from;
      e.to = to;
      e.total_ns = dt;
      __atomic_store_n(&e.count, 1, __ATOMIC_RELEASE);  // slot becomes visible last
      ++s.markov_used;
      into = static_cast<std::uint32_t>(i + 1);
      return;
    }
    if (e.from == from && e.to == to) {
      e.total_ns += dt;
      __atomic_store_n(&e.count, e.count + 1, __ATOMIC_RELEASE);
      into = static_cast<std::uint32_t>(i + 1);
      return;
    }
  }
}

// Counts the edge from -> to (the time between the calls: dt).
inline void markov_add(std::uint32_t from, std::uint32_t to, std::uint64_t dt) {
  State& s = *g_state;
  std::uint32_t dummy = 0;
  std::uint32_t& into = to < s.markov_into.size() ? s.markov_into[to] : dummy;
  if (into != 0) {
    trace::MarkovEdge& e = s.markov[into - 1];
    if (e.from == from && e.to == to) {
      e.total_ns += dt;
      __atomic_store_n(&e.count, e.count + 1, __ATOMIC_RELEASE);
      return;
    }
  }
  markov_probe(from, to, dt, into);
}

// Which live-state counters a call of each class bumps: one bit test each.
constexpr std::uint32_t class_bit(OpClass c) { return 1u << static_cast<unsigned>(c); }
static_assert(static_cast<unsigned>(OpClass::Unpack) < 32, "OpClass bit sets hold 32 classes");
constexpr std::uint32_t kSendClasses = class_bit(OpClass::Send) | class_bit(OpClass::Isend) | class_bit(OpClass::Sendrecv);
constexpr std::uint32_t kRecvClasses = class_bit(OpClass::Recv) | class_bit(OpClass::Irecv) | class_bit(OpClass::Sendrecv);
constexpr std::uint32_t kCollectiveClasses = class_bit(OpClass::Collective) | class_bit(OpClass::Icollective);
}  // namespace

void SpinLock::lock() {
  while (__atomic_exchange_n(&word, 1, __ATOMIC_ACQUIRE) != 0)
    while (__atomic_load_n(&word, __ATOMIC_RELAXED) != 0) __builtin_ia32_pause();
}

LiveWrite::LiveWrite() {
  trace::LiveState* l = g_state->live;
  __atomic_store_n(&l->version, l->version + 1, __ATOMIC_RELAXED);
  std::atomic_thread_fence(std::memory_order_release);
}
LiveWrite::~LiveWrite() {
  trace::LiveState* l = g_state->live;
  __atomic_store_n(&l->version, l->version + 1, __ATOMIC_RELEASE);
}

void pending_add(const RequestInfo& r, OpClass cls) {
  trace::LiveState* l = g_state->live;
  if (l->npending >= trace::kMaxPendingRequests) {
    ++l->pending_dropped;
    return;
  }
  trace::PendingRequest& p = l->pending[l->npending];
  p = trace::PendingRequest{};
  p.request = r.id;
  p.op_class = static_cast<std::uint8_t>(cls);
  p.peer = r.peer;
  p.tag = r.tag;
  p.comm = r.comm != nullptr ? r.comm->id : trace::kCommNull;
  p.callsite = r.site;
  ++l->npending;
}

void pending_remove(std::uint64_t request) {
  trace::LiveState* l = g_state->live;
  for (std::uint32_t i = 0; i < l->npending; ++i)
    if (l->pending[i].request == request) {
      l->pending[i] = l->pending[l->npending - 1];
      --l->npending;
      return;
    }
}

std::int32_t world_peer(const CommInfo* comm, int peer) {
  if (peer == MPI_ANY_SOURCE) return trace::kAnySource;
  if (peer == MPI_PROC_NULL) return trace::kProcNull;
  if (peer < 0 || comm == nullptr) return trace::kNoPeer;
  return comm->world_of(peer);
}

void store_status(Event& ev, const MPI_Status& st, const CommInfo* comm) {
  if (st.MPI_SOURCE == MPI_PROC_NULL || st.MPI_SOURCE < 0) {
    ev.status_source = st.MPI_SOURCE == MPI_PROC_NULL ? trace::kProcNull : trace::kNoPeer;
    ev.status_tag = trace::kNoTag;
    ev.status_bytes = 0;
    return;
  }
  ev.status_source = world_peer(comm, st.MPI_SOURCE);
  ev.status_tag = st.MPI_TAG;
  ev.status_bytes = received_bytes(st);
}

std::int32_t received_bytes(const MPI_Status& st) {
#if defined(MPICH_VERSION)
  // MPICH keeps the byte count in the status (MPIR_STATUS_GET_COUNT, the
  // value MPI_Get_count(MPI_BYTE) divides by 1): ~70 instructions less per
  // completed receive than the call.
  const std::uint64_t n = (static_cast<std::uint64_t>(static_cast<unsigned>(st.count_hi_and_cancelled) >> 1) << 32) +
                          static_cast<unsigned>(st.count_lo);
  return n <= 0x7FFFFFFFu ? static_cast<std::int32_t>(n) : 0;
#else
  int n = 0;
  if (PMPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED) n = 0;
  return n;
#endif
}

void add_received(std::uint32_t site, std::int64_t bytes) {
  State& s = *g_state;
  if (bytes <= 0) return;
  if (site < s.sites.file_capacity) s.features[site].bytes_received += static_cast<std::uint64_t>(bytes);
}

namespace {
// The records are written straight into their slot (an Event is two cache
// lines; every copy through the stack cost ~30 instructions) and published by
// storing seq last.
inline void publish(Event* ev, std::uint64_t seq) { __atomic_store_n(&ev->seq, seq, __ATOMIC_RELEASE); }

// Copies `proto` into the next slot with seq 0 (unpublished); null if the log is full.
inline Event* place(State& s, const Event& proto, std::uint64_t& seq) {
  Event* ev = s.events.reserve(seq);
  if (ev != nullptr) {
    *ev = proto;
    ev->seq = 0;
  }
  return ev;
}

// Per-call bookkeeping of every call, recorded or folded: the site's features,
// the Markov edge from the previous call, the live state.
[[gnu::always_inline]] inline void account_call(State& s, const Call& c, const Event& e, std::uint32_t site, std::uint64_t seq,
                         std::uint64_t t, std::int64_t bytes_out) {
  if (site != kSiteOverflow) {
    trace::SiteFeature& f = s.features[site];
    ++f.calls;
    if (bytes_out > 0) f.bytes_sent += static_cast<std::uint64_t>(bytes_out);
    if (tl_prev_site == trace::kMarkovStart || tl_prev_site != kSiteOverflow)
      markov_add(tl_prev_site, site, tl_prev_exit_ns == 0 || t < tl_prev_exit_ns ? 0 : t - tl_prev_exit_ns);
  }
  trace::LiveState* l = s.live;
  LiveWrite w;
  l->t_update_ns = t;
  l->current_seq = seq;
  l->op = c.op;
  l->op_class = e.op_class;
  l->in_call = 1;
  l->callsite = site;
  l->peer = e.peer;
  l->tag = e.tag;
  l->comm = e.comm;
  ++l->calls;
  if (g_replaying) [[unlikely]]
    replay_on_call(c, l->calls, site);
  const std::uint32_t cls = static_cast<unsigned>(c.cls) < 32 ? class_bit(c.cls) : 0;
  if ((cls & kSendClasses) != 0) ++l->sends;
  if ((cls & kRecvClasses) != 0) ++l->recvs;
  if ((cls & kCollectiveClasses) != 0) ++l->collectives;
  if (bytes_out > 0) l->bytes_sent += static_cast<std::uint64_t>(bytes_out);
}

// The entry fields of a call's record.
inline void fill_entry(Event& e, const Call& c, std::uint32_t site, std::uint64_t t) {
  e.t_enter_ns = t;
  e.t_exit_ns = 0;
  e.op = c.op;
  e.op_class = static_cast<std::uint8_t>(c.cls);
  e.flags |= c.flags;
  e.callsite = site;
  e.repeats = 0;
}

// The thread's latest unsuccessful polls, records with consecutive seqs
// ending at the rank's last record while nothing else is recorded (see
// begin_poll). A window of several folds loops that alternate polls
// (MPI_Test + MPI_Iprobe) as well as single ones.
constexpr int kPollWindow = 4;
struct PollSlot {
  Event* ev;
  std::uint64_t seq;
  std::uint64_t key;
};
thread_local constinit PollSlot tl_polls[kPollWindow] = {};
thread_local constinit int tl_npolls = 0;

inline void remember_failed_poll(Event* ev, std::uint64_t seq, std::uint64_t key) {
  if (tl_npolls == 0 || tl_polls[tl_npolls - 1].seq + 1 != seq) {
    tl_npolls = 0;
  } else if (tl_npolls == kPollWindow) {
    for (int i = 1; i < kPollWindow; ++i) tl_polls[i - 1] = tl_polls[i];
    --tl_npolls;
  }
  tl_polls[tl_npolls++] = PollSlot{ev, seq, key};
}
}  // namespace

// begin_call's body: `fill(slot, zeroed)` writes the record's own fields
// into `slot`, which is zeroed when `zeroed` (a fresh events-file slot: the
// file grows by zeros and every slot is reserved once) and uninitialized
// otherwise (the log is full: the record is only accounted).
template <class Fill>
inline Active begin_with(const Call& c, std::int64_t bytes_out, Fill&& fill) {
  State& s = *g_state;
  Active a;
  std::uint64_t t = now_ns();
  StateLock lock;
  a.site = c.site != Call::kNoSite ? c.site : s.sites.current(c.op);
  Event spare;
  a.ev = s.events.reserve(a.seq);
  Event* e = a.ev != nullptr ? a.ev : &spare;
  fill(*e, a.ev != nullptr);
  fill_entry(*e, c, a.site, t);
  if (a.ev != nullptr) publish(a.ev, a.seq);
  account_call(s, c, *e, a.site, a.seq, t, bytes_out);
  tl_current = a.ev;
  note_stack_buffers(c, a.seq, a.site);
  return a;
}

Active begin_call(const Call& c, const Event& proto, std::int64_t bytes_out) {
  return begin_with(c, bytes_out, [&](Event& e, bool) {
    e = proto;
    e.seq = 0;
  });
}

namespace {
// A blank record (zeroed: a fresh slot, see begin_with) completed by `fill`.
inline void fill_in_place(Event& e, bool zeroed, EventFill fill) {
  if (!zeroed) e = Event{};
  set_blank_fields(e);
  fill(e);
}
}  // namespace

Active begin_call_in_place(const Call& c, EventFill fill, std::int64_t bytes_out) {
  return begin_with(c, bytes_out, [&](Event& e, bool zeroed) { fill_in_place(e, zeroed, fill); });
}

Poll begin_poll(const Call& c, const Event& proto, std::uint64_t key) {
  State& s = *g_state;
  Poll p;
  std::uint64_t t = now_ns();
  StateLock lock;
  p.a.site = c.site != Call::kNoSite ? c.site : s.sites.current(c.op);
  p.key = (key ^ (static_cast<std::uint64_t>(c.op) << 48) ^ p.a.site) * 0x9E3779B97F4A7C15ull;
  // Fold only into one of this thread's latest polls, finished and
  // unsuccessful, with the same key, when every record after it (by any
  // thread) is one of them too.
  if (s.fold_polls && tl_npolls > 0 && s.events.used() == tl_polls[tl_npolls - 1].seq) {
    for (int i = 0; i < tl_npolls; ++i) {
      const PollSlot& w = tl_polls[i];
      if (w.key != p.key || w.ev->seq != w.seq || w.ev->t_exit_ns == 0 ||
          (w.ev->flags & trace::kFlagTestFailed) == 0 || w.ev->repeats == 0xFFFFFFFFu)
        continue;
      p.folded = w.ev;
      p.entry = proto;
      fill_entry(p.entry, c, p.a.site, t);
      tl_current = nullptr;
      account_call(s, c, p.entry, p.a.site, w.seq, t, 0);
      return p;
    }
  }
  p.a.ev = place(s, proto, p.a.seq);
  const Event* e = p.a.ev;
  if (p.a.ev != nullptr) {
    fill_entry(*p.a.ev, c, p.a.site, t);
    publish(p.a.ev, p.a.seq);
  } else {
    p.entry = proto;
    fill_entry(p.entry, c, p.a.site, t);
    e = &p.entry;
  }
  tl_current = p.a.ev;
  account_call(s, c, *e, p.a.site, p.a.seq, t, 0);
  return p;
}

void poll_result(Poll& p, bool failed, int rc, std::uint64_t t) {
  State& s = *g_state;
  StateLock lock;
  if (p.folded != nullptr) {
    if (failed && rc == MPI_SUCCESS) {
      p.folded->repeats = p.folded->repeats + 1;
      __atomic_store_n(&p.folded->t_exit_ns, t, __ATOMIC_RELEASE);
      return;
    }
    // This poll succeeded after folded failures: it gets its own record.
    tl_npolls = 0;
    p.a.ev = place(s, p.entry, p.a.seq);
    if (p.a.ev != nullptr) publish(p.a.ev, p.a.seq);
    tl_current = p.a.ev;
    LiveWrite w;
    s.live->current_seq = p.a.seq;
  }
  if (p.a.ev == nullptr) return;
  if (failed) {
    p.a.ev->flags |= trace::kFlagTestFailed;
    remember_failed_poll(p.a.ev, p.a.seq, p.key);
  } else {
    tl_npolls = 0;
  }
}

void end_poll(Poll& p, int rc, std::uint64_t t) {
  if (p.folded != nullptr && p.a.ev == nullptr) {
    // Folded: the record is already updated; only the per-call state remains.
    State& s = *g_state;
    StateLock lock;
    tl_prev_site = p.a.site;
    tl_prev_exit_ns = t;
    LiveWrite w;
    s.live->t_update_ns = t;
    s.live->in_call = 0;
    return;
  }
  end_call(p.a, rc, 0, t);
}

void child_record(const Active& parent, const Event& proto, bool complete, std::uint64_t t_exit) {
  State& s = *g_state;
  std::uint64_t seq = 0;
  StateLock lock;
  Event* ev = place(s, proto, seq);
  if (ev == nullptr) return;
  ev->flags |= trace::kFlagChild;
  ev->callsite = parent.site;
  if (ev->t_enter_ns == 0) ev->t_enter_ns = parent.ev != nullptr ? parent.ev->t_enter_ns : now_ns();
  if (complete && ev->t_exit_ns == 0) ev->t_exit_ns = t_exit != 0 ? t_exit : now_ns();
  publish(ev, seq);
}

Event* open_child(const Active& parent, const Event& proto) {
  State& s = *g_state;
  std::uint64_t seq = 0;
  StateLock lock;
  Event* ev = place(s, proto, seq);
  if (ev == nullptr) return nullptr;
  ev->flags |= trace::kFlagChild;
  ev->callsite = parent.site;
  ev->t_enter_ns = parent.ev != nullptr ? parent.ev->t_enter_ns : now_ns();
  ev->t_exit_ns = 0;
  publish(ev, seq);
  return ev;
}

void finish_child(Event* ev, const MPI_Status& st, const CommInfo* comm, int rc, std::uint64_t t_exit) {
  if (ev == nullptr) return;
  store_status(*ev, st, comm);
  ev->error = rc;
  __atomic_store_n(&ev->t_exit_ns, t_exit, __ATOMIC_RELEASE);
}

namespace {
// end_call's body (inline into record_blocking).
[[gnu::always_inline]] inline void end_with(Active& a, int rc, std::int64_t bytes_in, std::uint64_t t_exit) {
  State& s = *g_state;
  if (g_replaying) [[unlikely]]
    replay_on_return(s.live->calls);
  std::uint64_t t = t_exit != 0 ? t_exit : now_ns();
  StateLock lock;
  if (a.ev != nullptr) {
    a.ev->error = rc;
    __atomic_store_n(&a.ev->t_exit_ns, t, __ATOMIC_RELEASE);
  }
  tl_current = nullptr;
  if (a.site != kSiteOverflow && bytes_in > 0) s.features[a.site].bytes_received += static_cast<std::uint64_t>(bytes_in);
  tl_prev_site = a.site;
  tl_prev_exit_ns = t;
  trace::LiveState* l = s.live;
  LiveWrite w;
  l->t_update_ns = t;
  l->in_call = 0;
  if (bytes_in > 0) l->bytes_received += static_cast<std::uint64_t>(bytes_in);
}
}  // namespace

void end_call(Active& a, int rc, std::int64_t bytes_in, std::uint64_t t_exit) { end_with(a, rc, bytes_in, t_exit); }

int record_blocking(const Call& c, EventFill fill, std::int64_t bytes_out, std::int64_t bytes_in, Invoke call,
                    NbInvoke nb) {
  Active a = begin_with(c, bytes_out, [&](Event& e, bool zeroed) { fill_in_place(e, zeroed, fill); });
  const int rc = run_blocking(call, nb, MPI_STATUS_IGNORE);
  end_with(a, rc, rc == MPI_SUCCESS ? bytes_in : 0, 0);
  return rc;
}

}  // namespace scalefuzz::inject
