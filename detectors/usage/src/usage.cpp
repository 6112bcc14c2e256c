// The usage checks (see usage.hpp). Sections cite MPI-4.0 (June 2021).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "comms.hpp"
#include "requests.hpp"
#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::detectors::usage {

namespace {

using trace::Event;
using trace::OpClass;
namespace ops = trace::ops;

OpClass cls(const Event& e) { return static_cast<OpClass>(e.op_class); }
std::string op(const Event& e) { return trace::op_name(e.op); }
std::string rank_text(int r) { return "rank " + std::to_string(r); }
bool finished(const trace::RankTrace& rt) {
  for (auto it = rt.events.rbegin(); it != rt.events.rend(); ++it)
    if (cls(*it) == OpClass::Finalize) return true;
  return false;
}
std::size_t finalize_index(const trace::RankTrace& rt) {
  for (std::size_t i = rt.events.size(); i-- > 0;)
    if (cls(rt.events[i]) == OpClass::Finalize) return i;
  return rt.events.empty() ? 0 : rt.events.size() - 1;
}

// ---- collectives: what each op's arguments mean -----------------------------
enum class Shape { Barrier, Bcast, Reduce, Allreduce, Gather, Scatter, Allgather, Alltoall, ReduceScatterBlock, Scan, Other };
Shape shape(std::uint16_t o) {
  switch (o) {
    case ops::Barrier: case ops::Ibarrier: return Shape::Barrier;
    case ops::Bcast: case ops::Ibcast: return Shape::Bcast;
    case ops::Reduce: case ops::Ireduce: return Shape::Reduce;
    case ops::Allreduce: case ops::Iallreduce: return Shape::Allreduce;
    case ops::Scan: case ops::Iscan: case ops::Exscan: case ops::Iexscan: return Shape::Scan;
    case ops::Gather: case ops::Igather: return Shape::Gather;
    case ops::Scatter: case ops::Iscatter: return Shape::Scatter;
    case ops::Allgather: case ops::Iallgather: return Shape::Allgather;
    case ops::Alltoall: case ops::Ialltoall: return Shape::Alltoall;
    case ops::Reduce_scatter_block: case ops::Ireduce_scatter_block: return Shape::ReduceScatterBlock;
    default: return Shape::Other;
  }
}
bool rooted(Shape s) { return s == Shape::Bcast || s == Shape::Reduce || s == Shape::Gather || s == Shape::Scatter; }
bool reduction(Shape s) {
  return s == Shape::Reduce || s == Shape::Allreduce || s == Shape::Scan || s == Shape::ReduceScatterBlock;
}
bool is_collective(const Event& e) {
  return (cls(e) == OpClass::Collective || cls(e) == OpClass::Icollective) && !(e.flags & trace::kFlagChild);
}
const char* reduce_op_name(std::uint8_t code) {
  static const char* const names[] = {"none", "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND",
                                      "MPI_LOR", "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC",
                                      "MPI_REPLACE", "MPI_NO_OP"};
  if (code < sizeof names / sizeof names[0]) return names[code];
  if (code == static_cast<std::uint8_t>(trace::ReduceOp::User)) return "a user-defined op";
  return "MPI_OP_NULL/invalid";
}

struct CollRef {
  int rank;
  std::size_t index;
};

}  // namespace

// ---- recorded MPI errors --------------------------------------------------
void check_recorded_errors(const trace::RunTrace& run, std::vector<Issue>& out) {
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    for (const auto& err : rt.errors) {
      Issue is;
      is.kind = "mpi-error";
      is.section = "MPI-4.0 §9.4 (error handling), §9.5 (error classes)";
      is.rule = "MPI reported an error for this call's arguments or state";
      std::size_t idx = rt.events.size();
      for (std::size_t i = 0; i < rt.events.size(); ++i)
        if (rt.events[i].seq == err.seq) idx = i;
      // MPICH: "<class text>, error stack: | frame: ... | frame: <detail>"
      std::string text = err.message;
      if (auto stack = text.find(", error stack:"); stack != std::string::npos) {
        std::string head = text.substr(0, stack), tail = text.substr(text.rfind(" | ") == std::string::npos ? stack : text.rfind(" | ") + 3);
        if (auto colon = tail.find(": "); colon != std::string::npos) tail = tail.substr(colon + 2);
        text = tail.find(head) == 0 || head.empty() ? tail : head + " (" + tail + ")";
      }
      is.message = "MPI error class " + std::to_string(err.error_class) + ": " + text;
      if (idx < rt.events.size()) {
        is.message = op(rt.events[idx]) + " failed: " + text;
        is.sides.push_back({rt.rank, idx, "failing call"});
      }
      out.push_back(std::move(is));
    }
    // An error returned to the application (its own error handler) is in the record.
    if (rt.errors.empty())
      for (std::size_t i = 0; i < rt.events.size(); ++i)
        if (rt.events[i].error != 0 && !(rt.events[i].flags & trace::kFlagChild)) {
          Issue is;
          is.kind = "mpi-error";
          is.section = "MPI-4.0 §9.4 (error handling)";
          is.rule = "MPI returned an error code for this call";
          is.message = op(rt.events[i]) + " returned MPI error code " + std::to_string(rt.events[i].error);
          is.sides.push_back({rt.rank, i, "failing call"});
          out.push_back(std::move(is));
          break;
        }
  }
}

// A message truncated at its receive (MPI_ERR_TRUNCATE; from MPI_Waitall
// MPICH reports MPI_ERR_IN_STATUS, so any recorded error at the receive or
// at the completion of a pending receive is examined) whose send's count is
// the wrong one: the send is longer than the receive, and its buffer runs
// into the buffer of another send the sender posted while this one was
// pending (slots carved from one block) by no less than the receive's
// count leaves. Reported at the send as buffer-overflow (§3.2.4 calls a
// message longer than the receive buffer an overflow); the mpi-error stays
// at the receive. Without that evidence either count may be the wrong one,
// and only the mpi-error is reported.
namespace {
void check_truncation_cause(const trace::RunTrace& run, std::vector<Issue>& out) {
  std::set<std::pair<int, std::uint32_t>> reported;  // (sender rank, send call site)
  const int n = static_cast<int>(run.ranks.size());
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    for (const auto& err : rt.errors) {
      std::size_t idx = rt.events.size();
      for (std::size_t i = 0; i < rt.events.size(); ++i)
        if (rt.events[i].seq == err.seq) idx = i;
      if (idx == rt.events.size()) continue;
      // The receives that may have failed: the call itself, or the
      // nonblocking receives still pending at it.
      std::vector<std::size_t> receives;
      if (cls(rt.events[idx]) == OpClass::Recv) receives.push_back(idx);
      std::set<std::uint64_t> done;
      for (std::size_t k = idx; k-- > 0;) {
        const Event& e = rt.events[k];
        if (cls(e) == OpClass::RequestDone && !(e.flags & trace::kFlagTestFailed)) done.insert(e.request);
        if (cls(e) == OpClass::Irecv && e.request != 0 && done.count(e.request) == 0) receives.push_back(k);
        if (receives.size() > 64) break;
      }
      for (std::size_t ri : receives) {
        const Event& r = rt.events[ri];
        if (r.peer < 0 || r.peer >= n || r.bytes <= 0) continue;
        const auto& st = run.ranks[static_cast<std::size_t>(r.peer)];
        if (st.rank < 0) continue;
        bool found = false;
        for (std::size_t a = 0; a < st.events.size() && !found; ++a) {
          const Event& s = st.events[a];
          if (cls(s) != OpClass::Isend || s.peer != rt.rank || s.comm != r.comm || s.bytes <= r.bytes ||
              s.request == 0 || s.buffer == 0 || (r.tag != trace::kAnyTag && s.tag != r.tag))
            continue;
          const std::uint64_t lo = s.buffer, hi = s.buffer + static_cast<std::uint64_t>(s.bytes);
          for (std::size_t b = a + 1; b < st.events.size(); ++b) {
            const Event& q = st.events[b];
            if (cls(q) == OpClass::RequestDone && q.request == s.request && !(q.flags & trace::kFlagTestFailed)) break;
            if (cls(q) != OpClass::Isend || q.buffer <= lo || q.buffer >= hi) continue;
            const std::uint64_t room = q.buffer - lo;
            if (static_cast<std::uint64_t>(r.bytes) > room) continue;
            found = true;
            if (!reported.insert({st.rank, s.callsite}).second) break;
            Issue is;
            is.kind = "buffer-overflow";
            is.section = "MPI-4.0 §3.2.2 (the send buffer is count consecutive elements), §3.2.4 (a message longer "
                         "than the receive buffer is an overflow)";
            is.rule = "count elements of the datatype from the send buffer must lie inside the memory meant for "
                      "this message";
            is.message = op(s) + " on " + rank_text(st.rank) + " to " + rank_text(rt.rank) + " sends " +
                         std::to_string(s.bytes) + " bytes (" + std::to_string(s.scount_arg) + " elements), " +
                         std::to_string(hi - q.buffer) + " bytes into the buffer of the " + op(q) +
                         " it posted while this one was pending; " + op(r) + " on " + rank_text(rt.rank) +
                         " receives " + std::to_string(r.bytes) + " bytes and failed (message truncated)";
            is.sides = {{st.rank, a, "send count"},
                        {rt.rank, ri, "receive"},
                        {rt.rank, idx, "truncation reported"},
                        {st.rank, b, "send whose buffer it reaches"}};
            out.push_back(std::move(is));
            break;
          }
        }
      }
    }
  }
}

}  // namespace

// ---- at finalize ------------------------------------------------------------
namespace {
bool called_abort(const trace::RankTrace& rt) {
  for (auto it = rt.events.rbegin(); it != rt.events.rend(); ++it)
    if (cls(*it) == OpClass::Abort) return true;
  return false;
}

// One issue per (rank, creating call site, kind) of the handles never freed:
// MPI-4.1 §11.2.2 says MPI_FINALIZE does not free them and not freeing them
// is not erroneous, so a handle made once and kept to the end is info; a
// site that made several and freed none of them leaks more the longer the
// program runs (warning).
void leak_issues(const trace::RankTrace& rt, const std::vector<std::size_t>& creations, const std::string& what,
                 const std::string& section, std::vector<Issue>& out) {
  std::map<std::uint32_t, std::vector<std::size_t>> by_site;
  for (std::size_t i : creations) by_site[rt.events[i].callsite].push_back(i);
  for (auto& [site, at] : by_site) {
    std::sort(at.begin(), at.end());
    Issue is;
    is.kind = "leaked-handle";
    is.section = section + ", MPI-4.1 §11.2.2 (MPI_FINALIZE does not free objects)";
    const std::string call = op(rt.events[at.front()]);
    if (at.size() == 1) {
      is.severity = Severity::Info;
      is.rule = "a " + what + " created once and kept until MPI_Finalize is allowed (not freeing it is not erroneous)";
      is.message = what + " created by " + call + " never freed on " + rank_text(rt.rank) + " (created once)";
    } else {
      is.severity = Severity::Warning;
      is.rule = what + "s created again and again at one call site and never freed grow with the run";
      is.message = std::to_string(at.size()) + " " + what + "s created by " + call + " at one call site never freed on " +
                   rank_text(rt.rank) + " (a growing leak)";
    }
    is.sides.push_back({rt.rank, at.front(), "created here (first)"});
    if (at.size() > 1) is.sides.push_back({rt.rank, at.back(), "created here (last)"});
    out.push_back(std::move(is));
  }
}
}  // namespace

void check_finalize(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out) {
  // After an MPI_Abort the launcher ends the other ranks wherever they are:
  // their deaths (inside an MPI call, without MPI_Finalize) are consequences,
  // and the aborting rank is exempt from finalizing (MPI-4.1 §11.2.2, §9.3 MPI_ABORT).
  int aborting_rank = -1;
  for (const auto& rt : run.ranks)
    if (rt.rank >= 0 && called_abort(rt)) {
      aborting_rank = rt.rank;
      break;
    }
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0 || rt.events.empty()) continue;
    if (aborting_rank >= 0 && !finished(rt)) continue;
    // Hydra kills the other ranks when one exits without MPI_Finalize, so
    // the rank's own exit note decides, not the run's outcome.
    if (rt.exited_without_finalize && rt.last_event_in_progress) {
      // The process ended inside an MPI call: MPI terminated it (MPICH's
      // internal assertions on arguments it does not check, e.g. a negative
      // count) without reporting an MPI error; a reported one is mpi-error.
      const std::size_t at = rt.events.size() - 1;
      const Event& e = rt.events[at];
      const bool reported = std::any_of(rt.errors.begin(), rt.errors.end(),
                                        [](const trace::RecordedError& err) { return err.seq != 0; });
      if (!reported && (e.flags & trace::kFlagChild) == 0 && cls(e) != OpClass::Abort &&
          cls(e) != OpClass::Finalize && cls(e) != OpClass::Init) {
        Issue is;
        is.kind = "invalid-argument";
        is.section = "MPI-4.0 §9.3 (MPI need not detect erroneous arguments)";
        is.rule = "MPI calls must be given valid arguments; an implementation need not detect invalid ones";
        is.message = rank_text(rt.rank) + " was terminated inside " + op(e) +
                     " without an MPI error (the MPI library stopped on an argument it does not check)";
        is.sides.push_back({rt.rank, at, "terminated inside this call"});
        out.push_back(std::move(is));
        continue;
      }
    }
    if (rt.exited_without_finalize || (options.run_completed && !finished(rt) && !rt.fatal_signal)) {
      Issue is;
      is.kind = "missing-finalize";
      is.section = "MPI-4.0 §11.2.2 (MPI_FINALIZE)";
      is.rule = "every MPI process must call MPI_Finalize before it exits";
      is.message = rank_text(rt.rank) + " exited without calling MPI_Finalize";
      is.sides.push_back({rt.rank, 0, "MPI_Init"});
      out.push_back(std::move(is));
      continue;
    }
    if (!options.run_completed) continue;
    const std::size_t fin = finalize_index(rt);
    const auto requests = open_requests(rt, fin);
    // handle kind/value -> creating record
    std::map<std::pair<int, std::uint64_t>, std::size_t> handles;
    std::map<std::uint32_t, std::size_t> comms;
    for (std::size_t i = 0; i < fin; ++i) {
      const Event& e = rt.events[i];
      switch (cls(e)) {
        case OpClass::CommMgmt:
          if (e.op == ops::Comm_free) comms.erase(e.comm);
          else if (e.comm != trace::kCommNull && e.error == 0) comms[e.comm] = i;
          break;
        case OpClass::HandleNew:
          if (e.error == 0) handles[{e.tag, e.buffer}] = i;
          break;
        case OpClass::HandleFree:
          handles.erase({e.tag, e.buffer});
          break;
        default:
          break;
      }
    }
    for (const auto& [id, r] : requests) {
      const Event& e = rt.events[r.post];
      Issue is;
      is.sides.push_back({rt.rank, r.post, "request created here"});
      if (r.active) {
        is.kind = "pending-request";
        is.section = "MPI-4.0 §3.7.3 (communication completion), §11.2.2 (MPI_FINALIZE)";
        is.rule = "a nonblocking or started request must be completed (MPI_Wait/MPI_Test) or freed before MPI_Finalize";
        is.message = op(e) + " request never completed before MPI_Finalize on " + rank_text(rt.rank);
      } else {
        is.kind = "leaked-request";
        is.severity = Severity::Warning;
        is.section = "MPI-4.0 §3.9 (persistent communication requests)";
        is.rule = "a persistent request must be freed with MPI_Request_free";
        is.message = op(e) + " persistent request never freed on " + rank_text(rt.rank);
      }
      out.push_back(std::move(is));
    }
    std::vector<std::size_t> created[4];  // by HandleKind (1 group, 2 datatype, 3 op; 0 unknown)
    for (const auto& [key, i] : handles) created[key.first >= 1 && key.first <= 3 ? key.first : 0].push_back(i);
    leak_issues(rt, created[1], "group", "MPI-4.0 §7.3.3 (MPI_GROUP_FREE)", out);
    leak_issues(rt, created[2], "datatype", "MPI-4.0 §5.1.10 (MPI_TYPE_FREE)", out);
    leak_issues(rt, created[3], "op", "MPI-4.0 §6.9.5 (MPI_OP_FREE)", out);
    leak_issues(rt, created[0], "handle", "MPI-4.0 §11.2.2", out);
    std::vector<std::size_t> comm_created;
    for (const auto& [id, i] : comms) comm_created.push_back(i);
    leak_issues(rt, comm_created, "communicator", "MPI-4.0 §7.4.3 (MPI_COMM_FREE)", out);
  }
}

// ---- across ranks: collectives ------------------------------------------------
namespace {

void sig_issue(const trace::RunTrace& run, const std::string& what, CollRef a, std::uint32_t akey, std::int64_t acount,
               CollRef b, std::uint32_t bkey, std::int64_t bcount, std::vector<Issue>& out) {
  const auto& ra = run.ranks[static_cast<std::size_t>(a.rank)];
  const auto& rb = run.ranks[static_cast<std::size_t>(b.rank)];
  Signature sa = signature(ra, akey, acount), sb = signature(rb, bkey, bcount);
  if (signature_fits(sa, sb, true)) return;
  Issue is;
  is.kind = "collective-type-mismatch";
  is.section = "MPI-4.0 §6.1 (type signatures of collectives must match), §3.3.1";
  is.rule = "the type signature (count x datatype, flattened) " + what + " must be equal on every process";
  const Event& e = ra.events[a.index];
  is.message = op(e) + ": " + rank_text(a.rank) + " passes " + describe_type(ra, akey, acount) + ", " +
               rank_text(b.rank) + " " + describe_type(rb, bkey, bcount);
  is.sides = {{a.rank, a.index, "this rank"}, {b.rank, b.index, "other rank"}};
  out.push_back(std::move(is));
}

// On an intercommunicator the two groups pass different roots (MPI_ROOT,
// MPI_PROC_NULL, the remote root) and counts that pair with the remote
// group's (MPI-4.0 §6.2.2), so only the op is compared there.
void compare_instance(const trace::RunTrace& run, const std::vector<CollRef>& inst, bool inter, std::vector<Issue>& out) {
  auto ev = [&](const CollRef& r) -> const Event& { return run.ranks[static_cast<std::size_t>(r.rank)].events[r.index]; };
  const Event& first = ev(inst[0]);
  const Shape sh = shape(first.op);
  // Root agreement.
  if (rooted(sh) && !inter) {
    for (std::size_t k = 1; k < inst.size(); ++k)
      if (ev(inst[k]).root != first.root) {
        Issue is;
        is.kind = "collective-root-mismatch";
        is.section = "MPI-4.0 §6.1, §6.4 (root must be the same on all processes)";
        is.rule = "the root argument of a rooted collective must have the same value on every process";
        is.message = op(first) + ": root " + std::to_string(first.root) + " on " + rank_text(inst[0].rank) + ", root " +
                     std::to_string(ev(inst[k]).root) + " on " + rank_text(inst[k].rank);
        is.sides = {{inst[k].rank, inst[k].index, "this rank"}, {inst[0].rank, inst[0].index, "other rank"}};
        out.push_back(std::move(is));
        return;  // the other arguments are judged against a different root
      }
  }
  // Op agreement.
  if (reduction(sh)) {
    for (std::size_t k = 1; k < inst.size(); ++k) {
      std::uint8_t a = first.reduce_op, b = ev(inst[k]).reduce_op;
      const auto user = static_cast<std::uint8_t>(trace::ReduceOp::User);
      if (a != b && !(a == user && b == user)) {
        Issue is;
        is.kind = "collective-op-mismatch";
        is.section = "MPI-4.0 §6.9.1 (the same op on all processes)";
        is.rule = "a reduction must be called with the same op on every process";
        is.message = op(first) + ": " + reduce_op_name(b) + " on " + rank_text(inst[k].rank) + ", " + reduce_op_name(a) +
                     " on " + rank_text(inst[0].rank);
        is.sides = {{inst[k].rank, inst[k].index, "this rank"}, {inst[0].rank, inst[0].index, "other rank"}};
        out.push_back(std::move(is));
        break;
      }
    }
  }
  if (inter) return;
  // Type signatures.
  const CollRef* root = nullptr;
  for (const auto& r : inst)
    if (rooted(sh) && ev(r).root == r.rank) root = &r;
  const std::size_t before = out.size();
  switch (sh) {
    case Shape::Bcast: case Shape::Reduce: case Shape::Allreduce: case Shape::Scan: case Shape::ReduceScatterBlock: {
      // One (count, datatype) pair per process (Reduce_scatter_block: recvcount).
      const CollRef& ref = root != nullptr ? *root : inst[0];
      auto count = [&](const Event& e) { return sh == Shape::ReduceScatterBlock ? e.rcount_arg : e.scount_arg; };
      for (const auto& r : inst) {
        if (r.rank == ref.rank) continue;
        sig_issue(run, "of " + op(first) + "'s buffer", r, ev(r).dtype, count(ev(r)), ref, ev(ref).dtype, count(ev(ref)), out);
        if (out.size() > before) break;
      }
      break;
    }
    case Shape::Gather:
      if (root != nullptr && ev(*root).rdtype != trace::kTypeNone)
        for (const auto& r : inst) {
          if (r.rank == root->rank && (ev(r).flags & trace::kFlagInPlace)) continue;
          sig_issue(run, "sent by each process and expected per process at the root", r, ev(r).dtype, ev(r).scount_arg,
                    *root, ev(*root).rdtype, ev(*root).rcount_arg, out);
          if (out.size() > before) break;
        }
      break;
    case Shape::Scatter:
      if (root != nullptr)
        for (const auto& r : inst) {
          if (r.rank == root->rank && ev(r).rbuffer == 0) continue;
          sig_issue(run, "received by each process and sent per process by the root", r, ev(r).rdtype, ev(r).rcount_arg,
                    *root, ev(*root).dtype, ev(*root).scount_arg, out);
          if (out.size() > before) break;
        }
      break;
    case Shape::Allgather: case Shape::Alltoall:
      for (const auto& r : inst) {
        if (ev(r).flags & trace::kFlagInPlace) continue;
        for (const auto& q : inst) {
          sig_issue(run, "sent by one process and expected from it by another", r, ev(r).dtype, ev(r).scount_arg, q,
                    ev(q).rdtype, ev(q).rcount_arg, out);
          if (out.size() > before) break;
        }
        if (out.size() > before) break;
      }
      break;
    default:
      break;
  }
}

}  // namespace

Comms comms_of(const trace::RunTrace& run) {
  Comms out;
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    out.members[trace::kCommWorld].insert(rt.rank);
    for (const Event& e : rt.events)
      if (cls(e) == OpClass::CommMgmt && e.op != ops::Comm_free && e.comm != trace::kCommNull) {
        out.members[e.comm].insert(rt.rank);
        if (e.op == ops::Intercomm_create ||
            (e.op != ops::Intercomm_merge && out.inter.count(static_cast<std::uint32_t>(e.root)) != 0))
          out.inter.insert(e.comm);
      }
  }
  return out;
}

void check_collectives(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out) {
  // comm -> rank -> collective records in call order
  std::map<std::uint32_t, std::map<int, std::vector<std::size_t>>> seqs;
  Comms comms = comms_of(run);
  auto& members = comms.members;
  const auto& inter = comms.inter;
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    for (std::size_t i = 0; i < rt.events.size(); ++i)
      // Failed calls count too: MPICH may reject the mismatched collective itself.
      if (is_collective(rt.events[i])) seqs[rt.events[i].comm][rt.rank].push_back(i);
  }
  for (auto& [comm, per_rank] : seqs) {
    for (int m : members[comm]) per_rank[m];  // members without collectives on it: empty sequences
    std::size_t longest = 0;
    for (const auto& [r, v] : per_rank) longest = std::max(longest, v.size());
    bool stop = false;
    for (std::size_t k = 0; k < longest && !stop; ++k) {
      std::vector<CollRef> inst;
      std::vector<int> short_ranks;
      for (const auto& [r, v] : per_rank) {
        if (k < v.size()) inst.push_back({r, v[k]});
        else short_ranks.push_back(r);
      }
      const auto& e0 = run.ranks[static_cast<std::size_t>(inst[0].rank)].events[inst[0].index];
      for (std::size_t j = 1; j < inst.size(); ++j) {
        const auto& ej = run.ranks[static_cast<std::size_t>(inst[j].rank)].events[inst[j].index];
        if (ej.op != e0.op) {
          Issue is;
          is.kind = "collective-order-mismatch";
          is.section = "MPI-4.0 §6.12 (all processes must call collectives on a communicator in the same order)";
          is.rule = "the sequence of collective operations on a communicator must be the same on every member";
          is.message = "collective #" + std::to_string(k + 1) + " on communicator " + std::to_string(comm) + ": " +
                       op(e0) + " on " + rank_text(inst[0].rank) + ", " + op(ej) + " on " + rank_text(inst[j].rank);
          is.sides = {{inst[j].rank, inst[j].index, "this rank"}, {inst[0].rank, inst[0].index, "other rank"}};
          out.push_back(std::move(is));
          stop = true;
          break;
        }
      }
      if (stop) break;
      if (!short_ranks.empty()) {
        // A rank that ended (finalized) without this collective: it will never come.
        bool ended = options.run_completed;
        for (int r : short_ranks) ended = ended || finished(run.ranks[static_cast<std::size_t>(r)]);
        if (ended) {
          Issue is;
          is.kind = "collective-missing";
          is.section = "MPI-4.0 §6.12 (all members must call each collective)";
          is.rule = "every member of the communicator must call each collective operation";
          is.message = op(e0) + " (collective #" + std::to_string(k + 1) + " on communicator " + std::to_string(comm) +
                       ") is never called by " + detectors::rank_ranges(short_ranks);
          is.sides.push_back({inst[0].rank, inst[0].index, "called here"});
          const auto& missing = run.ranks[static_cast<std::size_t>(short_ranks[0])];
          if (!missing.events.empty()) is.sides.push_back({short_ranks[0], finalize_index(missing), "ended here"});
          out.push_back(std::move(is));
        }
        break;
      }
      if (inst.size() > 1) compare_instance(run, inst, inter.count(comm) != 0, out);
    }
  }
}

// ---- point to point: type signatures of matched messages -----------------------
void check_p2p_types(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out) {
  std::set<std::pair<int, std::uint32_t>> reported;  // (rank, site) of the receive
  for (const auto& m : matching.messages) {
    const auto& rs = run.ranks[static_cast<std::size_t>(m.send.rank)];
    const auto& rr = run.ranks[static_cast<std::size_t>(m.recv_post.rank)];
    const Event& s = rs.events[m.send.index];
    const Event& r = rr.events[m.recv_post.index];
    if (s.dtype == trace::kTypeNone || r.dtype == trace::kTypeNone) continue;
    Signature ss = signature(rs, s.dtype, s.scount_arg), sr = signature(rr, r.dtype, r.scount_arg);
    if (signature_fits(ss, sr, false)) continue;
    if (!reported.insert({m.recv_post.rank, r.callsite}).second) continue;
    Issue is;
    is.kind = "type-mismatch";
    is.section = "MPI-4.0 §3.3.1 (type matching rules)";
    is.rule = "the type signature of a send must match (be a prefix of) the type signature of the receive that matches it";
    is.message = op(s) + " on " + rank_text(m.send.rank) + " sends " + describe_type(rs, s.dtype, s.scount_arg) + "; " +
                 op(r) + " on " + rank_text(m.recv_post.rank) + " receives " + describe_type(rr, r.dtype, r.scount_arg);
    is.sides = {{m.recv_post.rank, m.recv_post.index, "receive"}, {m.send.rank, m.send.index, "send"}};
    out.push_back(std::move(is));
  }
}

namespace {
// Posts whose request was cancelled or freed before it completed: a cancelled
// send may never have been issued, and a freed receive may have taken a
// message without the trace seeing it (MPI-4.0 §3.7.3, §3.8.4).
struct Abandoned {
  std::set<std::size_t> sends;        // cancelled send posts
  std::set<std::size_t> freed_sends;  // send posts freed while active (not cancelled)
  struct Recv {
    std::int32_t src, tag;
    std::uint32_t comm;
    std::size_t post;
  };
  std::vector<Recv> recvs;
};
Abandoned abandoned_posts(const trace::RankTrace& rt) {
  Abandoned out;
  struct Open {
    std::size_t post;
    bool cancel_called = false;
  };
  std::unordered_map<std::uint64_t, Open> open;  // active request -> its post
  std::set<std::uint64_t> persistent_recvs;
  auto is_recv = [&](const Event& post) {
    return cls(post) == OpClass::Irecv || (cls(post) == OpClass::Start && persistent_recvs.count(post.request) != 0);
  };
  auto abandon = [&](const Open& o) {
    const Event& post = rt.events[o.post];
    if (is_recv(post)) out.recvs.push_back({post.peer, post.tag, post.comm, o.post});
    else if (o.cancel_called) out.sends.insert(o.post);
    else out.freed_sends.insert(o.post);
  };
  for (std::size_t i = 0; i < rt.events.size(); ++i) {
    const Event& e = rt.events[i];
    switch (cls(e)) {
      case OpClass::RecvInit:
        persistent_recvs.insert(e.request);
        break;
      case OpClass::Isend: case OpClass::Irecv: case OpClass::Start:
        if (e.request != 0) open[e.request] = {i};
        break;
      case OpClass::RequestDone: {
        if (e.flags & trace::kFlagTestFailed) break;
        auto it = open.find(e.request);
        if (it == open.end()) break;
        if (e.flags & trace::kFlagCancelled) abandon(it->second);
        open.erase(it);
        break;
      }
      case OpClass::RequestFree: {
        auto it = open.find(e.request);
        if (it == open.end()) break;
        if (e.op == ops::Cancel) {
          it->second.cancel_called = true;
        } else {  // freed while active: its fate is unknowable
          abandon(it->second);
          open.erase(it);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

// "MPI_Isend from rank 0 to rank 1 (tag 5) was never received".
Issue unmatched_send_issue(const Event& send, int from) {
  Issue is;
  is.kind = "unmatched-send";
  is.section = "MPI-4.0 §3.5 (a message must be received)";
  is.message = op(send) + " from " + rank_text(from) + " to " + rank_text(send.peer) + " (tag " +
               std::to_string(send.tag) + ") was never received";
  return is;
}

void unmatched_messages(const trace::RunTrace& run, const trace::Matching& matching, const std::vector<Issue>& so_far,
                        std::vector<Issue>& out) {
  std::set<std::pair<int, std::size_t>> pending;  // posts already reported as never completed
  std::set<std::pair<int, std::uint32_t>> explained;  // (rank, send site) another finding names as its cause
  for (const auto& is : so_far)
    if (is.kind == "pending-request")
      for (const auto& s : is.sides) pending.insert({s.rank, s.event});
    else if (is.kind == "invalid-argument")  // a receive from MPI_PROC_NULL: the sends it left unreceived are that finding's
      for (const auto& s : is.sides)
        if (s.role == "meant partner")
          explained.insert({s.rank, run.ranks[static_cast<std::size_t>(s.rank)].events[s.event].callsite});
  std::vector<Abandoned> abandoned;
  for (const auto& rt : run.ranks) abandoned.push_back(abandoned_posts(rt));
  // A freed receive may have taken one message it could match.
  auto taken_by_freed_receive = [&](int src, const Event& send) -> std::optional<std::size_t> {
    if (send.peer < 0 || send.peer >= static_cast<int>(abandoned.size())) return std::nullopt;
    auto& recvs = abandoned[static_cast<std::size_t>(send.peer)].recvs;
    for (auto it = recvs.begin(); it != recvs.end(); ++it)
      if (it->comm == send.comm && (it->src == trace::kAnySource || it->src == src) &&
          (it->tag == trace::kAnyTag || it->tag == send.tag)) {
        const std::size_t post = it->post;
        recvs.erase(it);
        return post;
      }
    return std::nullopt;
  };
  std::set<std::pair<int, std::uint32_t>> reported;
  for (const auto& ref : matching.unmatched_sends) {
    const auto& rt = run.ranks[static_cast<std::size_t>(ref.rank)];
    const Event& e = rt.events[ref.index];
    if (pending.count({ref.rank, ref.index}) || explained.count({ref.rank, e.callsite}) || e.error != 0 || e.peer < 0)
      continue;
    if (!finished(rt) || (e.peer < static_cast<int>(run.ranks.size()) && !finished(run.ranks[static_cast<std::size_t>(e.peer)])))
      continue;
    if (abandoned[static_cast<std::size_t>(ref.rank)].sends.count(ref.index)) continue;
    if (auto recv = taken_by_freed_receive(ref.rank, e)) {
      // Both requests freed while active: neither process can know the
      // message completed before MPI_Finalize.
      if (abandoned[static_cast<std::size_t>(ref.rank)].freed_sends.count(ref.index)) {
        Issue is;
        is.kind = "pending-request";
        is.section = "MPI-4.0 §3.7.3 (an active receive request should never be freed), §11.2.2 (MPI_FINALIZE)";
        is.rule = "communication must be known complete before MPI_Finalize; with both requests freed while active, "
                  "no process can know it";
        is.message = op(e) + " on " + rank_text(ref.rank) + " and its receive on " + rank_text(e.peer) +
                     " were both freed with MPI_Request_free before completing (a missing MPI_Wait)";
        is.sides = {{e.peer, *recv, "receive freed here"}, {ref.rank, ref.index, "send freed here"}};
        out.push_back(std::move(is));
      }
      continue;
    }
    if (!reported.insert({ref.rank, e.callsite}).second) continue;
    Issue is = unmatched_send_issue(e, ref.rank);
    is.section += ", §11.2.2 (MPI_FINALIZE)";
    is.rule = "every message sent must be received by a matching receive before MPI_Finalize";
    is.sides.push_back({ref.rank, ref.index, "send"});
    out.push_back(std::move(is));
  }
}

// MPI_PROC_NULL (-1 in MPICH) where the program meant a rank: the other side
// of the message exists. A receive from MPI_PROC_NULL on the rank a message
// was sent to, that message never received; or a send to MPI_PROC_NULL from
// the rank a receive waits on, that receive never completed (MPI-4.0 §3.11:
// communication with MPI_PROC_NULL has no effect).
bool receive_class(OpClass c) { return c == OpClass::Recv || c == OpClass::Irecv || c == OpClass::RecvInit; }
bool send_class(OpClass c) {
  return c == OpClass::Send || c == OpClass::Isend || c == OpClass::SendInit || c == OpClass::Sendrecv;
}
std::optional<std::size_t> proc_null_partner(const trace::RankTrace& rt, bool receive, std::uint32_t comm,
                                             std::int32_t tag) {
  for (std::size_t i = 0; i < rt.events.size(); ++i) {
    const Event& e = rt.events[i];
    if (e.peer != trace::kProcNull || e.comm != comm || e.error != 0) continue;
    if (!(receive ? receive_class(cls(e)) : send_class(cls(e)))) continue;
    if (tag == trace::kAnyTag || e.tag == trace::kAnyTag || e.tag == tag) return i;
  }
  return std::nullopt;
}

void proc_null_meant_rank(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out) {
  std::set<std::pair<int, std::uint32_t>> reported;  // (rank, site of the MPI_PROC_NULL call)
  auto report = [&](int rank, std::size_t at, int other, std::size_t other_at, const std::string& what) {
    const auto& rt = run.ranks[static_cast<std::size_t>(rank)];
    if (!reported.insert({rank, rt.events[at].callsite}).second) return;
    Issue is;
    is.kind = "invalid-argument";
    is.section = "MPI-4.0 §3.11 (communication with MPI_PROC_NULL has no effect), §3.2.3";
    is.rule = "a send or receive meant to reach another process must name its rank; MPI_PROC_NULL (-1 in MPICH) "
              "makes it a no-op";
    is.message = op(rt.events[at]) + " on " + rank_text(rank) + " names MPI_PROC_NULL as its peer, but " + what;
    is.sides = {{rank, at, "MPI_PROC_NULL here"}, {other, other_at, "meant partner"}};
    out.push_back(std::move(is));
  };
  const int n = static_cast<int>(run.ranks.size());
  for (const auto& ref : matching.unmatched_sends) {
    const Event& s = run.ranks[static_cast<std::size_t>(ref.rank)].events[ref.index];
    if (s.peer < 0 || s.peer >= n || s.error != 0 || run.ranks[static_cast<std::size_t>(s.peer)].rank < 0) continue;
    if (auto r = proc_null_partner(run.ranks[static_cast<std::size_t>(s.peer)], true, s.comm, s.tag))
      report(s.peer, *r, ref.rank, ref.index,
             op(s) + " from " + rank_text(ref.rank) + " to this rank (tag " + std::to_string(s.tag) +
                 ") was never received");
  }
  for (const auto& ref : matching.unmatched_recvs) {
    const Event& r = run.ranks[static_cast<std::size_t>(ref.rank)].events[ref.index];
    if (r.peer == trace::kProcNull || r.peer == trace::kNoPeer || r.error != 0 || !receive_class(cls(r))) continue;
    for (int src = 0; src < n; ++src) {
      if (src == ref.rank || run.ranks[static_cast<std::size_t>(src)].rank < 0) continue;
      if (r.peer != trace::kAnySource && r.peer != src) continue;
      if (auto s = proc_null_partner(run.ranks[static_cast<std::size_t>(src)], false, r.comm, r.tag)) {
        report(src, *s, ref.rank, ref.index,
               op(r) + " on " + rank_text(ref.rank) + " waits for a message from " +
                   (r.peer == trace::kAnySource ? std::string("any rank") : rank_text(src)) + " (tag " +
                   std::to_string(r.tag) + ") that never came");
        break;
      }
    }
  }
}
// A hung run whose message was sent with another tag than the one its
// receiver waits for: the send is never received and the receive from that
// sender never completes (the hang). Reported at the send as
// unmatched-send (the run did not end, so the finalize check does not see
// it), with the waiting receive as a side (§3.5: tags must match).
void tag_mismatch_in_hang(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out) {
  std::set<std::pair<int, std::uint32_t>> reported;
  const int n = static_cast<int>(run.ranks.size());
  for (const auto& ref : matching.unmatched_sends) {
    const Event& s = run.ranks[static_cast<std::size_t>(ref.rank)].events[ref.index];
    if (s.peer < 0 || s.peer >= n || s.error != 0 || s.tag < 0 || run.ranks[static_cast<std::size_t>(s.peer)].rank < 0)
      continue;
    const auto& dest = run.ranks[static_cast<std::size_t>(s.peer)];
    for (const auto& rref : matching.unmatched_recvs) {
      if (rref.rank != s.peer) continue;
      const Event& r = dest.events[rref.index];
      if (r.comm != s.comm || r.peer != ref.rank || r.tag == s.tag || r.tag == trace::kAnyTag || r.error != 0 ||
          !receive_class(cls(r)))
        continue;
      if (!reported.insert({ref.rank, s.callsite}).second) break;
      Issue is = unmatched_send_issue(s, ref.rank);
      is.section += ", §3.2.3 (tags must match)";
      is.rule = "a message must be sent with the tag its receive waits for";
      is.message += "; " + op(r) + " on " + rank_text(s.peer) + " from " + rank_text(ref.rank) + " waits for tag " +
                    std::to_string(r.tag) + " and never completed (the run hung)";
      is.sides = {{ref.rank, ref.index, "send"}, {s.peer, rref.index, "receive waiting for another tag"}};
      out.push_back(std::move(is));
      break;
    }
  }
}

}  // namespace

// ---- arguments MPI accepts but the standard forbids -------------------------------
namespace {
// Collectives whose send (gather) or receive (scatter) buffer at the root holds
// one block per process; and those where every process's buffer does.
bool rooted_block_op(std::uint16_t o) {
  return o == ops::Gather || o == ops::Gatherv || o == ops::Scatter || o == ops::Scatterv || o == ops::Igather ||
         o == ops::Igatherv || o == ops::Iscatter || o == ops::Iscatterv;
}
bool all_block_op(std::uint16_t o) {
  return o == ops::Allgather || o == ops::Allgatherv || o == ops::Iallgather || o == ops::Iallgatherv;
}
}  // namespace

void check_arguments(const trace::RunTrace& run, std::vector<Issue>& out) {
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    struct Pending {
      std::size_t index;
      std::uint64_t lo, hi;
      bool writes;
    };
    std::unordered_map<std::uint64_t, Pending> pending;  // request id -> buffer range
    std::set<std::uint32_t> count_reported;                // call sites of receives whose count overran
    // The bytes the first completion of `request` after record `post`
    // received (nullopt: never completed).
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> completions;
    bool completions_built = false;
    auto received_bytes = [&](std::uint64_t request, std::size_t post) -> std::optional<std::int64_t> {
      if (!completions_built) {
        completions_built = true;
        for (std::size_t k = 0; k < rt.events.size(); ++k)
          if (cls(rt.events[k]) == OpClass::RequestDone && !(rt.events[k].flags & trace::kFlagTestFailed))
            completions[rt.events[k].request].push_back(k);
      }
      auto it = completions.find(request);
      if (it == completions.end()) return std::nullopt;
      auto k = std::upper_bound(it->second.begin(), it->second.end(), post);
      if (k == it->second.end() || rt.events[*k].error != 0) return std::nullopt;
      return rt.events[*k].status_bytes;
    };
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const Event& e = rt.events[i];
      const OpClass c = cls(e);
      // Communicator constructors' arguments MPICH accepts (trace/format.hpp:
      // kColorUndefined): a negative color other than MPI_UNDEFINED (§7.4.2),
      // a negative entry of a Cartesian topology's dims (§8.5.1). Open MPI
      // rejects both (MPI_ERR_ARG, MPI_ERR_DIMS: also an mpi-error finding);
      // the rule broken is the same under either MPI.
      const bool bad_color = e.op == ops::Comm_split && e.tag < 0 && e.tag != trace::kColorUndefined;
      const bool bad_dims = e.op == ops::Cart_create && e.tag < 0;
      if (c == OpClass::CommMgmt && (bad_color || bad_dims)) {
        Issue is;
        is.kind = "invalid-argument";
        is.section = bad_color ? "MPI-4.0 §7.4.2 (MPI_COMM_SPLIT: color must be non-negative or MPI_UNDEFINED)"
                               : "MPI-4.0 §8.5.1 (MPI_CART_CREATE: dims are the positive number of processes per dimension)";
        is.rule = bad_color ? "the color of MPI_Comm_split must be non-negative or MPI_UNDEFINED"
                            : "every entry of MPI_Cart_create's dims must be positive";
        is.message = op(e) + " on " + rank_text(rt.rank) +
                     (bad_color ? " passes color " + std::to_string(e.tag) + " (negative, not MPI_UNDEFINED)"
                                : " passes dims with the negative entry " + std::to_string(e.tag));
        is.sides.push_back({rt.rank, i, "call"});
        out.push_back(std::move(is));
      }
      // Aliased send and receive buffers (not MPI_IN_PLACE).
      if ((c == OpClass::Collective || c == OpClass::Icollective || c == OpClass::Sendrecv) && e.buffer != 0 &&
          e.buffer == e.rbuffer && !(e.flags & trace::kFlagInPlace) && e.bytes > 0 && e.op != ops::Sendrecv_replace &&
          e.op != ops::Bcast && e.op != ops::Ibcast &&  // one buffer by definition
          (!rooted_block_op(e.op) || e.root == rt.rank)) {  // the receive buffer matters at the root only
        Issue is;
        is.kind = "aliased-buffers";
        // Rank 0's block of a gathered/scattered buffer starts at the buffer:
        // passing the whole buffer as its own block copies the block onto
        // itself (how MPICH's tests did it before MPI_IN_PLACE), harmless
        // though not conforming. Other ranks' blocks lie further in.
        if (e.comm == trace::kCommWorld && rt.rank == 0 && (rooted_block_op(e.op) || all_block_op(e.op)))
          is.severity = Severity::Info;
        is.section = c == OpClass::Sendrecv ? "MPI-4.0 §3.10 (send and receive buffers must be disjoint)"
                                            : "MPI-4.0 §2.3, §6.1 (output buffers must not alias; use MPI_IN_PLACE)";
        is.rule = "the send and receive buffers of one call must not overlap";
        is.message = op(e) + " on " + rank_text(rt.rank) + " passes the same buffer as send and receive buffer";
        is.sides.push_back({rt.rank, i, "call"});
        out.push_back(std::move(is));
      }
      // Overlapping buffers of pending nonblocking operations (one of them writes).
      if ((c == OpClass::Isend || c == OpClass::Irecv) && e.request != 0 && e.bytes > 0 && e.buffer != 0) {
        Pending p{i, e.buffer, e.buffer + static_cast<std::uint64_t>(e.bytes), c == OpClass::Irecv};
        for (const auto& [id, q] : pending) {
          if ((p.writes || q.writes) && p.lo < q.hi && q.lo < p.hi) {
            // Two receives where only the lower one's tail reaches into the
            // other's buffer, and the message it got fit before that
            // buffer: its count is larger than its slot (a halo buffer
            // carved from one block), not the other's address wrong.
            if (p.writes && q.writes) {
              const Pending& low = q.lo <= p.lo ? q : p;
              const Pending& high = q.lo <= p.lo ? p : q;
              const std::uint64_t room = high.lo - low.lo;
              const auto got = received_bytes(rt.events[low.index].request, low.index);
              if (low.lo < high.lo && low.hi <= high.hi && got && *got <= room) {
                if (count_reported.insert(rt.events[low.index].callsite).second) {
                  const Event& l = rt.events[low.index];
                  Issue is;
                  is.kind = "buffer-overflow";
                  is.section = "MPI-4.0 §3.2.4 (the receive buffer is count consecutive elements), §3.7.2";
                  is.rule = "count elements of the datatype from the buffer address must lie inside the memory meant "
                            "for this receive; here they reach into another pending receive's buffer";
                  is.message = op(l) + " on " + rank_text(rt.rank) + " receives up to " + std::to_string(l.bytes) +
                               " bytes (" + std::to_string(l.scount_arg) + " elements), " +
                               std::to_string(low.hi - high.lo) + " bytes more than the " + std::to_string(room) +
                               " bytes before the buffer of the pending " + op(rt.events[high.index]) +
                               "; its message (" + std::to_string(*got) + " bytes) fit: the count is too large";
                  is.sides = {{rt.rank, low.index, "this receive's count"},
                              {rt.rank, high.index, "pending receive whose buffer it reaches"}};
                  out.push_back(std::move(is));
                }
                continue;
              }
            }
            Issue is;
            is.kind = "overlapping-buffers";
            // Two receives into exactly the same buffer is the scratch-buffer
            // idiom of MPICH's own test suite (the data is not used); the
            // standard forbids it but it corrupts nothing the program reads
            // back, unlike a partial overlap or a receive into a send buffer.
            if (p.writes && q.writes && p.lo == q.lo && p.hi == q.hi) is.severity = Severity::Info;
            is.section = "MPI-4.0 §3.7.2 (the buffer of a pending request must not be accessed)";
            is.rule = "a receive buffer of a pending request must not overlap another pending request's buffer";
            is.message = op(e) + " on " + rank_text(rt.rank) + " uses a buffer that overlaps the pending " +
                         op(rt.events[q.index]) + "'s";
            is.sides = {{rt.rank, i, "this call"}, {rt.rank, q.index, "pending request"}};
            out.push_back(std::move(is));
            break;
          }
        }
        pending[e.request] = p;
      }
      if (c == OpClass::RequestDone && !(e.flags & trace::kFlagTestFailed)) pending.erase(e.request);
    }
  }
}

std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options) { return check_run(run, options, {}); }

std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options, const ObjectResolver& resolve) {
  std::vector<Issue> out;
  check_recorded_errors(run, out);
  check_truncation_cause(run, out);
  check_finalize(run, options, out);
  check_collectives(run, options, out);
  check_arguments(run, out);
  check_buffers(run, resolve, out);
  trace::Matching matching = trace::match_messages(run);
  check_p2p_types(run, matching, out);
  proc_null_meant_rank(run, matching, out);
  check_buffering(run, matching, options, out);
  const ModifiedSends none;
  const ModifiedSends& modified = options.modified != nullptr ? *options.modified : none;
  {
    // A send whose count ran into the next send's buffer (the truncation
    // above) also "changed" while pending when the program filled that
    // neighbour slot: a consequence of the count, not a second error. By
    // the site's stable hash: the same call on the other ranks has the same
    // count, though only the rank whose receiver failed first shows it.
    auto site_hash = [&](const Side& side) -> std::uint64_t {
      const auto& rt = run.ranks[static_cast<std::size_t>(side.rank)];
      const std::uint32_t site = rt.events[side.event].callsite;
      return site < rt.sites.size() && rt.sites[site].stable_hash != 0 ? rt.sites[site].stable_hash
                                                                       : (std::uint64_t{1} << 63) |
                                                                             (std::uint64_t(side.rank) << 32) | site;
    };
    std::set<std::uint64_t> overran;
    for (const auto& is : out)
      if (is.kind == "buffer-overflow" && !is.sides.empty() && is.sides[0].role == "send count")
        overran.insert(site_hash(is.sides[0]));
    std::vector<Issue> changed;
    check_modified_sends(run, modified, changed);
    for (auto& is : changed)
      if (is.sides.empty() || !overran.count(site_hash(is.sides[0]))) out.push_back(std::move(is));
  }
  check_written_receives(run, matching, modified, out);
  if (options.written_collectives != nullptr) check_written_collectives(run, *options.written_collectives, out);
  check_collective_concurrency(run, out);
  if (options.accessed != nullptr) check_accessed_receives(run, *options.accessed, out);
  if (options.run_hung) check_finalized_waits(run, matching, out);
  if (options.run_hung) tag_mismatch_in_hang(run, matching, out);
  if (options.run_completed) {
    const std::vector<Issue> so_far = out;
    unmatched_messages(run, matching, so_far, out);
  }
  return out;
}

}  // namespace scalefuzz::detectors::usage
