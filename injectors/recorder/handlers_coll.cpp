// Collectives (blocking and nonblocking) and communicator management.
#include "hooks.hpp"
#include "oversub.hpp"
#include "record.hpp"
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

}  // namespace

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
  }
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
    StateLock lock;
    g_state->requests.add(handle_key(*c.req), info);
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
