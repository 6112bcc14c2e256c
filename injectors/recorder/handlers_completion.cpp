// Wait/Test family, Request_free and Cancel: one Completion record per call
// and one RequestDone child per completed request.
#include <memory>
#include <type_traits>

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

// Stack storage for small arrays, heap beyond. The stack part is raw storage:
// default-constructing 32 elements on every Waitall cost more than the
// recording itself (T must be trivially destructible; callers fill what they use).
template <class T>
class Scratch {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  explicit Scratch(int n)
      : p_(n <= kSmall ? reinterpret_cast<T*>(small_)
                       : (heap_ = std::make_unique<T[]>(static_cast<std::size_t>(n))).get()) {}
  T* get() { return p_; }

 private:
  static constexpr int kSmall = 32;
  alignas(T) unsigned char small_[sizeof(T) * kSmall];
  std::unique_ptr<T[]> heap_;
  T* p_;
};

void before_completion(MPI_Request* reqs, int n) {
  const NoiseHooks* h = noise_hooks();
  if (h != nullptr && h->before_completion != nullptr) h->before_completion(h->ctx, reqs, n);
}

bool is_receive(OpClass c) { return c == OpClass::Irecv || c == OpClass::RecvInit; }

// The request a Wait/Test/Request_free/Cancel through `slot` acts on.
std::uint64_t request_id(MPI_Request* slot) {
  StateLock lock;
  RequestInfo* info = g_state->requests.pick(handle_key(*slot), reinterpret_cast<std::uintptr_t>(slot));
  return info != nullptr ? info->id : 0;
}

// What the recorder knew about a request before the completion call: with
// MPI_THREAD_MULTIPLE another thread may get the same handle value for a new
// request as soon as MPI frees this one, so the lookup must precede the call.
struct Known {
  RequestInfo info;
  bool found = false;
};

// Looks up the requests in `slots[0..n)` (handles not yet changed by MPI).
// Positions holding one handle shared by several live requests (MPI reused
// it) get distinct requests: each position's pick skips the ids already
// chosen for earlier positions; `ids` is scratch for n ids.
void capture(const MPI_Request* slots, int n, Known* out, std::uint64_t* ids) {
  StateLock lock;
  RequestTable<RequestInfo>& table = g_state->requests;
  for (int i = 0; i < n; ++i) {
    out[i].found = false;  // info is read only when found (zeroing it cost ~30 instructions per request)
    ids[i] = 0;
    MPI_Request h = slots[i];
    if (h == MPI_REQUEST_NULL) continue;
    bool shared = table.shared(handle_key(h));
    if (RequestInfo* p = table.pick(handle_key(h), reinterpret_cast<std::uintptr_t>(&slots[i]), shared ? ids : nullptr, shared ? i : 0)) {
      // A nonblocking collective's receive buffer, compared at this entry.
      if (p->rchecksum != 0) [[unlikely]]
        check_collective_receive(*p, g_state->events.used());
      out[i].info = *p;
      out[i].found = true;
      ids[i] = p->id;
    }
  }
}

// One completed request: RequestDone child, request bookkeeping, received bytes.
void done_request(const Active& a, const Call& c, MPI_Request handle, const Known& known, const MPI_Status& st,
                  int err, std::uint64_t t) {
  if (handle == MPI_REQUEST_NULL) return;
  State& s = *g_state;
  const RequestInfo& info = known.info;
  bool found = known.found;
  if (found && info.persistent && !info.active) return;  // inactive persistent request: completes trivially
  Event e = blank_event();
  e.op = c.op;
  e.op_class = static_cast<std::uint8_t>(OpClass::RequestDone);
  e.error = err;
  if (found) {
    e.request = info.id;
    e.peer = info.peer;
    e.tag = info.tag;
    e.comm = info.comm != nullptr ? info.comm->id : trace::kCommNull;
    e.count = info.count;
    e.bytes = info.bytes;
    e.buffer = info.buffer;
    if (info.persistent) e.flags |= trace::kFlagPersistent;
    e.flags |= info.flags & (trace::kFlagSynchronous | trace::kFlagBuffered | trace::kFlagDelayed);
    if (is_receive(info.cls)) {
      if (info.comm == nullptr && st.MPI_SOURCE >= 0) {  // Imrecv: source known from its probe
        e.status_source = info.peer;
        e.status_tag = st.MPI_TAG;
        e.status_bytes = received_bytes(st);
      } else {
        store_status(e, st, info.comm);
      }
    }
    if (info.contiguous && g_payload_sums && is_receive(info.cls) && !info.cancelled && err == MPI_SUCCESS &&
        e.status_bytes > 0 && e.status_bytes <= info.bytes)
      trace::set_payload_sum(e, payload_sum_of(buffer_checksum(reinterpret_cast<const void*>(info.buffer), e.status_bytes)));
    if (info.checksum != 0 && !info.cancelled && err == MPI_SUCCESS &&
        buffer_checksum(reinterpret_cast<const void*>(info.buffer), info.bytes) != info.checksum)
      note_modified_buffer(info.post_seq, a.seq);
    // Written while pending and overwritten by the completion (not a late
    // write by the network: that would leave the completion's bytes).
    if (info.rwritten && !info.cancelled && err == MPI_SUCCESS &&
        buffer_checksum(reinterpret_cast<const void*>(info.rbuffer), info.rbytes) != info.rentry)
      note_modified_buffer(info.post_seq, a.seq, true);
    if (info.cancelled) {
      int cancelled = 0;
      if (PMPI_Test_cancelled(&st, &cancelled) == MPI_SUCCESS && cancelled) {
        e.flags |= trace::kFlagCancelled;
        e.status_source = trace::kNoPeer;
        e.status_bytes = 0;
      }
    }
  }
  if (found) {
    // Request table and live state in one section (before the record, as
    // the pending list always was).
    StateLock lock;
    if (!info.persistent) {
      s.requests.erase(handle_key(handle), info.id);
    } else if (RequestInfo* p = s.requests.find(handle_key(handle), info.id)) {
      p->active = false;
    }
    if (e.status_bytes > 0) add_received(info.site, e.status_bytes);
    // Rget's buffer and a nonblocking collective's receive buffer are guarded too.
    if (is_receive(info.cls) || info.cls == OpClass::Rma || info.cls == OpClass::Icollective) release_receive_guard(info.id);
    LiveWrite w;
    pending_remove(info.id);
    if (e.status_bytes > 0) s.live->bytes_received += static_cast<std::uint64_t>(e.status_bytes);
  }
  child_record(a, e, true, t);
  if (found && is_receive(info.cls) && info.wild_ordinal != 0)
    decision_match(info.wild_ordinal, e.status_source >= 0 ? e.status_source : trace::kNoMessage,
                   e.status_source >= 0 && info.wild_any_tag ? e.status_tag : trace::kNoDecisionTag);
  if (found && is_receive(info.cls) && e.status_source >= 0) noise_on_receive();
}

Event completion_event(const Call& c, std::uint64_t request) {
  Event e = blank_event();
  e.count = c.req != nullptr ? 1 : c.nreq;
  e.request = request;
  return e;
}

MPI_Status fresh_status() {
  MPI_Status st{};
  st.MPI_SOURCE = MPI_UNDEFINED;
  st.MPI_TAG = MPI_UNDEFINED;
  return st;
}

// Per-request error of a multi-request completion.
int status_error(int rc, const MPI_Status& st) {
  if (rc == MPI_ERR_IN_STATUS) return st.MPI_ERROR;
  return rc;
}
bool request_finished(int rc, const MPI_Status& st) {
  return rc != MPI_ERR_IN_STATUS || st.MPI_ERROR != MPI_ERR_PENDING;
}

// Folding key of a poll over these requests (recorder ids, or the handle of
// requests the recorder did not create).
std::uint64_t poll_key(const MPI_Request* handles, const std::uint64_t* ids, int n) {
  std::uint64_t k = static_cast<std::uint64_t>(n) + 1;
  for (int i = 0; i < n; ++i) {
    std::uint64_t v = ids[i] != 0 ? ids[i] : static_cast<std::uint64_t>(handle_key(handles[i])) | (1ull << 63);
    k = (k ^ v) * 0x100000001B3ull;
  }
  return k;
}

// Starts a Wait* (recorded as is) or a Test* (folded while it keeps failing).
Poll begin_completion(const Call& c, std::uint64_t request, bool test, std::uint64_t key) {
  if (test) return begin_poll(c, completion_event(c, request), key);
  Poll p;
  p.a = begin_call(c, completion_event(c, request), 0);
  return p;
}

void end_completion(Poll& p, bool test, int rc, std::uint64_t t) {
  if (test)
    end_poll(p, rc, t);
  else
    end_call(p.a, rc, 0, t);
}

// The requests of a multi-request completion as they were before the call
// (MPI frees the completed ones and overwrites their handles).
struct CapturedRequests {
  CapturedRequests(const MPI_Request* reqs, int n) : saved(n), known(n), ids(n) {
    for (int i = 0; i < n; ++i) saved.get()[i] = reqs[i];
    capture(reqs, n, known.get(), ids.get());
  }
  Scratch<MPI_Request> saved;
  Scratch<Known> known;
  Scratch<std::uint64_t> ids;
};

// The recorder reads the statuses: a caller's MPI_STATUS(ES)_IGNORE is
// replaced by local storage for the call (given back at scope exit), and
// every status starts fresh.
class StatusesSlot {
 public:
  StatusesSlot(MPI_Status*& statuses, int n, const MPI_Status* ignore)
      : slot_(statuses), user_(statuses), local_(n) {
    if (user_ == ignore) slot_ = local_.get();
    // A null status is an argument error MPI reports (the call completes
    // nothing): MPI must see it, and the bodies read no status then.
    if (slot_ != nullptr)
      for (int i = 0; i < n; ++i) slot_[i] = fresh_status();
  }
  StatusesSlot(const StatusesSlot&) = delete;
  StatusesSlot& operator=(const StatusesSlot&) = delete;
  ~StatusesSlot() { slot_ = user_; }

 private:
  MPI_Status*& slot_;
  MPI_Status* user_;
  Scratch<MPI_Status> local_;
};

// Wait/Test/Waitany/Testany: c.status.
struct StatusSlot : StatusesSlot {
  explicit StatusSlot(Call& c) : StatusesSlot(c.status, 1, MPI_STATUS_IGNORE) {}
};

// Waitall/Testall/Waitsome/Testsome: c.statuses, one per request.
struct StatusArraySlot : StatusesSlot {
  explicit StatusArraySlot(Call& c) : StatusesSlot(c.statuses, c.nreq, MPI_STATUSES_IGNORE) {}
};

// Each body below serves a Wait* (`test` false) and its Test* twin. `mpi`
// makes the call: a Wait* through the oversubscription poll when that is on
// (oversub.hpp), a Test* as it is.

// Blocking completion of one request in a replay (a Test the log says
// succeeded, the recorded index of a Waitany/Testany/Waitsome/Testsome).
int wait_one(MPI_Request* r, MPI_Status* st) { return oversubscribed() ? poll_request(r, st) : PMPI_Wait(r, st); }

void log_poll(bool done) {
  if (done)
    decision_poll();
  else
    decision_poll_failed();
}

// Shared body of Wait/Test.
int one_common(Call& c, Invoke call, bool test) {
  auto mpi = [&] { return !test && oversubscribed() ? poll_request(c.req, c.status) : call(); };
  if (c.req == nullptr) return call();  // MPI reports the null argument; nothing to record or delay
  before_completion(c.req, 1);
  if (!g_state->recording) return mpi();
  MPI_Request handle = *c.req;
  Known known;
  std::uint64_t id = 0;
  capture(c.req, 1, &known, &id);
  StatusSlot status(c);
  Poll p = begin_completion(c, known.info.id, test, test ? poll_key(&handle, &id, 1) : 0);
  int rc = 0;
  const PollPlan plan = test && g_replaying && c.flag != nullptr ? replay_poll(false).plan : PollPlan::Free;
  if (plan == PollPlan::Free) {
    rc = mpi();
  } else if (plan == PollPlan::Fail) {
    *c.flag = 0;  // "not yet": nothing completed, MPI not asked
  } else {
    rc = wait_one(c.req, c.status);
    *c.flag = 1;
  }
  std::uint64_t t = now_ns();
  bool done = (test ? c.flag != nullptr && *c.flag != 0 : true) && c.status != nullptr;
  if (test) log_poll(done);
  if (test) poll_result(p, !done, rc, t);
  if (done) done_request(p.a, c, handle, known, *c.status, rc, t);
  end_completion(p, test, rc, t);
  return rc;
}

// Shared body of the multi-request completions: `Slot` (StatusSlot or
// StatusArraySlot) holds the statuses the recorder reads, `record(p, r, rc, t)`
// records what the call completed.
template <class Slot, class Mpi, class Record>
int multi_completion(Call& c, bool test, Mpi mpi, Record record) {
  if (c.reqs == nullptr && c.nreq > 0) return mpi();  // MPI reports the null argument
  before_completion(c.reqs, c.nreq);
  if (!g_state->recording) return mpi();
  CapturedRequests r(c.reqs, c.nreq);
  Slot slot(c);
  Poll p = begin_completion(c, 0, test, test ? poll_key(r.saved.get(), r.ids.get(), c.nreq) : 0);
  int rc = mpi();
  std::uint64_t t = now_ns();
  record(p, r, rc, t);
  end_completion(p, test, rc, t);
  return rc;
}

// MPICH 4.0.2 asserts in MPI_Waitall ("request_ptrs[i]->kind !=
// MPIR_REQUEST_KIND__GREQUEST", request_impl.c:941) when MPI_REQUEST_NULL
// sits in the array beside a pending generalized request, which is what the
// noise's deferred sends hand the application (Waitany/Waitsome/Test* are
// unaffected). With noise on, a Waitall with null entries waits on the
// others only and gives the null ones the empty status.
int waitall_without_nulls(Call& c, Invoke call) {
  if (noise_hooks() == nullptr || c.reqs == nullptr) return call();
  int live = 0;
  for (int i = 0; i < c.nreq; ++i) live += c.reqs[i] != MPI_REQUEST_NULL;
  if (live == c.nreq) return call();
  Scratch<MPI_Request> reqs(live);
  Scratch<MPI_Status> statuses(live);
  for (int i = 0, k = 0; i < c.nreq; ++i)
    if (c.reqs[i] != MPI_REQUEST_NULL) reqs.get()[k++] = c.reqs[i];
  const int rc = PMPI_Waitall(live, reqs.get(), statuses.get());
  const bool keep = c.statuses != MPI_STATUSES_IGNORE;  // the recorder's own array unless not recording
  for (int i = 0, k = 0; i < c.nreq; ++i) {
    if (c.reqs[i] != MPI_REQUEST_NULL) {
      c.reqs[i] = reqs.get()[k];
      if (keep) c.statuses[i] = statuses.get()[k];
      ++k;
      continue;
    }
    if (!keep) continue;
    MPI_Status& s = c.statuses[i];
    s.MPI_SOURCE = MPI_ANY_SOURCE;  // the empty status (MPI-4.0 3.7.3)
    s.MPI_TAG = MPI_ANY_TAG;
    s.MPI_ERROR = MPI_SUCCESS;
    PMPI_Status_set_elements(&s, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(&s, 0);
  }
  return rc;
}

// Shared body of Waitall/Testall.
int all_common(Call& c, Invoke call, bool test) {
  auto mpi = [&] {
    if (test) {
      const PollPlan plan = g_replaying && c.flag != nullptr ? replay_poll(false).plan : PollPlan::Free;
      if (plan == PollPlan::Fail) {
        *c.flag = 0;
        return MPI_SUCCESS;
      }
      if (plan == PollPlan::Succeed) {
        *c.flag = 1;
        return oversubscribed() ? poll_all(c.nreq, c.reqs, c.statuses) : PMPI_Waitall(c.nreq, c.reqs, c.statuses);
      }
      return call();
    }
    return oversubscribed() ? poll_all(c.nreq, c.reqs, c.statuses) : waitall_without_nulls(c, call);
  };
  return multi_completion<StatusArraySlot>(c, test, mpi, [&](Poll& p, CapturedRequests& r, int rc, std::uint64_t t) {
    bool done = (test ? (rc != MPI_SUCCESS || (c.flag != nullptr && *c.flag)) : true) && c.statuses != nullptr;
    if (test) log_poll(done);
    if (test) poll_result(p, !done, rc, t);
    if (!done) return;
    for (int i = 0; i < c.nreq; ++i)
      if (request_finished(rc, c.statuses[i])) done_request(p.a, c, r.saved.get()[i], r.known.get()[i], c.statuses[i], status_error(rc, c.statuses[i]), t);
  });
}

// Waitany/Testany when replaying: "not yet" (Testany the log says failed),
// the recorded index waited for, or Free (no forcing: MPI decides).
PollPlan replay_any(Call& c, bool test, int& rc) {
  const PollForce f = replay_poll(!test);
  if (f.plan == PollPlan::Fail) {
    *c.flag = 0;
    *c.index = MPI_UNDEFINED;
    return f.plan;
  }
  if (f.plan == PollPlan::Free || f.index < 0 || f.index >= c.nreq) return PollPlan::Free;
  rc = wait_one(&c.reqs[f.index], c.status);
  *c.index = f.index;
  if (test) *c.flag = 1;
  return f.plan;
}

// Waitsome/Testsome when replaying: the recorded indices, each waited for.
PollPlan replay_some(Call& c, bool test, int& rc) {
  const PollForce f = replay_poll(!test);
  if (f.plan == PollPlan::Fail) {
    *c.outcount = 0;
    return f.plan;
  }
  if (f.plan == PollPlan::Free || f.nindices == 0) return PollPlan::Free;
  for (int k = 0; k < f.nindices; ++k)
    if (f.indices[k] < 0 || f.indices[k] >= c.nreq) return PollPlan::Free;
  for (int k = 0; k < f.nindices; ++k) {
    const int i = f.indices[k];
    const int e = wait_one(&c.reqs[i], &c.statuses[k]);
    c.indices[k] = i;
    if (e != MPI_SUCCESS) {
      c.statuses[k].MPI_ERROR = e;
      rc = MPI_ERR_IN_STATUS;
    }
  }
  *c.outcount = f.nindices;
  return f.plan;
}

// Shared body of Waitany/Testany.
int any_common(Call& c, Invoke call, bool test) {
  auto real = [&] { return !test && oversubscribed() ? poll_any(c.nreq, c.reqs, c.index, c.status) : call(); };
  auto mpi = [&] {
    int forced_rc = MPI_SUCCESS;
    const bool args = c.index != nullptr && (!test || c.flag != nullptr);
    const PollPlan plan = g_replaying && args ? replay_any(c, test, forced_rc) : PollPlan::Free;
    return plan == PollPlan::Free ? real() : forced_rc;
  };
  return multi_completion<StatusSlot>(c, test, mpi, [&](Poll& p, CapturedRequests& r, int rc, std::uint64_t t) {
    bool done = (test ? c.flag != nullptr && *c.flag != 0 : true) && c.status != nullptr && c.index != nullptr;
    if (test && !done) decision_poll_failed();
    if (done) decision_index(*c.index);
    if (test) poll_result(p, !done, rc, t);
    if (done && *c.index != MPI_UNDEFINED && *c.index >= 0 && *c.index < c.nreq)
      done_request(p.a, c, r.saved.get()[*c.index], r.known.get()[*c.index], *c.status, rc, t);
  });
}

// Shared body of Waitsome/Testsome.
int some_common(Call& c, Invoke call, bool test) {
  auto real = [&] {
    return !test && oversubscribed() ? poll_some(c.nreq, c.reqs, c.outcount, c.indices, c.statuses) : call();
  };
  auto mpi = [&] {
    const bool args = c.outcount != nullptr && c.indices != nullptr && c.statuses != nullptr;
    int forced_rc = MPI_SUCCESS;
    const PollPlan plan = g_replaying && args ? replay_some(c, test, forced_rc) : PollPlan::Free;
    return plan == PollPlan::Free ? real() : forced_rc;
  };
  return multi_completion<StatusArraySlot>(c, test, mpi, [&](Poll& p, CapturedRequests& r, int rc, std::uint64_t t) {
    int out = c.outcount != nullptr && c.indices != nullptr && c.statuses != nullptr ? *c.outcount : 0;
    if (test && out == 0) decision_poll_failed();
    if (out > 0 || (!test && out == MPI_UNDEFINED)) decision_some(c.indices, out);
    if (test) poll_result(p, out == 0, rc, t);
    if (out == MPI_UNDEFINED || out <= 0) return;
    for (int k = 0; k < out; ++k) {
      int i = c.indices[k];
      if (i >= 0 && i < c.nreq) done_request(p.a, c, r.saved.get()[i], r.known.get()[i], c.statuses[k], status_error(rc, c.statuses[k]), t);
    }
  });
}

// Shared body of Request_free/Cancel: one Completion record;
// `on_success(handle, id)` updates the request table.
template <class OnSuccess>
int release_common(Call& c, Invoke call, OnSuccess on_success) {
  before_completion(c.req, 1);
  if (!g_state->recording) return call();
  MPI_Request handle = *c.req;
  std::uint64_t id = request_id(c.req);
  Active a = begin_call(c, completion_event(c, id), 0);
  int rc = call();
  std::uint64_t t = now_ns();
  if (rc == MPI_SUCCESS) on_success(handle, id);
  end_call(a, rc, 0, t);
  return rc;
}
}  // namespace

SCALEFUZZ_HANDLER(wait) { (void)nb; return one_common(c, call, false); }
SCALEFUZZ_HANDLER(test) { (void)nb; return one_common(c, call, true); }
SCALEFUZZ_HANDLER(waitall) { (void)nb; return all_common(c, call, false); }
SCALEFUZZ_HANDLER(testall) { (void)nb; return all_common(c, call, true); }
SCALEFUZZ_HANDLER(waitany) { (void)nb; return any_common(c, call, false); }
SCALEFUZZ_HANDLER(testany) { (void)nb; return any_common(c, call, true); }
SCALEFUZZ_HANDLER(waitsome) { (void)nb; return some_common(c, call, false); }
SCALEFUZZ_HANDLER(testsome) { (void)nb; return some_common(c, call, true); }

SCALEFUZZ_HANDLER(request_free) {
  (void)nb;
  return release_common(c, call, [](MPI_Request handle, std::uint64_t id) {
    StateLock lock;
    g_state->requests.erase(handle_key(handle), id);  // completes unobserved
    release_receive_guard(id);
    LiveWrite w;
    pending_remove(id);
  });
}

SCALEFUZZ_HANDLER(cancel) {
  (void)nb;
  return release_common(c, call, [](MPI_Request handle, std::uint64_t id) {
    StateLock lock;
    if (RequestInfo* info = g_state->requests.find(handle_key(handle), id)) info->cancelled = true;
  });
}

}  // namespace scalefuzz::inject
