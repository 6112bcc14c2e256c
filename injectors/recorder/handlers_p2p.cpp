// Point-to-point handlers: blocking, nonblocking, persistent, Sendrecv,
// probes and matched receives.
#include "decisions.hpp"
#include "hooks.hpp"
#include "oversub.hpp"
#include "replay.hpp"
#include "receive_guard.hpp"
#include "record.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

using trace::Event;
using trace::OpClass;

namespace {
std::uintptr_t addr(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }


// One side of a point-to-point call: `count` elements of `type` at `buf`
// to or from `peer` (a rank of `ci`).
Event p2p_event(const CommInfo* ci, int peer, int tag, int count, MPI_Datatype type, const void* buf,
                bool* contiguous) {
  Event e = blank_event();
  e.peer = world_peer(ci, peer);
  e.tag = tag;
  e.comm = ci != nullptr ? ci->id : trace::kCommNull;
  e.count = count;
  const TypeInfo t = type_info(type);
  e.dtype = t.key;
  e.scount_arg = count;
  e.bytes = count > 0 ? static_cast<std::int64_t>(t.size) * count : 0;
  e.buffer = addr(buf);
  if (contiguous != nullptr) *contiguous = t.contiguous;
  return e;
}

Event send_event(const Call& c, const CommInfo* ci, bool* contiguous = nullptr) {
  Event e = p2p_event(ci, c.dest, c.tag, c.scount, c.stype, c.sbuf, contiguous);
  if (c.rbuf != nullptr) e.rbuffer = addr(c.rbuf);  // Sendrecv: aliasing check
  return e;
}

Event recv_event(const Call& c, const CommInfo* ci, int source, int tag, bool* contiguous = nullptr) {
  return p2p_event(ci, source, tag == MPI_ANY_TAG ? trace::kAnyTag : tag, c.rcount, c.rtype, c.rbuf, contiguous);
}

// Offers a send to the noise hooks; true if they issued it.
bool hooked_send(const Call& c, bool blocking, int* rc) {
  const NoiseHooks* h = noise_hooks();
  if (h == nullptr || h->issue_send == nullptr) return false;
  SendIssue s{c.op, blocking, c.sbuf, c.scount, c.stype, c.dest, c.tag, c.comm};
  return h->issue_send(h->ctx, s, c.req, rc);
}

// Event::payload_sum of a send record: what a matched receive must hold at
// its completion (handlers_usage_buffers.cpp). `checksum`: the buffer's
// buffer_checksum() if already taken.
void note_payload(Active& a, const Call& c, const Event& e, bool contiguous, std::uint64_t checksum = 0) {
  if (!g_payload_sums || !contiguous || e.bytes <= 0 || c.sbuf == nullptr || a.ev == nullptr) return;
  trace::set_payload_sum(*a.ev, payload_sum_of(checksum != 0 ? checksum : buffer_checksum(c.sbuf, e.bytes)));
}

MPI_Status fresh_status() {
  MPI_Status st{};
  st.MPI_SOURCE = MPI_UNDEFINED;  // tells "MPI never filled it" apart
  st.MPI_TAG = MPI_UNDEFINED;
  return st;
}

// Folding key of an Iprobe/Improbe: its envelope.
std::uint64_t envelope_key(const Event& e) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.peer)) << 32 |
          static_cast<std::uint32_t>(e.tag)) ^ (static_cast<std::uint64_t>(e.comm) * 0x9E3779B97F4A7C15ull);
}

// The decision log's source and tag of a wildcard receive's match
// (`any_tag`: the call had MPI_ANY_TAG, so the tag is part of the decision).
void log_match(std::uint64_t ordinal, int rc, const MPI_Status& st, const CommInfo* ci, bool any_tag) {
  const bool matched = rc == MPI_SUCCESS && st.MPI_SOURCE >= 0;
  decision_match(ordinal, matched ? world_peer(ci, st.MPI_SOURCE) : trace::kNoMessage,
                 matched && any_tag ? st.MPI_TAG : trace::kNoDecisionTag);
}

// A wildcard receive or probe posted in this call: its ordinal, and the
// recorded source and tag put into `source`/`tag` when replaying.
std::uint64_t post_wildcard(const CommInfo* ci, bool blocking, int& source, int& tag) {
  const std::uint64_t ordinal = decision_post();
  if (g_replaying) replay_force_post(ordinal, ci, blocking, source, tag);
  return ordinal;
}

// Blocking-receive family body: record, run (emulated when oversubscribed),
// store the status, complete. A wildcard receive's match goes to the
// decision log (and is forced when replaying).
int recv_like(Call& c, Invoke call, NbInvoke nb, Event e, const CommInfo* ci) {
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  else *c.status = local;
  Active a = begin_call(c, e, 0);
  const bool any_tag = c.tag == MPI_ANY_TAG;
  const std::uint64_t ordinal = is_wildcard(c.source, c.tag) ? post_wildcard(ci, true, c.source, c.tag) : 0;
  int rc = run_blocking(call, nb, c.status);
  if (ordinal != 0) log_match(ordinal, rc, *c.status, ci, any_tag);
  if (a.ev != nullptr) store_status(*a.ev, *c.status, ci);
  if (rc == MPI_SUCCESS && c.status->MPI_SOURCE >= 0) noise_on_receive();
  end_call(a, rc, a.ev != nullptr ? a.ev->status_bytes : 0);
  c.status = user;
  return rc;
}
}  // namespace

std::uint64_t next_request_id() {
  StateLock lock;
  return g_state->next_request_id++;
}

void register_request(MPI_Request* slot, RequestInfo info, bool pending) {
  info.slot = reinterpret_cast<std::uintptr_t>(slot);
  StateLock lock;
  g_state->requests.add(handle_key(*slot), info);
  if (pending) {
    LiveWrite w;
    pending_add(info, info.cls);
  }
}

SCALEFUZZ_HANDLER(send) {
  int rc = 0;
  if (!g_state->recording) return hooked_send(c, true, &rc) ? rc : run_blocking(call, nb, MPI_STATUS_IGNORE);
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = send_event(c, ci, &contiguous);
  Active a = begin_call(c, e, e.peer >= 0 ? e.bytes : 0);
  note_payload(a, c, e, contiguous);
  if (hooked_send(c, true, &rc)) {
    if (a.ev != nullptr) a.ev->flags |= trace::kFlagDelayed;
  } else {
    rc = run_blocking(call, nb, MPI_STATUS_IGNORE);
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(recv) {
  if (!g_state->recording) return run_blocking(call, nb, c.status);
  const CommInfo* ci = locked_comm(c.comm);
  return recv_like(c, call, nb, recv_event(c, ci, c.source, c.tag), ci);
}

namespace {
// Oversubscribed Sendrecv: Irecv + Isend + polling (the `emulated` note in
// mpi_table.py). Sendrecv_replace (sbuf == rbuf) runs as is.
int run_sendrecv(const Call& c, Invoke call, MPI_Status* status) {
  if (!oversubscribed() || c.sbuf == c.rbuf) return call();
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st[2];
  int rc = PMPI_Irecv(c.rbuf, c.rcount, c.rtype, c.source, c.rtag, c.comm, &r[0]);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Isend(c.sbuf, c.scount, c.stype, c.dest, c.tag, c.comm, &r[1]);
  if (rc != MPI_SUCCESS) {
    PMPI_Cancel(&r[0]);
    PMPI_Request_free(&r[0]);
    return rc;
  }
  rc = poll_all(2, r, st);
  if (status != MPI_STATUS_IGNORE) *status = st[0];
  if (rc == MPI_ERR_IN_STATUS) rc = st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
  return rc;
}
}  // namespace

SCALEFUZZ_HANDLER(sendrecv) {
  (void)nb;
  int ignored = 0;
  (void)hooked_send(c, true, &ignored);  // never issued by the hooks: they may only wait (hooks.hpp)
  if (!g_state->recording) return run_sendrecv(c, call, c.status);
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = send_event(c, ci, &contiguous);
  Active a = begin_call(c, e, e.peer >= 0 ? e.bytes : 0);
  note_payload(a, c, e, contiguous);
  Event half = recv_event(c, ci, c.source, c.rtag);
  half.op = c.op;
  half.op_class = static_cast<std::uint8_t>(OpClass::Recv);
  Event* child = open_child(a, half);
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  else *c.status = local;
  const bool any_tag = c.rtag == MPI_ANY_TAG;
  const std::uint64_t ordinal = is_wildcard(c.source, c.rtag) ? post_wildcard(ci, true, c.source, c.rtag) : 0;
  int rc = run_sendrecv(c, call, c.status);
  if (ordinal != 0) log_match(ordinal, rc, *c.status, ci, any_tag);
  if (rc == MPI_SUCCESS && c.status->MPI_SOURCE >= 0) noise_on_receive();
  std::uint64_t t = now_ns();
  finish_child(child, *c.status, ci, rc, t);
  end_call(a, rc, child != nullptr ? child->status_bytes : 0, t);
  c.status = user;
  return rc;
}

SCALEFUZZ_HANDLER(isend) {
  (void)nb;
  int rc = 0;
  if (!g_state->recording) return hooked_send(c, false, &rc) ? rc : call();
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = send_event(c, ci, &contiguous);
  e.request = next_request_id();
  Active a = begin_call(c, e, e.peer >= 0 ? e.bytes : 0);
  // The buffer as posted (the standard forbids changing it until completion).
  const std::uint64_t checksum = g_send_checksums && contiguous && e.bytes > 0 && c.sbuf != nullptr ? buffer_checksum(c.sbuf, e.bytes) : 0;
  note_payload(a, c, e, contiguous, checksum);
  bool delayed = hooked_send(c, false, &rc);
  if (delayed) {
    if (a.ev != nullptr) a.ev->flags |= trace::kFlagDelayed;
  } else {
    rc = call();
  }
  if (rc == MPI_SUCCESS) {
    RequestInfo info{e.request, ci, e.count, e.bytes, e.buffer, e.peer, e.tag, a.site, OpClass::Isend};
    info.flags = static_cast<std::uint8_t>(c.flags | (delayed ? trace::kFlagDelayed : 0));
    info.checksum = checksum;
    info.post_seq = a.seq;
    register_request(c.req, info, true);
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(irecv) {
  (void)nb;
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = recv_event(c, ci, c.source, c.tag, &contiguous);
  e.request = next_request_id();
  Active a = begin_call(c, e, 0);
  const bool any_tag = c.tag == MPI_ANY_TAG;
  const std::uint64_t ordinal = is_wildcard(c.source, c.tag) ? post_wildcard(ci, false, c.source, c.tag) : 0;
  int rc = call();
  if (rc == MPI_SUCCESS) {
    RequestInfo info{e.request, ci, e.count, e.bytes, e.buffer, e.peer, e.tag, a.site, OpClass::Irecv};
    info.contiguous = contiguous;
    info.wild_ordinal = ordinal;
    info.wild_any_tag = any_tag;
    register_request(c.req, info, true);
    if (contiguous && guarding_receives()) guard_receive(info.id, a.seq, c.rbuf, e.bytes);
  }
  end_call(a, rc, 0);
  return rc;
}

namespace {
int persistent_init(Call& c, Invoke call, Event e, const CommInfo* ci, OpClass cls, bool contiguous) {
  e.request = next_request_id();
  e.flags |= trace::kFlagPersistent;
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS) {
    RequestInfo info{e.request, ci, e.count, e.bytes, e.buffer, e.peer, e.tag, a.site, cls};
    info.persistent = true;
    // A wildcard persistent receive takes an ordinal at each Start (logged,
    // checked on replay, not forced: its source is fixed at the init).
    info.wildcard = cls == OpClass::RecvInit && is_wildcard(c.source, c.tag);
    info.wild_any_tag = c.tag == MPI_ANY_TAG;
    info.flags = c.flags;
    info.contiguous = contiguous;
    register_request(c.req, info, false);
  }
  end_call(a, rc, 0);
  return rc;
}

// Start record of one persistent request; `child` for Startall's children.
Event start_event(const Call& c, const RequestInfo* info) {
  Event e = blank_event();
  e.op = c.op;
  e.op_class = static_cast<std::uint8_t>(OpClass::Start);
  e.flags = trace::kFlagPersistent;
  if (info != nullptr) {
    e.peer = info->peer;
    e.tag = info->tag;
    e.comm = info->comm != nullptr ? info->comm->id : trace::kCommNull;
    e.count = info->count;
    e.bytes = info->bytes;
    e.buffer = info->buffer;
    e.request = info->id;
    e.flags |= info->flags;
  }
  return e;
}

// Marks a started persistent request active. A persistent send's buffer is
// hashed here like an Isend's at its post (`seq`: the Start record); returns
// its Event::payload_sum (0: none).
std::uint32_t mark_started(MPI_Request* slot, std::uint64_t seq) {
  StateLock lock;
  RequestInfo* info = g_state->requests.pick(handle_key(*slot), reinterpret_cast<std::uintptr_t>(slot));
  if (info == nullptr) return 0;
  info->active = true;
  info->cancelled = false;
  info->checksum = 0;
  if (info->wildcard) info->wild_ordinal = decision_post();
  std::uint32_t sum = 0;
  if (info->cls == OpClass::SendInit && info->contiguous && info->bytes > 0 && info->buffer != 0 &&
      (g_send_checksums || g_payload_sums)) {
    const std::uint64_t h = buffer_checksum(reinterpret_cast<const void*>(info->buffer), info->bytes);
    if (g_send_checksums) info->checksum = h, info->post_seq = seq;
    if (g_payload_sums) sum = payload_sum_of(h);
  }
  if (info->cls == OpClass::RecvInit && info->contiguous && guarding_receives())
    guard_receive(info->id, seq, reinterpret_cast<const void*>(info->buffer), info->bytes);
  LiveWrite w;
  pending_add(*info, OpClass::Start);
  return sum;
}

RequestInfo lookup_copy(MPI_Request* slot, bool& found) {
  StateLock lock;
  RequestInfo* info = g_state->requests.pick(handle_key(*slot), reinterpret_cast<std::uintptr_t>(slot));
  found = info != nullptr;
  return found ? *info : RequestInfo{};
}
}  // namespace

SCALEFUZZ_HANDLER(send_init) {
  (void)nb;
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = send_event(c, ci, &contiguous);
  return persistent_init(c, call, e, ci, OpClass::SendInit, contiguous);
}

SCALEFUZZ_HANDLER(recv_init) {
  (void)nb;
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  bool contiguous = false;
  Event e = recv_event(c, ci, c.source, c.tag, &contiguous);
  return persistent_init(c, call, e, ci, OpClass::RecvInit, contiguous);
}

SCALEFUZZ_HANDLER(start) {
  (void)nb;
  if (!g_state->recording) return call();
  bool found = false;
  RequestInfo info = lookup_copy(c.req, found);
  Event e = start_event(c, found ? &info : nullptr);
  bool is_send = found && info.cls == OpClass::SendInit;
  Active a = begin_call(c, e, is_send && e.peer >= 0 ? e.bytes : 0);
  int rc = call();
  if (rc == MPI_SUCCESS) {
    const std::uint32_t sum = mark_started(c.req, a.seq);
    if (sum != 0 && a.ev != nullptr) trace::set_payload_sum(*a.ev, sum);
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(startall) {
  (void)nb;
  if (!g_state->recording) return call();
  Event parent = blank_event();
  parent.count = c.nreq;
  Active a = begin_call(c, parent, 0);
  int rc = call();
  std::uint64_t t = now_ns();
  if (rc == MPI_SUCCESS) {
    for (int i = 0; i < c.nreq; ++i) {
      bool found = false;
      RequestInfo info = lookup_copy(&c.reqs[i], found);
      Event e = start_event(c, found ? &info : nullptr);
      trace::set_payload_sum(e, mark_started(&c.reqs[i], a.seq));
      child_record(a, e, true, t);
      if (found && info.cls == OpClass::SendInit && info.peer >= 0 && info.site < g_state->sites.file_capacity) {
        StateLock lock;
        g_state->features[a.site].bytes_sent += static_cast<std::uint64_t>(info.bytes);
      }
    }
  }
  end_call(a, rc, 0, t);
  return rc;
}

SCALEFUZZ_HANDLER(probe) {
  (void)nb;
  auto run = [&] { return oversubscribed() ? poll_probe(c.source, c.tag, c.comm, c.status) : call(); };
  if (!g_state->recording) return run();
  const CommInfo* ci = locked_comm(c.comm);
  Event e = recv_event(c, ci, c.source, c.tag);
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  Active a = begin_call(c, e, 0);
  const bool any_tag = c.tag == MPI_ANY_TAG;
  const std::uint64_t ordinal = is_wildcard(c.source, c.tag) ? post_wildcard(ci, true, c.source, c.tag) : 0;
  int rc = run();
  if (ordinal != 0) log_match(ordinal, rc, *c.status, ci, any_tag);
  if (a.ev != nullptr) store_status(*a.ev, *c.status, ci);
  end_call(a, rc, 0);
  c.status = user;
  return rc;
}

namespace {
// Iprobe/Improbe body when replaying: a probe the log says found nothing
// returns "no message" without asking MPI; one that found a message waits
// for exactly it (`wait(source, tag)`: Probe/Mprobe with the recorded
// source and tag). `ordinal` gets the wildcard ordinal of a forced success.
template <class Call_, class Wait>
int forced_probe(Call& c, const CommInfo* ci, bool wild, std::uint64_t& ordinal, Call_ mpi, Wait wait) {
  if (!g_replaying || c.flag == nullptr) return mpi();
  const PollForce f = replay_poll(false);
  if (f.plan == PollPlan::Free) return mpi();
  if (f.plan == PollPlan::Fail) {
    *c.flag = 0;
    return MPI_SUCCESS;
  }
  int source = c.source, tag = c.tag;
  if (wild) ordinal = post_wildcard(ci, true, source, tag);
  const int rc = wait(source, tag);
  *c.flag = rc == MPI_SUCCESS;
  return rc;
}

// The decision log's entries of an Iprobe/Improbe: its outcome, and the
// match of a wildcard one that found a message.
void log_probe(bool found, bool wild, std::uint64_t& ordinal, int rc, const MPI_Status& st, const CommInfo* ci, bool any_tag) {
  if (!found) {
    decision_poll_failed();
    return;
  }
  decision_poll();
  if (!wild) return;
  if (ordinal == 0) ordinal = decision_post();
  log_match(ordinal, rc, st, ci, any_tag);
}
}  // namespace

SCALEFUZZ_HANDLER(iprobe) {
  (void)nb;
  if (!g_state->recording) return call();
  const CommInfo* ci = locked_comm(c.comm);
  Event e = recv_event(c, ci, c.source, c.tag);
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  Poll p = begin_poll(c, e, envelope_key(e));
  std::uint64_t ordinal = 0;
  const bool wild = is_wildcard(c.source, c.tag), any_tag = c.tag == MPI_ANY_TAG;
  const int rc = forced_probe(c, ci, wild, ordinal, [&] { return call(); },
                              [&](int source, int tag) { return oversubscribed() ? poll_probe(source, tag, c.comm, c.status) : PMPI_Probe(source, tag, c.comm, c.status); });
  std::uint64_t t = now_ns();
  bool found = rc == MPI_SUCCESS && *c.flag;
  log_probe(found, wild, ordinal, rc, *c.status, ci, any_tag);
  poll_result(p, !found, rc, t);
  if (found && p.a.ev != nullptr) store_status(*p.a.ev, *c.status, ci);
  end_poll(p, rc, t);
  c.status = user;
  return rc;
}

namespace {
// Mprobe/Improbe: remember which message the handle names for the Mrecv.
void remember_message(MPI_Message m, const Event* ev) {
  if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC || ev == nullptr) return;
  StateLock lock;
  g_state->messages.insert(handle_key(m), MessageInfo{ev->status_source, ev->status_tag, ev->comm});
}

int mprobe_common(Call& c, Invoke call, bool blocking) {
  const CommInfo* ci = locked_comm(c.comm);
  Event e = recv_event(c, ci, c.source, c.tag);
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  Poll p;
  if (blocking)
    p.a = begin_call(c, e, 0);
  else
    p = begin_poll(c, e, envelope_key(e));
  const bool wild = is_wildcard(c.source, c.tag), any_tag = c.tag == MPI_ANY_TAG;
  std::uint64_t ordinal = blocking && wild ? post_wildcard(ci, true, c.source, c.tag) : 0;
  auto mprobe = [&](int source, int tag) {
    return oversubscribed() ? poll_mprobe(source, tag, c.comm, c.message, c.status)
                            : PMPI_Mprobe(source, tag, c.comm, c.message, c.status);
  };
  int rc = blocking ? (oversubscribed() ? mprobe(c.source, c.tag) : call())
                    : forced_probe(c, ci, wild, ordinal, [&] { return call(); }, mprobe);
  std::uint64_t t = now_ns();
  bool found = rc == MPI_SUCCESS && (blocking || *c.flag);
  if (blocking && ordinal != 0)
    log_match(ordinal, rc, *c.status, ci, any_tag);
  else if (!blocking)
    log_probe(found, wild, ordinal, rc, *c.status, ci, any_tag);
  if (!blocking) poll_result(p, !found, rc, t);
  if (found && p.a.ev != nullptr) {
    store_status(*p.a.ev, *c.status, ci);
    remember_message(*c.message, p.a.ev);
  }
  if (blocking)
    end_call(p.a, rc, 0, t);
  else
    end_poll(p, rc, t);
  c.status = user;
  return rc;
}

// Peer and tag of the message an Mrecv/Imrecv receives (from its probe).
void message_peer(MPI_Message m, Event& e) {
  if (m == MPI_MESSAGE_NO_PROC) {
    e.peer = trace::kProcNull;
    return;
  }
  StateLock lock;
  if (MessageInfo* v = g_state->messages.find(handle_key(m))) {
    e.peer = v->source;
    e.tag = v->tag;
    e.comm = v->comm;
    g_state->messages.erase(handle_key(m));
  }
}
}  // namespace

SCALEFUZZ_HANDLER(mprobe) {
  (void)nb;
  if (!g_state->recording) return oversubscribed() ? poll_mprobe(c.source, c.tag, c.comm, c.message, c.status) : call();
  return mprobe_common(c, call, true);
}

SCALEFUZZ_HANDLER(improbe) {
  (void)nb;
  if (!g_state->recording) return call();
  return mprobe_common(c, call, false);
}

SCALEFUZZ_HANDLER(mrecv) {
  if (!g_state->recording) return run_blocking(call, nb, c.status);
  // The message's communicator is not an argument: peer, tag and comm come
  // from the probe that matched the message.
  Event e = recv_event(c, nullptr, MPI_ANY_SOURCE, MPI_ANY_TAG);
  e.comm = trace::kCommNull;
  message_peer(*c.message, e);
  MPI_Status local = fresh_status();
  MPI_Status* user = c.status;
  if (user == MPI_STATUS_IGNORE) c.status = &local;
  Active a = begin_call(c, e, 0);
  int rc = run_blocking(call, nb, c.status);
  if (rc == MPI_SUCCESS && c.status->MPI_SOURCE >= 0) noise_on_receive();
  if (a.ev != nullptr) {
    // MPI_SOURCE is a rank of the probe's communicator: use the probe's translation.
    if (c.status->MPI_SOURCE >= 0) {
      a.ev->status_source = e.peer;
      a.ev->status_tag = c.status->MPI_TAG;
      a.ev->status_bytes = received_bytes(*c.status);
    } else {
      store_status(*a.ev, *c.status, nullptr);
    }
  }
  end_call(a, rc, a.ev != nullptr ? a.ev->status_bytes : 0);
  c.status = user;
  return rc;
}

SCALEFUZZ_HANDLER(imrecv) {
  (void)nb;
  if (!g_state->recording) return call();
  Event e = recv_event(c, nullptr, MPI_ANY_SOURCE, MPI_ANY_TAG);
  e.comm = trace::kCommNull;
  message_peer(*c.message, e);
  e.request = next_request_id();
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS) {
    // No communicator to translate the completion status with: RequestDone
    // of an Imrecv carries the probe's source (peer) instead.
    RequestInfo info{e.request, nullptr, e.count, e.bytes, e.buffer, e.peer, e.tag, a.site, OpClass::Irecv};
    register_request(c.req, info, true);
  }
  end_call(a, rc, 0);
  return rc;
}

}  // namespace scalefuzz::inject
