// Collectives (blocking and nonblocking) and communicator management.
#include "hooks.hpp"
#include "oversub.hpp"
#include "receive_guard.hpp"
#include "record.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

using trace::Event;
using trace::OpClass;

namespace {

std::int64_t sum_bytes(const int* counts, MPI_Datatype type, const MPI_Datatype* types, int n) {
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) total += type_bytes(types != nullptr ? types[i] : type, counts[i]);
  return total;
}

struct Volumes {
  std::int64_t count = 0;      // elements this rank contributes
  std::int64_t sent = 0;       // bytes this rank contributes
  std::int64_t received = 0;   // bytes this rank receives
  // Format 2: datatype keys of the arguments. Looked up with volumes(),
  // before the record is begun: the fill runs under the state lock, which
  // type_info() may take.
  std::uint32_t dtype = trace::kTypeNone, rdtype = trace::kTypeNone;
};

// Bytes moved by this rank in a collective, from the argument roles.
// (Inline, root and vector cases out of the way: ~40 instructions less per
// Allreduce than the call.)
[[gnu::always_inline]] inline Volumes volumes(const Call& c, const CommInfo& ci) {
  Volumes v;
  const int n = ci.size;
  bool send_side = true, recv_side = true;
  if (c.root_side != RootSide::None) [[unlikely]] {
    const bool root = c.root >= 0 && c.root == ci.my_rank && !ci.inter;
    send_side = c.root_side == RootSide::Recv || root;  // Send, Bcast: the root sends
    recv_side = c.root_side == RootSide::Send || (c.root_side == RootSide::Recv ? root : !root);
  }
  if (send_side && (c.sbuf != MPI_IN_PLACE || c.shared_count)) {
    if (c.scounts != nullptr) [[unlikely]] {
      v.sent = sum_bytes(c.scounts, c.stype, c.stypes, n);
      for (int i = 0; i < n; ++i) v.count += c.scounts[i];
    } else {
      std::int64_t mult = c.per_rank_send ? n : 1;
      v.count = c.scount * mult;
      v.sent = type_bytes(c.stype, c.scount) * mult;
    }
  }
  if (recv_side) {
    if (c.rcounts != nullptr && c.rcounts_mine) [[unlikely]] {
      v.received = type_bytes(c.rtype, c.rcounts[ci.my_rank]);
    } else if (c.rcounts != nullptr) [[unlikely]] {
      v.received = sum_bytes(c.rcounts, c.rtype, c.rtypes, n);
    } else {
      v.received = type_bytes(c.rtype, c.rcount) * (c.per_rank_recv ? n : 1);
    }
  }
  if (c.stype != MPI_DATATYPE_NULL || c.scount != 0) v.dtype = type_info(c.stype).key;
  if (!c.shared_count && (c.rtype != MPI_DATATYPE_NULL || c.rcount != 0)) v.rdtype = type_info(c.rtype).key;
  return v;
}

void before_collective(const Call& c) {
  const NoiseHooks* h = noise_hooks();
  if (h != nullptr && h->before_collective != nullptr) h->before_collective(h->ctx, c.op, c.comm);
}

// The buffer a collective's record names: the send buffer, or the receive
// buffer in place.
std::uintptr_t coll_buffer(const Call& c) {
  return reinterpret_cast<std::uintptr_t>(c.sbuf == MPI_IN_PLACE || c.sbuf == nullptr ? c.rbuf : c.sbuf);
}

// A collective's own record fields (the record is blank; ci non-null). Runs
// under the state lock: takes no lock.
void fill_coll(Event& e, const Call& c, const CommInfo& ci, const Volumes& v) {
  e.comm = ci.id;
  if (c.root >= 0) e.root = world_peer(&ci, c.root);
  e.count = v.count;
  e.bytes = v.sent;
  e.buffer = coll_buffer(c);
  // Format 2: arguments as passed, for the cross-rank agreement checks.
  e.dtype = v.dtype;
  e.rdtype = v.rdtype;
  e.scount_arg = c.scount;
  e.rcount_arg = c.rcount;
  e.rbuffer = reinterpret_cast<std::uintptr_t>(c.rbuf);
  if (c.sbuf == MPI_IN_PLACE) e.flags |= trace::kFlagInPlace;
  if (c.has_rop) e.reduce_op = reduce_op_code(c.rop);
}

// Local concurrency of nonblocking collectives (MPI-4.0 §6.12: send buffers
// must not be modified and receive buffers not accessed until completion).
// The receive buffers being watched (handlers_usage_buffers.cpp explains);
// their RequestInfo in the request table holds the hash.
struct Watched {
  MPI_Request handle;
  std::uint64_t id;
};
constexpr int kWatchMax = 16;  // pending nonblocking collectives watched at once (a pipeline's depth)
Watched g_watched[kWatchMax];
int g_nwatched = 0;

// At a nonblocking collective's entry: compares the watched buffers (and
// drops the completed ones). Under the state lock.
void check_watched(std::uint64_t used) {
  int k = 0;
  for (int i = 0; i < g_nwatched; ++i) {
    RequestInfo* p = g_state->requests.find(handle_key(g_watched[i].handle), g_watched[i].id);
    if (p == nullptr) continue;  // completed or freed
    check_collective_receive(*p, used);
    g_watched[k++] = g_watched[i];
  }
  g_nwatched = k;
}

// After the post returned: every watched buffer not yet found written is
// hashed again (this call may have progressed it); `used` marks the post.
void rehash_watched(std::uint64_t used) {
  for (int i = 0; i < g_nwatched; ++i) {
    RequestInfo* p = g_state->requests.find(handle_key(g_watched[i].handle), g_watched[i].id);
    if (p == nullptr || p->rwritten) continue;
    p->rchecksum = buffer_checksum(reinterpret_cast<const void*>(p->rbuffer), p->rbytes);
    p->rmark = used;
  }
}

// The receive side of a nonblocking collective on this rank: its buffer and
// bytes when they are one contiguous block (vector variants: no).
bool receive_block(const Call& c, const Volumes& v, std::uint64_t& buffer, std::int64_t& bytes) {
  if (v.received <= 0 || c.rbuf == nullptr || c.rbuf == MPI_IN_PLACE || (c.rcounts != nullptr && !c.rcounts_mine) ||
      c.rtypes != nullptr || !type_info(c.rtype).contiguous)
    return false;
  buffer = reinterpret_cast<std::uintptr_t>(c.rbuf);
  bytes = v.received;
  return true;
}

}  // namespace

void check_collective_receive(RequestInfo& info, std::uint64_t used) {
  if (info.rchecksum == 0 || info.rwritten || info.rmark != used) return;
  const std::uint64_t h = buffer_checksum(reinterpret_cast<const void*>(info.rbuffer), info.rbytes);
  if (h == info.rchecksum) return;
  info.rwritten = true;
  info.rentry = h;
}

SCALEFUZZ_HANDLER(coll) {
  before_collective(c);
  if (!g_state->recording) return run_blocking(call, nb, MPI_STATUS_IGNORE);
  const CommInfo* ci = locked_comm(c.comm);  // null: an unknown communicator, a blank record
  const Volumes v = ci != nullptr ? volumes(c, *ci) : Volumes{};
  return record_blocking(
      c,
      [&](Event& e) {
        if (ci != nullptr) fill_coll(e, c, *ci, v);
      },
      v.sent, v.received, call, nb);
}

SCALEFUZZ_HANDLER(icoll) {
  (void)nb;
  before_collective(c);
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  const Volumes v = ci != nullptr ? volumes(c, *ci) : Volumes{};
  std::uint64_t request;
  {
    StateLock lock;
    request = g_state->next_request_id++;
    if (g_nwatched > 0) check_watched(g_state->events.used());
  }
  // The send buffer as posted (not in place: MPI writes that one; vector
  // send sides may have gaps the application may use).
  const bool send_block = ci != nullptr && g_send_checksums && v.sent > 0 && c.sbuf != nullptr &&
                          c.sbuf != MPI_IN_PLACE && c.scounts == nullptr && c.stypes == nullptr &&
                          type_info(c.stype).contiguous;
  const std::uint64_t checksum = send_block ? buffer_checksum(c.sbuf, v.sent) : 0;
  Active a = begin_call_in_place(
      c,
      [&](Event& e) {
        if (ci != nullptr) fill_coll(e, c, *ci, v);
        e.request = request;
      },
      v.sent);
  int rc = call();
  if (rc == MPI_SUCCESS) {
    RequestInfo info{request,        ci,           v.count, v.sent, ci != nullptr ? coll_buffer(c) : 0,
                     trace::kNoPeer, trace::kNoTag, a.site,  OpClass::Icollective};
    info.slot = reinterpret_cast<std::uintptr_t>(c.req);
    info.checksum = checksum;
    info.post_seq = a.seq;
    const bool receive = ci != nullptr && receive_block(c, v, info.rbuffer, info.rbytes);
    StateLock lock;
    const std::uint64_t used = g_state->events.used();
    if (g_nwatched > 0) rehash_watched(used);
    if (receive && g_icoll_receive_sums && g_nwatched < kWatchMax) {
      info.rchecksum = buffer_checksum(reinterpret_cast<const void*>(info.rbuffer), info.rbytes);
      info.rmark = used;
      g_watched[g_nwatched++] = Watched{*c.req, request};
    }
    g_state->requests.add(handle_key(*c.req), info);
    if (receive && guarding_receives()) guard_receive(request, a.seq, reinterpret_cast<const void*>(info.rbuffer), info.rbytes);
    LiveWrite w;
    pending_add(info, OpClass::Icollective);
  }
  // Received volume is attributed at post time: the collective's result
  // size is known from the arguments.
  end_call(a, rc, rc == MPI_SUCCESS ? v.received : 0);
  return rc;
}

SCALEFUZZ_HANDLER(comm_new) {
  (void)nb;
  if (!g_state->recording) return call();
  CommInfo* parent = nullptr;
  {
    StateLock lock;
    parent = comm_info(c.comm);
  }
  Event e = blank_event();
  e.comm = trace::kCommNull;
  e.root = parent != nullptr ? static_cast<std::int32_t>(parent->id) : trace::kNoPeer;
  // Arguments MPICH accepts and the standard forbids (format.hpp: kColorUndefined).
  if (c.has_color) e.tag = c.color == MPI_UNDEFINED ? trace::kColorUndefined : c.color;
  if (c.dims != nullptr && c.ndims > 0) {
    e.count = c.ndims;
    e.tag = c.dims[0];
    for (int i = 1; i < c.ndims && i < 64; ++i)
      if (c.dims[i] < e.tag) e.tag = c.dims[i];
  } else if (c.op == trace::ops::Cart_create) {
    e.tag = 0;
    e.count = c.ndims;
  }
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && parent != nullptr && *c.newcomm != MPI_COMM_NULL) {
    StateLock lock;
    register_new_comm(*c.newcomm);
    if (a.ev != nullptr) a.ev->comm = comm_info(*c.newcomm)->id;
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(comm_free) {
  (void)nb;
  if (!g_state->recording) return call();
  MPI_Comm comm = *c.newcomm;
  Event e = blank_event();
  {
    StateLock lock;
    CommInfo* ci = comm_info(comm);
    e.comm = ci != nullptr ? ci->id : trace::kCommNull;
  }
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS) {
    StateLock lock;
    forget_comm(comm);
  }
  end_call(a, rc, 0);
  return rc;
}

}  // namespace scalefuzz::inject
