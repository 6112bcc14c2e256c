// One-sided communication checks (issue 33). README.md explains the model;
// in short:
// 1. every rank's records are walked once per window with the epoch state
//    of MPI-4.0 §12.5 (fence, lock/lock_all, PSCW access and exposure),
//    which gives the epoch errors and, for every RMA operation, the record
//    that completes it at the target (the closing synchronization or a
//    flush) and at the origin (also flush_local, the R* request's completion);
// 2. a causal replay of the whole run gives vector clocks at the records
//    that matter: matched messages, blocking collectives, fences and window
//    creation/free (synchronizing over the window's members), post -> start
//    and complete -> wait;
// 3. two operations on overlapping target memory conflict when neither's
//    completion happens before the other's issue, unless both only read,
//    both are accumulates of one op (or MPI_NO_OP) on one basic type, or
//    they lie in lock epochs of which one is exclusive (§12.7); a load or
//    store of the target's own code (ranks/N.winaccess) conflicts with an
//    operation on its address by the same rule.
#include "scalefuzz/detectors/rma.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::detectors::rma {

namespace {

using trace::Event;
using trace::OpClass;
namespace ops = trace::ops;

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kMaxPairsPerBucket = 4'000'000;  // conflict pairs examined per (window, target)

bool is(const Event& e, OpClass c) { return e.op_class == static_cast<std::uint8_t>(c); }

const char* const kSync = "MPI-4.0 §12.5 (synchronization calls)";
const char* const kSemantics = "MPI-4.0 §12.7 (semantics and correctness)";

// One rank's side of a window.
struct WinRank {
  std::size_t create = kNone, free = kNone;
  std::uint64_t base = 0;
  std::int64_t size = 0;
  std::int64_t disp_unit = 1;
  bool dynamic = false;
};

enum class EpochKind : std::uint8_t { None, Fence, Lock, LockAll, Pscw };

struct Op {
  int rank = -1;
  std::size_t idx = 0;
  std::uint32_t win = 0;
  int target = trace::kNoPeer;
  std::int64_t disp = 0;
  std::int64_t span = 0;  // target bytes
  std::uint64_t lo = 0, hi = 0;  // target memory in the target's address space
  bool range_known = false;
  bool reads_target = false, writes_target = false, atomic = false;
  std::uint8_t rop = 0;
  std::uint32_t prim = 0;  // basic type of the target datatype (0: mixed or unknown)
  std::int64_t prim_size = 0;
  std::uint64_t obuf = 0;  // origin buffer MPI reads
  std::int64_t obytes = 0;
  std::uint64_t wbuf = 0;  // buffer MPI writes at the origin (Get's origin, result)
  std::int64_t wbytes = 0;
  std::uint64_t request = 0;
  std::size_t remote_done = kNone, local_done = kNone;
  EpochKind epoch = EpochKind::None;
  int lock_type = 0;
  std::size_t epoch_open = kNone;  // the record that opened its epoch
};

struct EpochState {
  bool fence_open = false;   // a fence without MPI_MODE_NOSUCCEED opened a fence epoch
  std::size_t fence_idx = kNone;
  std::int64_t fence_assert = 0;
  bool ops_since_fence = false;
  std::map<int, std::pair<int, std::size_t>> locks;  // target -> (lock type, Win_lock record)
  std::size_t lock_all = kNone;
  std::size_t start = kNone;
  std::set<int> start_group;
  std::size_t post = kNone;
  std::set<int> post_group;
  std::vector<std::size_t> pending;  // ops (indices into Checker::ops_) not complete at the target
  std::vector<std::size_t> fences;   // this rank's fences on the window
};

std::string rank_text(int r) { return "rank " + std::to_string(r); }

class Checker {
 public:
  Checker(const trace::RunTrace& run, const Options& options) : run_(run), opt_(options) {}

  std::vector<Issue> run() {
    for (const auto& rt : run_.ranks)
      if (rt.rank >= 0) walk_rank(rt);
    check_fence_counts();
    check_freed_memory();
    place_ranges();
    replay();
    check_conflicts();
    check_local_accesses();
    check_origin_buffers();
    return std::move(out_);
  }

 private:
  const trace::RunTrace& run_;
  const Options& opt_;
  std::vector<Issue> out_;
  std::map<std::uint32_t, std::map<int, WinRank>> windows_;
  std::vector<Op> ops_;
  std::map<std::pair<int, std::uint64_t>, std::size_t> by_request_;  // (rank, request id) -> op
  std::map<std::pair<int, std::size_t>, std::size_t> op_at_;         // (rank, record) -> op
  // Causal replay: vector clocks after the records that need one.
  std::map<std::pair<int, std::size_t>, std::vector<std::uint32_t>> clock_;
  std::map<std::string, int> reported_;  // dedupe key -> count

  const trace::RankTrace& rank(int r) const { return run_.ranks[static_cast<std::size_t>(r)]; }
  const Event& ev(int r, std::size_t i) const { return rank(r).events[i]; }

  void add(const char* kind, const std::string& rule, const char* section, const std::string& message,
           std::vector<Side> sides, Severity severity = Severity::Error) {
    Issue is;
    is.kind = kind;
    is.rule = rule;
    is.section = section;
    is.message = message;
    is.severity = severity;
    is.sides = std::move(sides);
    out_.push_back(std::move(is));
  }
  // One issue per key (call sites and kind), at most 50 per kind.
  bool first_time(const std::string& key, const char* kind) {
    if (reported_[key]++ != 0) return false;
    return reported_[std::string("#") + kind]++ < 50;
  }
  std::string op_text(int r, std::size_t i) const { return trace::op_name(ev(r, i).op); }

  // ---- 1. epochs -----------------------------------------------------------

  void walk_rank(const trace::RankTrace& rt) {
    const int r = rt.rank;
    std::map<std::uint32_t, EpochState> st;
    std::set<std::uint32_t> live;  // windows created and not freed
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const Event& e = rt.events[i];
      if (is(e, OpClass::WinMgmt)) {
        if (e.op == ops::Win_create || e.op == ops::Win_allocate || e.op == ops::Win_allocate_shared ||
            e.op == ops::Win_create_dynamic) {
          if (e.error != 0 || e.t_exit_ns == 0) continue;
          for (std::uint32_t other : live) {
            const WinRank& o = windows_[other][r];
            if (o.dynamic || e.op == ops::Win_create_dynamic || e.bytes <= 0 || o.size <= 0) continue;
            if (e.buffer < o.base + static_cast<std::uint64_t>(o.size) && o.base < e.buffer + static_cast<std::uint64_t>(e.bytes) &&
                first_time("ov" + std::to_string(r) + ":" + std::to_string(e.callsite), "rma-overlapping-windows"))
              // Legal in itself: "the same area in memory may appear in multiple
              // windows ... However, concurrent communications to distinct,
              // overlapping windows may lead to undefined results" (§12.2.1).
              add("rma-overlapping-windows",
                  "memory may appear in several windows, but concurrent communications to distinct, overlapping windows "
                  "may lead to undefined results",
                  "MPI-4.0 §12.2.1", "a window created on " + rank_text(r) + " overlaps the memory of a window it created before",
                  {{r, i, "window created here"}, {r, o.create, "overlapping window created here"}}, Severity::Warning);
          }
          WinRank& w = windows_[e.comm][r];
          w.create = i;
          w.base = e.buffer;
          w.size = e.bytes;
          w.disp_unit = e.count > 0 ? e.count : 1;
          w.dynamic = e.op == ops::Win_create_dynamic;
          live.insert(e.comm);
        } else if (e.op == ops::Win_free) {
          EpochState& s = st[e.comm];
          free_in_epoch(r, i, s);  // also when MPI refused it (MPICH does inside an epoch): that is the cause
          if (e.error != 0 || e.t_exit_ns == 0) continue;
          for (std::size_t k : s.pending) complete(k, i, true, true);
          s.pending.clear();
          if (auto w = windows_.find(e.comm); w != windows_.end() && w->second.count(r)) w->second[r].free = i;
          live.erase(e.comm);
        }
      } else if (is(e, OpClass::Rma)) {
        rma_op(rt, i, st[e.comm]);
      } else if (is(e, OpClass::RmaSync) && (e.flags & trace::kFlagChild) == 0) {
        sync(rt, i, st[e.comm]);  // also when MPI refused it: the pairing error is the cause
      } else if (is(e, OpClass::RequestDone) && e.request != 0) {
        if (auto it = by_request_.find({r, e.request}); it != by_request_.end() && ops_[it->second].local_done == kNone)
          ops_[it->second].local_done = i;
      } else if (is(e, OpClass::Finalize)) {  // the rank got there: what it left open is known
        at_finalize(r, i, st, live);
      }
    }
    for (auto& [win, s] : st)
      for (std::size_t f : s.fences) windows_fences_[win][r].push_back(f);
  }
  std::map<std::uint32_t, std::map<int, std::vector<std::size_t>>> windows_fences_;

  void complete(std::size_t k, std::size_t i, bool remote, bool local) {
    Op& op = ops_[k];
    if (remote && op.remote_done == kNone) op.remote_done = i;
    if (local && op.local_done == kNone) op.local_done = i;
  }

  void free_in_epoch(int r, std::size_t i, const EpochState& s) {
    std::size_t open = kNone;
    std::string what;
    if (!s.locks.empty()) open = s.locks.begin()->second.second, what = "a lock epoch (MPI_Win_lock without MPI_Win_unlock)";
    else if (s.lock_all != kNone) open = s.lock_all, what = "a lock_all epoch (no MPI_Win_unlock_all)";
    else if (s.start != kNone) open = s.start, what = "an access epoch (MPI_Win_start without MPI_Win_complete)";
    else if (s.post != kNone) open = s.post, what = "an exposure epoch (MPI_Win_post without MPI_Win_wait)";
    else if (s.fence_open && s.ops_since_fence) open = s.fence_idx, what = "a fence epoch with operations no fence completed";
    if (open == kNone) return;
    add("rma-free-in-epoch", "a window may be freed only when no epoch is open on it (MPI_Win_free)", "MPI-4.0 §12.2.5",
        "MPI_Win_free on " + rank_text(r) + " inside " + what, {{r, i, "freed here"}, {r, open, "epoch opened here"}});
  }

  void at_finalize(int r, std::size_t i, std::map<std::uint32_t, EpochState>& st, const std::set<std::uint32_t>& live) {
    for (std::uint32_t w : live) {
      const WinRank& wr = windows_[w][r];
      add("leaked-window", "every window must be freed with MPI_Win_free before MPI_Finalize", "MPI-4.0 §12.2.5",
          "a window created on " + rank_text(r) + " was never freed", {{r, wr.create, "window created here"}, {r, i, "finalized here"}},
          Severity::Warning);
      EpochState& s = st[w];
      auto open = [&](std::size_t at, const char* what) {
        add("rma-unmatched-sync", "every epoch must be closed by its matching synchronization call", kSync,
            std::string(what) + " on " + rank_text(r) + " was never closed", {{r, at, "opened here"}, {r, i, "finalized here"}});
      };
      for (auto& [t, lk] : s.locks) open(lk.second, "MPI_Win_lock");
      if (s.lock_all != kNone) open(s.lock_all, "MPI_Win_lock_all");
      if (s.start != kNone) open(s.start, "MPI_Win_start");
      if (s.post != kNone) open(s.post, "MPI_Win_post");
    }
  }

  // Ranks of a Win_start/Win_post record's group: its children.
  std::set<int> group_of(const trace::RankTrace& rt, std::size_t i) const {
    std::set<int> g;
    for (std::size_t k = i + 1; k < rt.events.size() && (rt.events[k].flags & trace::kFlagChild) != 0; ++k)
      if (is(rt.events[k], OpClass::RmaSync)) g.insert(rt.events[k].peer);
    return g;
  }

  void unmatched(int r, std::size_t i, const std::string& message) {
    if (!first_time("u" + std::to_string(r) + ":" + std::to_string(ev(r, i).callsite), "rma-unmatched-sync")) return;
    add("rma-unmatched-sync", "synchronization calls must pair up: lock/unlock, lock_all/unlock_all, start/complete, post/wait, and fences on every member",
        kSync, message, {{r, i, "this call"}});
  }

  void sync(const trace::RankTrace& rt, std::size_t i, EpochState& s) {
    const int r = rt.rank;
    const Event& e = rt.events[i];
    const std::uint16_t op = e.op;
    auto complete_if = [&](auto pred, bool remote) {
      for (std::size_t k = 0; k < s.pending.size();) {
        if (pred(ops_[s.pending[k]])) {
          complete(s.pending[k], i, remote, true);
          if (remote) {
            s.pending[k] = s.pending.back();
            s.pending.pop_back();
            continue;
          }
        }
        ++k;
      }
    };
    auto all = [](const Op&) { return true; };
    if (op == ops::Win_fence) {
      if (!s.locks.empty() || s.lock_all != kNone || s.start != kNone || s.post != kNone)
        unmatched(r, i, "MPI_Win_fence on " + rank_text(r) + " inside a lock or PSCW epoch it did not close");
      if ((e.count & trace::kModeNoPrecede) != 0 && s.ops_since_fence &&
          first_time("np" + std::to_string(r) + ":" + std::to_string(e.callsite), "rma-sync-misuse"))
        add("rma-sync-misuse", "MPI_MODE_NOPRECEDE asserts that the fence completes no operation of this rank", kSync,
            "MPI_Win_fence(MPI_MODE_NOPRECEDE) on " + rank_text(r) + " after RMA operations of the epoch it closes",
            {{r, i, "fence"}, {r, last_op_of(r, s), "operation"}});
      complete_if(all, true);
      s.fence_open = (e.count & trace::kModeNoSucceed) == 0;
      s.fence_idx = i;
      s.fence_assert = e.count;
      s.ops_since_fence = false;
      s.fences.push_back(i);
    } else if (op == ops::Win_lock) {
      const int t = e.peer;
      if (e.tag != trace::kLockExclusive && e.tag != trace::kLockShared &&
          first_time("lt" + std::to_string(r) + ":" + std::to_string(e.callsite), "rma-sync-misuse"))
        add("rma-sync-misuse", "the lock type must be MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED", "MPI-4.0 §12.5.3",
            "MPI_Win_lock on " + rank_text(r) + " with lock type " + std::to_string(e.tag), {{r, i, "lock"}});
      if (s.locks.count(t) != 0 || s.lock_all != kNone)
        unmatched(r, i, "MPI_Win_lock on " + rank_text(r) + " of target " + rank_text(t) + " it already holds locked");
      else if (s.fence_open && closed_by_later_fence(rt, i, e.comm))
        unmatched(r, i, "MPI_Win_lock on " + rank_text(r) + " inside a fence epoch (between two fences)");
      else if (s.start != kNone)
        unmatched(r, i, "MPI_Win_lock on " + rank_text(r) + " inside a PSCW access epoch");
      s.locks[t] = {e.tag, i};
    } else if (op == ops::Win_unlock) {
      const int t = e.peer;
      if (s.locks.count(t) == 0) unmatched(r, i, "MPI_Win_unlock on " + rank_text(r) + " of target " + rank_text(t) + " it never locked");
      complete_if([t](const Op& o) { return o.target == t; }, true);
      s.locks.erase(t);
    } else if (op == ops::Win_lock_all) {
      if (s.lock_all != kNone || !s.locks.empty())
        unmatched(r, i, "MPI_Win_lock_all on " + rank_text(r) + " while it already holds locks on the window");
      else if (s.fence_open && closed_by_later_fence(rt, i, e.comm))
        unmatched(r, i, "MPI_Win_lock_all on " + rank_text(r) + " inside a fence epoch (between two fences)");
      s.lock_all = i;
    } else if (op == ops::Win_unlock_all) {
      if (s.lock_all == kNone) unmatched(r, i, "MPI_Win_unlock_all on " + rank_text(r) + " without MPI_Win_lock_all");
      complete_if(all, true);
      s.lock_all = kNone;
    } else if (op == ops::Win_flush || op == ops::Win_flush_local) {
      const int t = e.peer;
      if (s.locks.count(t) == 0 && s.lock_all == kNone)
        unmatched(r, i, std::string(trace::op_name(op)) + " on " + rank_text(r) + " outside a passive-target epoch");
      complete_if([t](const Op& o) { return o.target == t; }, op == ops::Win_flush);
    } else if (op == ops::Win_flush_all || op == ops::Win_flush_local_all) {
      if (s.locks.empty() && s.lock_all == kNone)
        unmatched(r, i, std::string(trace::op_name(op)) + " on " + rank_text(r) + " outside a passive-target epoch");
      complete_if(all, op == ops::Win_flush_all);
    } else if (op == ops::Win_start) {
      if (s.start != kNone) unmatched(r, i, "MPI_Win_start on " + rank_text(r) + " while its previous access epoch is open");
      s.start = i;
      s.start_group = group_of(rt, i);
    } else if (op == ops::Win_complete) {
      if (s.start == kNone) unmatched(r, i, "MPI_Win_complete on " + rank_text(r) + " without MPI_Win_start");
      complete_if(all, true);
      s.start = kNone;
      s.start_group.clear();
    } else if (op == ops::Win_post) {
      if (s.post != kNone) unmatched(r, i, "MPI_Win_post on " + rank_text(r) + " while its previous exposure epoch is open");
      s.post = i;
      s.post_group = group_of(rt, i);
    } else if (op == ops::Win_wait || (op == ops::Win_test && (e.flags & trace::kFlagTestFailed) == 0)) {
      if (s.post == kNone) unmatched(r, i, std::string(trace::op_name(op)) + " on " + rank_text(r) + " without MPI_Win_post");
      s.post = kNone;
      s.post_group.clear();
    }
  }

  std::size_t last_op_of(int r, const EpochState& s) const {
    std::size_t best = s.fence_idx;
    for (const Op& o : ops_)
      if (o.rank == r && (s.fence_idx == kNone || o.idx > s.fence_idx)) best = o.idx;
    return best;
  }

  // A later fence on the same window by this rank (the lock lies between two fences).
  static bool closed_by_later_fence(const trace::RankTrace& rt, std::size_t i, std::uint32_t win) {
    for (std::size_t k = i + 1; k < rt.events.size(); ++k) {
      const Event& e = rt.events[k];
      if (e.comm != win) continue;
      if (is(e, OpClass::RmaSync) && e.op == ops::Win_fence) return true;
      if (is(e, OpClass::WinMgmt) && e.op == ops::Win_free) return false;
    }
    return false;
  }

  // A NULL origin buffer for count > 0 elements of a predefined datatype
  // (MPI_BOTTOM, also 0, is a base only for derived types of absolute
  // addresses; a fetching operation's origin with MPI_NO_OP is not read, so
  // only Put, Get and Accumulate are judged). MPICH refuses the call (the
  // usage checks' mpi-error, so only calls MPI accepted or never returned
  // from count here); Open MPI 4.1 does not check, and its shared-memory
  // copy fails on it.
  void null_origin_check(const trace::RankTrace& rt, std::size_t i) {
    const Event& e = rt.events[i];
    const std::uint16_t op = e.op;
    if (op != ops::Put && op != ops::Rput && op != ops::Get && op != ops::Rget && op != ops::Accumulate &&
        op != ops::Raccumulate)
      return;
    if (e.error != 0 || e.buffer != 0 || e.scount_arg <= 0) return;
    const trace::TypeEntry* type = trace::find_type(rt, e.dtype);
    if (type == nullptr || !type->predefined || type->size <= 0) return;
    if (!first_time("no" + std::to_string(rt.rank) + ":" + std::to_string(e.callsite), "invalid-argument")) return;
    add("invalid-argument", "an RMA origin buffer must hold count elements of the origin datatype", "MPI-4.0 §12.3",
        std::string(trace::op_name(op)) + " on " + rank_text(rt.rank) + ": origin buffer NULL for " +
            std::to_string(e.scount_arg) + " " + type->name + (e.scount_arg == 1 ? " element" : " elements"),
        {{rt.rank, i, "operation"}});
  }

  void rma_op(const trace::RankTrace& rt, std::size_t i, EpochState& s) {
    const int r = rt.rank;
    const Event& e = rt.events[i];
    if (e.peer == trace::kProcNull) return;
    null_origin_check(rt, i);
    Op o;
    o.rank = r;
    o.idx = i;
    o.win = e.comm;
    o.target = e.peer;
    o.disp = e.count;
    o.request = e.request;
    const std::uint16_t op = e.op;
    const bool get = op == ops::Get || op == ops::Rget;
    const bool put = op == ops::Put || op == ops::Rput;
    o.rop = e.reduce_op;
    o.atomic = !get && !put;
    const bool no_op = e.reduce_op == static_cast<std::uint8_t>(trace::ReduceOp::NoOp);
    o.reads_target = get || (o.atomic && op != ops::Accumulate && op != ops::Raccumulate);
    o.writes_target = put || (o.atomic && !no_op);
    if (get) {
      o.wbuf = e.buffer, o.wbytes = e.bytes;
    } else {
      o.obuf = e.buffer, o.obytes = e.bytes;
      if (e.rbuffer != 0) {
        o.wbuf = e.rbuffer;
        o.wbytes = op == ops::Fetch_and_op || op == ops::Compare_and_swap ? e.bytes : e.status_bytes;
      }
    }
    // Target extent from the origin's description of the target datatype.
    o.span = e.status_bytes;
    if (const trace::TypeEntry* t = trace::find_type(rt, e.rdtype); t != nullptr && t->extent > 0 && e.rcount_arg > 0)
      o.span = std::max<std::int64_t>(o.span, static_cast<std::int64_t>(t->extent) * e.rcount_arg);
    usage::Signature ts = usage::signature(rt, e.rdtype, 1);
    if (ts.known && !ts.runs.empty()) {
      o.prim = ts.runs[0].first;
      for (const auto& run : ts.runs)
        if (run.first != o.prim) o.prim = 0;
      if (const trace::TypeEntry* t = trace::find_type(rt, o.prim)) o.prim_size = t->size;
    }
    // Epoch of the operation at its origin.
    const int t = e.peer;
    if (auto lk = s.locks.find(t); lk != s.locks.end()) {
      o.epoch = EpochKind::Lock, o.lock_type = lk->second.first, o.epoch_open = lk->second.second;
    } else if (s.lock_all != kNone) {
      o.epoch = EpochKind::LockAll, o.lock_type = trace::kLockShared, o.epoch_open = s.lock_all;
    } else if (s.start != kNone && s.start_group.count(t) != 0) {
      o.epoch = EpochKind::Pscw, o.epoch_open = s.start;
    } else if (s.fence_open) {
      o.epoch = EpochKind::Fence, o.epoch_open = s.fence_idx;
    } else {
      std::string why = s.start != kNone ? " (its MPI_Win_start group does not hold the target)"
                        : s.fence_idx != kNone ? " (the last fence asserted MPI_MODE_NOSUCCEED)"
                                                : "";
      if (first_time("oe" + std::to_string(r) + ":" + std::to_string(e.callsite), "rma-outside-epoch"))
        add("rma-outside-epoch", "RMA operations must be issued inside an access epoch to their target", kSync,
            std::string(trace::op_name(op)) + " on " + rank_text(r) + " to " + rank_text(t) +
                " outside any access epoch" + why,
            {{r, i, "operation"}});
    }
    // An operation MPI refused (its error is the usage checks' mpi-error)
    // accessed nothing.
    if (e.error != 0 || e.t_exit_ns == 0) return;
    s.ops_since_fence = true;
    const std::size_t k = ops_.size();
    ops_.push_back(o);
    op_at_[{r, i}] = k;
    if (o.request != 0) by_request_[{r, o.request}] = k;
    s.pending.push_back(k);
    type_check(rt, i);
  }

  void type_check(const trace::RankTrace& rt, std::size_t i) {
    const Event& e = rt.events[i];
    if (e.op == ops::Fetch_and_op || e.op == ops::Compare_and_swap || e.dtype == trace::kTypeNone) return;
    usage::Signature a = usage::signature(rt, e.dtype, e.scount_arg);
    usage::Signature b = usage::signature(rt, e.rdtype, e.rcount_arg);
    if (!a.known || !b.known || usage::signature_fits(a, b, true)) return;
    // Accumulates may name fewer origin elements than... no: the signatures must match.
    if (!first_time("tm" + std::to_string(rt.rank) + ":" + std::to_string(e.callsite), "rma-type-mismatch")) return;
    add("rma-type-mismatch", "the origin and target type signatures of an RMA operation must match", "MPI-4.0 §12.3",
        std::string(trace::op_name(e.op)) + " on " + rank_text(rt.rank) + ": origin " +
            usage::describe_type(rt, e.dtype, e.scount_arg) + ", target " + usage::describe_type(rt, e.rdtype, e.rcount_arg),
        {{rt.rank, i, "operation"}});
  }

  void check_fence_counts() {
    for (const auto& [win, members] : windows_) {
      // Members: every rank that created the window.
      std::size_t most = 0;
      int most_rank = -1;
      for (const auto& [r, w] : members) {
        const auto& f = windows_fences_[win][r];
        if (f.size() > most) most = f.size(), most_rank = r;
      }
      if (most_rank < 0) continue;
      for (const auto& [r, w] : members) {
        const auto& f = windows_fences_[win][r];
        // Fewer fences on a rank that can fence no more (it freed the window,
        // the run ended by itself, or it hangs in a blocking collective the
        // others never joined): a hung run's ranks may still be behind.
        const auto& evs = rank(r).events;
        const bool stuck_elsewhere = !evs.empty() && evs.back().t_exit_ns == 0 && is(evs.back(), OpClass::Collective);
        if (f.size() == most || (w.free == kNone && !opt_.run_completed && !stuck_elsewhere)) continue;
        const auto& other = windows_fences_[win][most_rank];
        std::vector<Side> sides;
        if (!f.empty()) sides.push_back({r, f.back(), "its last fence"});
        else sides.push_back({r, w.create, "window created here"});
        sides.push_back({most_rank, other[f.size()], "a fence it has no match for"});
        add("rma-unmatched-sync", "MPI_Win_fence is collective over the window's group: every member calls it alike",
            "MPI-4.0 §12.5.1",
            rank_text(r) + " called MPI_Win_fence " + std::to_string(f.size()) + " times on a window, " +
                rank_text(most_rank) + " " + std::to_string(most) + " times",
            std::move(sides));
      }
    }
  }

  // A heap block exposed by MPI_Win_create freed (free()) while the window
  // still exists: MPI and the other ranks may still access it (§12.2.1).
  void check_freed_memory() {
    if (opt_.allocs == nullptr) return;
    for (const auto& [win, members] : windows_)
      for (const auto& [r, w] : members) {
        if (static_cast<std::size_t>(r) >= opt_.allocs->size() || w.create == kNone || w.dynamic || w.size <= 0) continue;
        const Event& c = ev(r, w.create);
        if (c.op != ops::Win_create) continue;  // Win_allocate's memory is MPI's
        const std::uint64_t from = c.t_exit_ns;
        const std::uint64_t until = w.free != kNone ? ev(r, w.free).t_enter_ns : std::numeric_limits<std::uint64_t>::max();
        for (const trace::AllocRecord& a : (*opt_.allocs)[r]) {
          if (a.kind != static_cast<std::uint32_t>(trace::AllocKind::Free) || a.addr != w.base || a.t_ns <= from ||
              a.t_ns >= until)
            continue;
          std::vector<Side> sides{{r, w.create, "window created here"}};
          if (w.free != kNone) sides.push_back({r, w.free, "window freed only here"});
          add("rma-window-memory-freed", "the memory of a window must stay allocated until MPI_Win_free", "MPI-4.0 §12.2.1",
              "the heap block " + rank_text(r) + " exposed in a window was freed before the window", std::move(sides));
          break;
        }
      }
  }

  // Target memory of every operation, in the target's address space.
  void place_ranges() {
    for (Op& o : ops_) {
      auto w = windows_.find(o.win);
      if (w == windows_.end()) continue;
      auto tr = w->second.find(o.target);
      if (tr == w->second.end()) continue;
      const WinRank& t = tr->second;
      if (t.dynamic) {
        o.lo = static_cast<std::uint64_t>(o.disp);  // an address (MPI_Get_address) for dynamic windows
      } else {
        o.lo = t.base + static_cast<std::uint64_t>(o.disp * t.disp_unit);
        if ((o.disp < 0 || o.disp * t.disp_unit + o.span > t.size) &&
            first_time("ow" + std::to_string(o.rank) + ":" + std::to_string(ev(o.rank, o.idx).callsite), "rma-out-of-window"))
          add("rma-out-of-window", "an RMA operation must access memory inside the target's window", "MPI-4.0 §12.3",
              op_text(o.rank, o.idx) + " on " + rank_text(o.rank) + " to " + rank_text(o.target) + " accesses bytes [" +
                  std::to_string(o.disp * t.disp_unit) + ", " + std::to_string(o.disp * t.disp_unit + o.span) +
                  ") of a window of " + std::to_string(t.size) + " bytes",
              {{o.rank, o.idx, "operation"}, {o.target, t.create, "target window created here"}});
      }
      o.hi = o.lo + static_cast<std::uint64_t>(std::max<std::int64_t>(o.span, 1));
      o.range_known = true;
    }
  }

  // ---- 2. causal replay ------------------------------------------------------

  void replay() {
    if (ops_.empty()) return;
    const int n = static_cast<int>(run_.ranks.size());
    // Records that need their clock: operations, their completions, and the
    // records window accesses follow.
    std::vector<std::vector<char>> need(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) need[r].assign(rank(r).events.size(), 0);
    for (const Op& o : ops_) {
      need[o.rank][o.idx] = 1;
      if (o.remote_done != kNone) need[o.rank][o.remote_done] = 1;
      if (o.local_done != kNone) need[o.rank][o.local_done] = 1;
    }
    if (opt_.window_accesses != nullptr)
      for (int r = 0; r < n && static_cast<std::size_t>(r) < opt_.window_accesses->size(); ++r)
        for (const WindowAccess& a : (*opt_.window_accesses)[r])
          if (auto i = access_span(r, a).first; i != kNone) need[r][i] = 1;

    // Dependencies.
    std::map<std::pair<int, std::size_t>, std::vector<std::pair<int, std::size_t>>> deps;
    const trace::Matching m = trace::match_messages(run_);
    for (const auto& msg : m.messages) deps[{msg.recv_done.rank, msg.recv_done.index}].push_back({msg.send.rank, msg.send.index});
    pscw_deps(deps);
    // Synchronizing groups: (key, instance) -> member records.
    std::map<std::pair<std::uint64_t, std::size_t>, std::vector<std::pair<int, std::size_t>>> groups;
    std::map<std::pair<int, std::size_t>, std::pair<std::uint64_t, std::size_t>> group_of_event;
    std::map<std::uint64_t, std::set<int>> members;
    for (int r = 0; r < n; ++r) {
      if (rank(r).rank < 0) continue;
      std::map<std::uint64_t, std::size_t> ordinal;
      const auto& evs = rank(r).events;
      for (std::size_t i = 0; i < evs.size(); ++i) {
        const Event& e = evs[i];
        std::uint64_t key = 0;
        if (is(e, OpClass::Collective) && e.t_exit_ns != 0) key = 1ull << 40 | e.comm;
        else if (is(e, OpClass::RmaSync) && e.op == ops::Win_fence) key = 2ull << 40 | e.comm;
        else if (is(e, OpClass::WinMgmt) && e.op != ops::Win_attach && e.op != ops::Win_detach) key = 2ull << 40 | e.comm;
        else continue;
        members[key].insert(r);
        auto g = std::make_pair(key, ordinal[key]++);
        groups[g].push_back({r, i});
        group_of_event[{r, i}] = g;
      }
    }
    std::vector<std::vector<std::uint32_t>> vc(static_cast<std::size_t>(n), std::vector<std::uint32_t>(static_cast<std::size_t>(n), 0));
    std::vector<std::size_t> cursor(static_cast<std::size_t>(n), 0);
    auto done = [&](int r) { return rank(r).rank < 0 || cursor[r] >= rank(r).events.size(); };
    auto processed = [&](int r, std::size_t i) { return cursor[r] > i; };
    auto step = [&](int r) {  // the cursor's record, its joins already in vc
      const std::size_t i = cursor[r];
      vc[r][r] = static_cast<std::uint32_t>(i + 1);
      if (need[r][i]) clock_[{r, i}] = vc[r];
      ++cursor[r];
    };
    auto join = [&](int r, int s, std::size_t j) {
      auto it = clock_.find({s, j});
      const std::vector<std::uint32_t>* c = it != clock_.end() ? &it->second : nullptr;
      if (c == nullptr) return;
      for (int k = 0; k < n; ++k) vc[r][k] = std::max(vc[r][k], (*c)[k]);
    };
    // Senders and posts are joined through their clocks: keep those.
    for (auto& [at, from] : deps)
      for (auto& f : from) need[f.first][f.second] = 1;
    for (auto& [g, recs] : groups)
      for (auto& [r, i] : recs) need[r][i] = 1;
    bool all_done = false;
    while (!all_done) {
      bool moved = false;
      all_done = true;
      for (int r = 0; r < n; ++r) {
        while (!done(r)) {
          const std::size_t i = cursor[r];
          if (auto g = group_of_event.find({r, i}); g != group_of_event.end()) {
            const auto& recs = groups[g->second];
            const auto& mem = members[g->second.first];
            bool ready = recs.size() >= mem.size();
            for (auto& [s, j] : recs) ready = ready && cursor[s] == j;
            if (!ready) break;
            std::vector<std::uint32_t> joined(static_cast<std::size_t>(n), 0);
            for (auto& [s, j] : recs) {
              vc[s][s] = static_cast<std::uint32_t>(j + 1);
              for (int k = 0; k < n; ++k) joined[k] = std::max(joined[k], vc[s][k]);
            }
            for (auto& [s, j] : recs) {
              vc[s] = joined;
              step(s);
            }
            moved = true;
            continue;
          }
          if (auto d = deps.find({r, i}); d != deps.end()) {
            bool ready = true;
            for (auto& [s, j] : d->second) ready = ready && processed(s, j);
            if (!ready) break;
            for (auto& [s, j] : d->second) join(r, s, j);
          }
          step(r);
          moved = true;
        }
        all_done = all_done && done(r);
      }
      if (!moved && !all_done) {
        // A dependency never satisfied (a member that never arrived, a
        // message the traces lack): the earliest blocked record goes alone.
        int pick = -1;
        for (int r = 0; r < n; ++r)
          if (!done(r) && (pick < 0 || ev(r, cursor[r]).t_enter_ns < ev(pick, cursor[pick]).t_enter_ns)) pick = r;
        if (auto d = deps.find({pick, cursor[pick]}); d != deps.end())
          for (auto& [s, j] : d->second)
            if (processed(s, j)) join(pick, s, j);
        step(pick);
      }
    }
  }

  // post -> start (the j-th start of o naming t waits for the j-th post of t
  // naming o), complete -> wait (the epochs they close).
  void pscw_deps(std::map<std::pair<int, std::size_t>, std::vector<std::pair<int, std::size_t>>>& deps) {
    // (window, from, to) -> records in order
    std::map<std::tuple<std::uint32_t, int, int>, std::vector<std::size_t>> starts, posts, completes, waits;
    for (const auto& rt : run_.ranks) {
      if (rt.rank < 0) continue;
      for (std::size_t i = 0; i < rt.events.size(); ++i) {
        const Event& e = rt.events[i];
        if (!is(e, OpClass::RmaSync) || (e.flags & trace::kFlagChild) != 0) continue;
        if (e.op != ops::Win_start && e.op != ops::Win_post) continue;
        const bool start = e.op == ops::Win_start;
        const std::uint16_t closer = start ? ops::Win_complete : ops::Win_wait;
        std::size_t close = kNone;
        for (std::size_t k = i + 1; k < rt.events.size() && close == kNone; ++k) {
          const Event& c = rt.events[k];
          if (c.comm == e.comm && is(c, OpClass::RmaSync) && (c.flags & trace::kFlagChild) == 0 &&
              (c.op == closer || (!start && c.op == ops::Win_test && (c.flags & trace::kFlagTestFailed) == 0)))
            close = k;
        }
        for (std::size_t k = i + 1; k < rt.events.size() && (rt.events[k].flags & trace::kFlagChild) != 0; ++k) {
          const auto key = std::make_tuple(e.comm, rt.rank, rt.events[k].peer);
          (start ? starts : posts)[key].push_back(k);  // the child: peer's post joins here
          (start ? completes : waits)[key].push_back(close);
        }
      }
    }
    for (const auto& [key, st] : starts) {
      const auto [win, o, t] = key;
      auto p = posts.find({win, t, o});
      if (p == posts.end()) continue;
      const auto& cs = completes[key];
      const auto& ws = waits[{win, t, o}];
      for (std::size_t j = 0; j < st.size() && j < p->second.size(); ++j) {
        deps[{o, st[j]}].push_back({t, p->second[j]});
        if (cs[j] != kNone && ws[j] != kNone) deps[{t, ws[j]}].push_back({o, cs[j]});
      }
    }
  }

  // The position of an access noted after record `seq` (the live state's
  // last top-level record): after that record's children too.
  std::size_t access_index(int r, std::uint64_t seq) const {
    std::size_t i = index_of_seq(r, seq);
    const auto& evs = rank(r).events;
    while (i != kNone && i + 1 < evs.size() && (evs[i + 1].flags & trace::kFlagChild) != 0) ++i;
    return i;
  }

  // Where an access lies among its rank's records: (the last record before
  // it, the first after it; kNone: none). One thread: after record `seq` and
  // its children, before the next. Several threads (WindowAccess::thread):
  // by time, since the trace does not see the threads' own synchronization
  // (OpenMP barriers, joins): before it, the longest run of records from the
  // first on that all returned before the fault; after it, the first record
  // entered after the access ran. A record overlapping [fault, access] is neither.
  std::pair<std::size_t, std::size_t> access_span(int r, const WindowAccess& acc) const {
    if (acc.thread == 0) {
      const std::size_t i = access_index(r, acc.seq);
      return {i, i == kNone ? kNone : i + 1};
    }
    const auto& evs = rank(r).events;
    std::size_t before = kNone, after = kNone;
    bool prefix = true;
    for (std::size_t i = 0; i < evs.size(); ++i) {
      if ((evs[i].flags & trace::kFlagChild) != 0) {
        if (prefix && before != kNone) before = i;
        continue;
      }
      if (prefix && evs[i].t_exit_ns != 0 && evs[i].t_exit_ns < acc.t_fault_ns) before = i;
      else prefix = false;
      if (after == kNone && evs[i].t_enter_ns > std::max(acc.t_access_ns, acc.t_fault_ns)) after = i;
      if (!prefix && after != kNone) break;
    }
    return {before, after};
  }

  std::size_t index_of_seq(int r, std::uint64_t seq) const {
    const auto& evs = rank(r).events;
    if (seq == 0 || evs.empty()) return kNone;
    std::size_t i = std::min<std::size_t>(seq - 1, evs.size() - 1);
    while (i > 0 && evs[i].seq > seq) --i;
    return evs[i].seq <= seq ? i : kNone;
  }

  const std::vector<std::uint32_t>* clock(int r, std::size_t i) const {
    auto it = clock_.find({r, i});
    return it != clock_.end() ? &it->second : nullptr;
  }
  // Record (a, x) happens before record (b, y).
  bool hb(int a, std::size_t x, int b, std::size_t y) const {
    if (x == kNone || y == kNone) return false;
    if (a == b) return x < y;
    const auto* c = clock(b, y);
    return c != nullptr && (*c)[a] >= x + 1;
  }

  // ---- 3. conflicts ------------------------------------------------------------

  bool compatible_atomics(const Op& a, const Op& b) const {
    if (!a.atomic || !b.atomic) return false;
    if (a.prim == 0 || a.prim != b.prim) return false;
    // Element-wise atomicity: the elements must coincide, not straddle.
    if (a.prim_size > 0 && (a.lo > b.lo ? a.lo - b.lo : b.lo - a.lo) % static_cast<std::uint64_t>(a.prim_size) != 0)
      return false;
    const auto no_op = static_cast<std::uint8_t>(trace::ReduceOp::NoOp);
    return a.rop == b.rop || a.rop == no_op || b.rop == no_op;
  }

  bool lock_excluded(const Op& a, const Op& b) const {
    const bool la = a.epoch == EpochKind::Lock || a.epoch == EpochKind::LockAll;
    const bool lb = b.epoch == EpochKind::Lock || b.epoch == EpochKind::LockAll;
    if (!la || !lb) return false;
    if (a.rank == b.rank && a.epoch_open == b.epoch_open) return false;  // one epoch: program order only
    return a.lock_type == trace::kLockExclusive || b.lock_type == trace::kLockExclusive;
  }

  std::string access_text(const Op& o) const {
    const std::string name = op_text(o.rank, o.idx);
    return name + " by " + rank_text(o.rank);
  }

  void check_conflicts() {
    std::map<std::pair<std::uint32_t, int>, std::vector<std::size_t>> buckets;
    for (std::size_t k = 0; k < ops_.size(); ++k)
      if (ops_[k].range_known) buckets[{ops_[k].win, ops_[k].target}].push_back(k);
    for (auto& [key, v] : buckets) {
      std::sort(v.begin(), v.end(), [&](std::size_t x, std::size_t y) { return ops_[x].lo < ops_[y].lo; });
      std::size_t pairs = 0;
      for (std::size_t i = 0; i < v.size() && pairs < kMaxPairsPerBucket; ++i) {
        const Op& a = ops_[v[i]];
        for (std::size_t j = i + 1; j < v.size() && ops_[v[j]].lo < a.hi && pairs < kMaxPairsPerBucket; ++j, ++pairs) {
          const Op& b = ops_[v[j]];
          if (!a.writes_target && !b.writes_target) continue;
          if (compatible_atomics(a, b) || lock_excluded(a, b)) continue;
          if (hb(a.rank, a.remote_done, b.rank, b.idx) || hb(b.rank, b.remote_done, a.rank, a.idx)) continue;
          const Op& first = a.rank < b.rank || (a.rank == b.rank && a.idx < b.idx) ? a : b;
          const Op& second = &first == &a ? b : a;
          const std::string dedupe = "c" + std::to_string(ev(first.rank, first.idx).callsite) + ":" + std::to_string(first.rank) +
                                     ":" + std::to_string(ev(second.rank, second.idx).callsite) + ":" + std::to_string(second.rank);
          if (!first_time(dedupe, "rma-conflict")) continue;
          add("rma-conflict",
              "conflicting accesses to one window location need synchronization between them; only accumulates with the "
              "same op (or MPI_NO_OP) on the same basic type may overlap",
              kSemantics,
              access_text(first) + " and " + access_text(second) + " access overlapping memory of " + rank_text(first.target) +
                  "'s window in one epoch without synchronization ordering them",
              {{first.rank, first.idx, "first access"}, {second.rank, second.idx, "second access"}});
        }
      }
    }
  }

  // The lock the target itself holds on its own window at record `i` (type, record), if any.
  std::pair<int, std::size_t> own_lock(int t, std::uint32_t win, std::size_t i) const {
    std::pair<int, std::size_t> held{0, kNone};
    const auto& evs = rank(t).events;
    for (std::size_t k = 0; k <= i && k < evs.size(); ++k) {
      const Event& e = evs[k];
      if (!is(e, OpClass::RmaSync) || e.comm != win) continue;
      if (e.op == ops::Win_lock && e.peer == t) held = {e.tag, k};
      else if (e.op == ops::Win_unlock && e.peer == t) held = {0, kNone};
      else if (e.op == ops::Win_lock_all) held = {trace::kLockShared, k};
      else if (e.op == ops::Win_unlock_all) held = {0, kNone};
    }
    return held;
  }

  void check_local_accesses() {
    if (opt_.window_accesses == nullptr) return;
    for (std::size_t t = 0; t < opt_.window_accesses->size() && t < run_.ranks.size(); ++t) {
      const int tr = static_cast<int>(t);
      for (const WindowAccess& acc : (*opt_.window_accesses)[t]) {
        const auto [li, next] = access_span(tr, acc);
        if (li == kNone) continue;
        if (acc.thread != 0) thread_origin_buffers(tr, acc, li, next);
        for (const Op& a : ops_) {
          if (!a.range_known || a.target != tr || a.win != acc.window || acc.address < a.lo || acc.address >= a.hi) continue;
          if (!acc.write && !a.writes_target) continue;
          // The operation completed before the access, or the access came before the operation's issue.
          if (a.remote_done != kNone) {
            if (a.rank == tr ? a.remote_done <= li : hb(a.rank, a.remote_done, tr, li)) continue;
          }
          if (a.rank == tr ? next != kNone && a.idx >= next : hb(tr, next, a.rank, a.idx)) continue;
          if (a.epoch == EpochKind::Lock || a.epoch == EpochKind::LockAll) {
            auto [type, at] = own_lock(tr, acc.window, li);
            if (at != kNone && (type == trace::kLockExclusive || a.lock_type == trace::kLockExclusive) &&
                !(a.rank == tr && a.epoch_open == at))
              continue;
          }
          const std::uint64_t pc = acc.frames.empty() ? 0 : acc.frames[0];
          if (!first_time("l" + std::to_string(ev(a.rank, a.idx).callsite) + ":" + std::to_string(a.rank) + ":" +
                              std::to_string(pc) + ":" + std::to_string(tr),
                          "rma-conflict"))
            continue;
          Issue is;
          is.kind = "rma-conflict";
          is.rule = "the target's own loads and stores of window memory conflict with RMA operations on it unless "
                    "synchronization orders them";
          is.section = kSemantics;
          is.message = std::string(acc.write ? "a store" : "a load") + " by " + rank_text(tr) + " to its window memory and " +
                       access_text(a) + " on the same location in one epoch without synchronization ordering them";
          is.sides = {{a.rank, a.idx, "RMA operation"}, {tr, li, "the target's last MPI call before its access"}};
          is.stack_rank = tr;
          is.stack = acc.frames;
          out_.push_back(std::move(is));
        }
      }
    }
  }

  const char* const kOriginRule = "an RMA operation's origin buffer must not be modified (Put, Accumulate) nor accessed (Get, "
                                  "result buffers) until the operation completes at the origin";
  const char* const kOriginSection = "MPI-4.0 §12.3, §12.5";

  // A thread's access to window memory of its rank that is also the origin
  // buffer of an operation another thread of the rank issued (OpenMP around
  // one-sided calls): the buffer a Get or fetching operation writes, loaded
  // or stored, or the one a Put or accumulate reads, stored, while neither
  // the operation's completion returned before the fault nor its issue came
  // after the access ran (access_span). One thread never gets here: its own
  // accesses between issue and completion are the guarded buffers' lines.
  void thread_origin_buffers(int r, const WindowAccess& acc, std::size_t li, std::size_t next) {
    auto covers = [&](std::uint64_t p, std::int64_t n) {
      return p != 0 && n > 0 && acc.address >= p && acc.address < p + static_cast<std::uint64_t>(n);
    };
    for (const Op& o : ops_) {
      if (o.rank != r || !(covers(o.wbuf, o.wbytes) || (acc.write && covers(o.obuf, o.obytes)))) continue;
      const std::size_t done = o.local_done != kNone ? o.local_done : o.remote_done;
      if ((done != kNone && done <= li) || (next != kNone && o.idx >= next)) continue;
      const std::uint64_t pc = acc.frames.empty() ? 0 : acc.frames[0];
      if (!first_time("a" + std::to_string(ev(r, o.idx).callsite) + ":" + std::to_string(pc), "rma-origin-buffer")) continue;
      Issue is;
      is.kind = "rma-origin-buffer";
      is.rule = kOriginRule;
      is.section = kOriginSection;
      is.message = std::string(acc.write ? "a store to" : "a load of") + " the origin buffer of " + access_text(o) +
                   " by a thread of the rank, before the operation completed";
      is.sides = {{r, o.idx, "operation"}};
      if (done != kNone) is.sides.push_back({r, done, "completed here"});
      is.stack_rank = r;
      is.stack = acc.frames;
      out_.push_back(std::move(is));
    }
  }

  // Origin buffers: changed (hash) or touched (guard) before the operation
  // completed at the origin, or shared by two pending operations one of
  // which writes it.
  void check_origin_buffers() {
    auto op_of = [&](int r, std::uint64_t post_seq) -> const Op* {
      const std::size_t i = index_of_seq(r, post_seq);
      if (i == kNone || ev(r, i).seq != post_seq) return nullptr;
      auto it = op_at_.find({r, i});
      return it != op_at_.end() ? &ops_[it->second] : nullptr;
    };
    const char* rule = kOriginRule;
    const char* section = kOriginSection;
    if (opt_.modified != nullptr)
      for (std::size_t r = 0; r < opt_.modified->size(); ++r)
        for (const auto& [post, done] : (*opt_.modified)[r]) {
          const Op* o = op_of(static_cast<int>(r), post);
          if (o == nullptr || !first_time("m" + std::to_string(ev(o->rank, o->idx).callsite) + ":" + std::to_string(r), "rma-origin-buffer"))
            continue;
          std::vector<Side> sides{{o->rank, o->idx, "operation"}};
          if (auto d = index_of_seq(o->rank, done); d != kNone) sides.push_back({o->rank, d, "completed here"});
          add("rma-origin-buffer", rule, section,
              "the origin buffer of " + access_text(*o) + " changed before the operation completed", std::move(sides));
        }
    if (opt_.accessed != nullptr)
      for (std::size_t r = 0; r < opt_.accessed->size(); ++r)
        for (const auto& a : (*opt_.accessed)[r]) {
          const Op* o = op_of(static_cast<int>(r), a.post_seq);
          const std::uint64_t pc = a.frames.empty() ? 0 : a.frames[0];
          if (o == nullptr || !first_time("a" + std::to_string(ev(o->rank, o->idx).callsite) + ":" + std::to_string(pc), "rma-origin-buffer"))
            continue;
          Issue is;
          is.kind = "rma-origin-buffer";
          is.rule = rule;
          is.section = section;
          is.message = std::string(a.write ? "a store to" : "a load of") + " the buffer " + access_text(*o) +
                       " writes, before the operation completed";
          is.sides = {{o->rank, o->idx, "operation"}};
          if (o->local_done != kNone) is.sides.push_back({o->rank, o->local_done, "completed here"});
          is.stack_rank = static_cast<int>(r);
          is.stack = a.frames;
          out_.push_back(std::move(is));
        }
    // Two pending operations of one origin sharing a buffer one of them writes.
    std::map<int, std::vector<std::size_t>> by_rank;
    for (std::size_t k = 0; k < ops_.size(); ++k) by_rank[ops_[k].rank].push_back(k);
    for (auto& [r, v] : by_rank) {
      for (std::size_t x = 0; x < v.size(); ++x) {
        const Op& a = ops_[v[x]];
        const std::size_t a_done = a.local_done != kNone ? a.local_done : a.remote_done;
        for (std::size_t y = x + 1; y < v.size() && y < x + 256; ++y) {
          const Op& b = ops_[v[y]];
          if (a_done != kNone && a_done < b.idx) break;
          auto overlap = [](std::uint64_t p, std::int64_t n, std::uint64_t q, std::int64_t m) {
            return p != 0 && q != 0 && n > 0 && m > 0 && p < q + static_cast<std::uint64_t>(m) && q < p + static_cast<std::uint64_t>(n);
          };
          const bool clash = overlap(a.wbuf, a.wbytes, b.wbuf, b.wbytes) || overlap(a.wbuf, a.wbytes, b.obuf, b.obytes) ||
                             overlap(a.obuf, a.obytes, b.wbuf, b.wbytes);
          if (!clash) continue;
          if (!first_time("p" + std::to_string(ev(r, a.idx).callsite) + ":" + std::to_string(ev(r, b.idx).callsite) + ":" + std::to_string(r),
                          "rma-origin-buffer"))
            continue;
          add("rma-origin-buffer", rule, section,
              access_text(b) + " uses the origin buffer of " + access_text(a) + ", which writes it and has not completed",
              {{r, a.idx, "first operation"}, {r, b.idx, "second operation"}});
        }
      }
    }
  }
};

}  // namespace

bool has_rma(const trace::RunTrace& run) {
  for (const auto& rt : run.ranks)
    for (const Event& e : rt.events)
      if (is(e, OpClass::WinMgmt) || is(e, OpClass::Rma) || is(e, OpClass::RmaSync)) return true;
  return false;
}

std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options) {
  if (!has_rma(run)) return {};
  return Checker(run, options).run();
}

}  // namespace scalefuzz::detectors::rma
