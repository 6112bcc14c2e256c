// One-sided communication (issue 33; trace format 4, OpClass WinMgmt, Rma,
// RmaSync; field use in trace/format.hpp).
//
// Window ids are equal on every member: a window is created collectively on
// a communicator, so the communicator's id and how many windows this process
// saw created on it before name it alike everywhere (as communicator ids,
// comms.cpp).
//
// Origin buffers (MPI-4.0 §12.3, §12.5): the buffer a Put/Accumulate (and the
// fetching ones) reads must not change until the operation completes at the
// origin (the epoch's closing synchronization, a flush, or the R* request's
// completion); the buffer a Get (or the result of a fetching one) writes must
// not be touched until then. Reads are hashed with the send-buffer hash of the
// usage checks (buffer_checksum, ranks/N.modified "<post seq> <completion
// seq>"), written buffers are page-protected like pending receives
// (receive_guard.cpp, ranks/N.accessed) when the guard mode is on.
#include <mpi.h>

#include <vector>

#include "alloc.hpp"
#include "hooks.hpp"
#include "mix.hpp"
#include "receive_guard.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "record.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

using trace::Event;
using trace::OpClass;

namespace {

// An operation issued in the current epoch whose origin-side completion is
// still to come (blocking-style calls; the R* ones go through the request table).
struct PendingOp {
  std::uint64_t id = 0;        // guard id (an injector request id)
  std::uint64_t post_seq = 0;  // its record
  std::int32_t target = trace::kNoPeer;  // world rank
  const void* read_buf = nullptr;        // origin buffer MPI reads (hashed)
  std::int64_t read_bytes = 0;
  std::uint64_t checksum = 0;
  bool guarded = false;  // the buffer MPI writes is page-protected under `id`
};

struct WinInfo {
  std::uint32_t id = 0;
  const CommInfo* comm = nullptr;  // the window's group (never deleted)
  std::uintptr_t base = 0;
  std::int64_t size = 0;
  bool watched = false;  // MPI_Win_create's base in the allocator's watch list
  std::vector<PendingOp> pending;
};

IntMap<WinInfo*> g_windows;             // MPI_Win -> window
IntMap<std::uint32_t> g_wins_created;  // communicator id -> windows created on it so far

WinInfo* window(MPI_Win w) {
  StateLock lock;
  WinInfo** found = g_windows.find(handle_key(w));
  return found != nullptr ? *found : nullptr;
}

std::int32_t lock_type_code(int t) {
  if (t == MPI_LOCK_EXCLUSIVE) return trace::kLockExclusive;
  if (t == MPI_LOCK_SHARED) return trace::kLockShared;
  return t;
}

std::int64_t assert_bits(int a) {
  return ((a & MPI_MODE_NOCHECK) != 0 ? trace::kModeNoCheck : 0) | ((a & MPI_MODE_NOSTORE) != 0 ? trace::kModeNoStore : 0) |
         ((a & MPI_MODE_NOPUT) != 0 ? trace::kModeNoPut : 0) | ((a & MPI_MODE_NOPRECEDE) != 0 ? trace::kModeNoPrecede : 0) |
         ((a & MPI_MODE_NOSUCCEED) != 0 ? trace::kModeNoSucceed : 0);
}

// The origin-side completion of the pending operations `done` selects: the
// read buffer must be as it was posted, the written one is released.
template <class Pred>
void complete_ops(WinInfo* wi, std::uint64_t seq, Pred done) {
  auto& v = wi->pending;
  for (std::size_t i = 0; i < v.size();) {
    if (!done(v[i])) {
      ++i;
      continue;
    }
    const PendingOp& op = v[i];
    if (op.checksum != 0 && buffer_checksum(op.read_buf, op.read_bytes) != op.checksum)
      note_modified_buffer(op.post_seq, seq);
    if (op.guarded) release_receive_guard(op.id);
    v[i] = v.back();
    v.pop_back();
  }
}

void record_rma_sync_child(const Active& a, const RmaCall& c, std::uint32_t win_id, std::int32_t peer) {
  Event e = blank_event();
  e.op = c.op;
  e.op_class = static_cast<std::uint8_t>(OpClass::RmaSync);
  e.comm = win_id;
  e.peer = peer;
  child_record(a, e, true);
}

// World ranks of a PSCW group.
std::vector<int> group_world_ranks(MPI_Group g) {
  std::vector<int> out;
  if (g == MPI_GROUP_NULL) return out;
  int n = 0;
  if (PMPI_Group_size(g, &n) != MPI_SUCCESS || n <= 0) return out;
  MPI_Group world = MPI_GROUP_NULL;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) ranks[static_cast<std::size_t>(i)] = i;
  out.assign(ranks.size(), trace::kNoPeer);
  PMPI_Group_translate_ranks(g, n, ranks.data(), world, out.data());
  PMPI_Group_free(&world);
  return out;
}

}  // namespace

SCALEFUZZ_HANDLER(win_new) {
  (void)nb;
  auto& r = static_cast<RmaCall&>(c);
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  Event e = blank_event();
  e.tag = static_cast<std::int32_t>(ci != nullptr ? ci->id : trace::kCommNull);
  e.count = r.dispunit;
  e.bytes = r.wsize;
  e.buffer = reinterpret_cast<std::uintptr_t>(r.base);
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && r.winout != nullptr && ci != nullptr) {
    auto* wi = new WinInfo();  // freed at Win_free
    wi->comm = ci;
    wi->size = r.wsize;
    wi->base = r.baseout != nullptr ? reinterpret_cast<std::uintptr_t>(*static_cast<void**>(r.baseout))
                                    : reinterpret_cast<std::uintptr_t>(r.base);
    {
      StateLock lock;
      std::uint32_t* seen = g_wins_created.find(ci->id);
      if (seen == nullptr) seen = &g_wins_created.insert(ci->id, 0);
      wi->id = mix_to_id(static_cast<std::uint64_t>(ci->id) << 32 ^ (*seen)++ ^ 0x77494eull << 40) | 1u;  // never 0
      g_windows.insert(handle_key(*r.winout), wi);
    }
    set_window_error_handler(*r.winout);
    if (a.ev != nullptr) {
      a.ev->comm = wi->id;
      a.ev->buffer = wi->base;
    }
    if (wi->size > 0) guard_window(wi->id, reinterpret_cast<const void*>(wi->base), wi->size);
    wi->watched = c.op == trace::ops::Win_create && wi->size > 0;  // the program's memory: its free() is noted
    if (wi->watched) alloc_watch(reinterpret_cast<const void*>(wi->base));
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(win_attach) {
  (void)nb;
  auto& r = static_cast<RmaCall&>(c);
  if (!g_state->recording) return call();
  WinInfo* wi = window(r.win);
  Event e = blank_event();
  e.comm = wi != nullptr ? wi->id : trace::kCommNull;
  e.buffer = reinterpret_cast<std::uintptr_t>(r.base);
  e.bytes = r.wsize;  // 0 for Win_detach
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && wi != nullptr) {
    if (r.wsize > 0) guard_window(wi->id, r.base, r.wsize);
    else unguard_window(wi->id, r.base);
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(win_free) {
  (void)nb;
  auto& r = static_cast<RmaCall&>(c);
  if (!g_state->recording) return call();
  const MPI_Win w = r.winout != nullptr ? *r.winout : MPI_WIN_NULL;
  WinInfo* wi = window(w);
  Event e = blank_event();
  e.comm = wi != nullptr ? wi->id : trace::kCommNull;
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && wi != nullptr) {
    // Freeing completes whatever the epoch left (erroneous inside one: the detector says so).
    complete_ops(wi, a.seq, [](const PendingOp&) { return true; });
    unguard_window(wi->id, nullptr);
    if (wi->watched) alloc_unwatch(reinterpret_cast<const void*>(wi->base));
    {
      StateLock lock;
      g_windows.erase(handle_key(w));
    }
    delete wi;
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(rma) {
  (void)nb;
  auto& r = static_cast<RmaCall&>(c);
  noise_before_rma(c.op, static_cast<std::uint8_t>(c.cls));
  if (!g_state->recording) return call();
  WinInfo* wi = window(r.win);
  // Get writes its origin buffer (role rbuf); the others read one (sbuf) and
  // the fetching ones write a result buffer (rbuf).
  const bool reads = c.sbuf != nullptr || c.scount > 0;
  const void* origin = reads ? c.sbuf : c.rbuf;
  const int ocount = reads ? c.scount : c.rcount;
  const MPI_Datatype otype = reads ? c.stype : c.rtype;
  const TypeInfo oti = otype != MPI_DATATYPE_NULL ? type_info(otype) : TypeInfo{};
  // Fetch_and_op / Compare_and_swap name one datatype for every side.
  const MPI_Datatype ttype = r.ttype != MPI_DATATYPE_NULL ? r.ttype : c.stype;
  const TypeInfo tti = ttype != MPI_DATATYPE_NULL ? type_info(ttype) : TypeInfo{};
  Event e = blank_event();
  e.comm = wi != nullptr ? wi->id : trace::kCommNull;
  e.peer = r.target == MPI_PROC_NULL ? trace::kProcNull
           : wi != nullptr           ? wi->comm->world_of(r.target)
                                     : trace::kNoPeer;
  e.buffer = reinterpret_cast<std::uintptr_t>(origin);
  e.scount_arg = ocount;
  e.dtype = oti.key;
  e.bytes = static_cast<std::int64_t>(oti.size) * (ocount > 0 ? ocount : 0);
  e.count = static_cast<std::int64_t>(r.tdisp);
  e.rcount_arg = r.tcount;
  e.rdtype = tti.key;
  e.status_bytes = static_cast<std::int32_t>(static_cast<std::int64_t>(tti.size) * (r.tcount > 0 ? r.tcount : 0));
  if (reads && c.rbuf != nullptr) e.rbuffer = reinterpret_cast<std::uintptr_t>(c.rbuf);
  if (c.has_rop) e.reduce_op = reduce_op_code(c.rop);
  const bool r_version = c.req != nullptr;
  const std::uint64_t id = next_request_id();
  if (r_version) e.request = id;
  Active a = begin_call(c, e, reads ? e.bytes : 0);
  // The buffer MPI reads, as issued (contiguous datatypes; the usage checks' hash).
  const std::uint64_t checksum =
      g_send_checksums && reads && oti.contiguous && e.bytes > 0 && origin != nullptr ? buffer_checksum(origin, e.bytes) : 0;
  int rc = call();
  if (rc == MPI_SUCCESS && e.peer != trace::kProcNull) {
    // The buffer MPI writes: Get's origin, the fetching ones' result.
    const void* written = c.rbuf;
    const int wcount = c.rcount;
    const TypeInfo wti = c.rtype != MPI_DATATYPE_NULL ? (c.rtype == otype ? oti : type_info(c.rtype)) : TypeInfo{};
    const std::int64_t wbytes = static_cast<std::int64_t>(wti.size) * (wcount > 0 ? wcount : 0);
    const bool guard = written != nullptr && wbytes > 0 && wti.contiguous && guarding_rma();
    if (r_version) {
      RequestInfo info{id, nullptr, ocount, e.bytes, e.buffer, e.peer, trace::kNoTag, a.site, OpClass::Rma};
      info.checksum = checksum;
      info.post_seq = a.seq;
      register_request(c.req, info, true);
    } else if (wi != nullptr && (checksum != 0 || guard)) {
      StateLock lock;
      wi->pending.push_back(PendingOp{id, a.seq, e.peer, origin, e.bytes, checksum, guard});
    }
    if (guard) guard_receive(id, a.seq, written, wbytes, true);
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(rma_sync) {
  (void)nb;
  auto& r = static_cast<RmaCall&>(c);
  noise_before_rma(c.op, static_cast<std::uint8_t>(c.cls));
  if (!g_state->recording) return call();
  WinInfo* wi = window(r.win);
  Event e = blank_event();
  e.comm = wi != nullptr ? wi->id : trace::kCommNull;
  const bool targeted = c.op == trace::ops::Win_lock || c.op == trace::ops::Win_unlock || c.op == trace::ops::Win_flush ||
                        c.op == trace::ops::Win_flush_local;
  if (targeted)
    e.peer = r.target == MPI_PROC_NULL ? trace::kProcNull
             : wi != nullptr           ? wi->comm->world_of(r.target)
                                       : trace::kNoPeer;
  if (c.op == trace::ops::Win_lock) e.tag = lock_type_code(r.locktype);
  e.count = assert_bits(r.assertion);
  {
    const std::uint16_t op = c.op;
    if (op == trace::ops::Win_fence || op == trace::ops::Win_complete || op == trace::ops::Win_wait ||
        op == trace::ops::Win_unlock || op == trace::ops::Win_unlock_all || op == trace::ops::Win_flush ||
        op == trace::ops::Win_flush_all || op == trace::ops::Win_flush_local || op == trace::ops::Win_flush_local_all)
      hold_before_completion();  // threaded guard_windows only: the pending operations stay pending longer
  }
  Active a = begin_call(c, e, 0);
  if (c.op == trace::ops::Win_start || c.op == trace::ops::Win_post)
    for (int w : group_world_ranks(r.group)) record_rma_sync_child(a, r, e.comm, w);
  int rc = call();
  if (rc == MPI_SUCCESS && c.op == trace::ops::Win_test && c.flag != nullptr && *c.flag == 0 && a.ev != nullptr)
    a.ev->flags |= trace::kFlagTestFailed;
  if (rc == MPI_SUCCESS && wi != nullptr) {
    // Where the origin's operations complete (MPI-4.0 §12.5): the closing
    // synchronization of their epoch, or a flush.
    const std::uint16_t op = c.op;
    if (op == trace::ops::Win_fence || op == trace::ops::Win_complete || op == trace::ops::Win_unlock_all ||
        op == trace::ops::Win_flush_all || op == trace::ops::Win_flush_local_all) {
      complete_ops(wi, a.seq, [](const PendingOp&) { return true; });
    } else if (op == trace::ops::Win_unlock || op == trace::ops::Win_flush || op == trace::ops::Win_flush_local) {
      const std::int32_t t = e.peer;
      complete_ops(wi, a.seq, [t](const PendingOp& p) { return p.target == t; });
    }
  }
  end_call(a, rc, 0);
  return rc;
}

}  // namespace scalefuzz::inject
