// Unit tests of the one-sided checks on hand-built traces (no MPI); the
// end-to-end corpus is tests/rma (RmaCorpus).
#include <gtest/gtest.h>

#include <algorithm>

#include "scalefuzz/detectors/rma.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "scalefuzz/trace/testing/trace_builder.hpp"

namespace scalefuzz::detectors::rma {
namespace {

using trace::Event;
using trace::OpClass;
namespace ops = trace::ops;

constexpr std::uint32_t kInt = 0x4c000405, kWin = 0x1234;

struct Builder : trace::testing::TraceBuilder {
  explicit Builder(int n) : TraceBuilder(n, {trace::testing::predefined_type(kInt, "MPI_INT", 4)}) {}
  void create_all(std::int64_t bytes = 40) {
    for (auto& rt : run.ranks) {
      Event& e = add(rt.rank, ops::Win_allocate, OpClass::WinMgmt);
      e.comm = kWin;
      e.buffer = 0x10000 * (rt.rank + 1);
      e.bytes = bytes;
      e.count = 4;
    }
  }
  void all(std::uint16_t op, OpClass c) {
    for (auto& rt : run.ranks) add(rt.rank, op, c).comm = kWin;
  }
  Event& rma(int r, std::uint16_t op, int target, std::int64_t disp, trace::ReduceOp rop = trace::ReduceOp::None) {
    Event& e = add(r, op, OpClass::Rma);
    e.comm = kWin;
    e.peer = target;
    e.count = disp;
    e.scount_arg = e.rcount_arg = 1;
    e.dtype = e.rdtype = kInt;
    e.bytes = e.status_bytes = 4;
    e.buffer = 0x900000 + static_cast<std::uint64_t>(r) * 0x1000 + e.seq * 64;
    e.reduce_op = static_cast<std::uint8_t>(rop);
    return e;
  }
  void fence() { all(ops::Win_fence, OpClass::RmaSync); }
  void free_windows() { all(ops::Win_free, OpClass::WinMgmt); }
  std::vector<Issue> check() { return check_run(run); }
  // n ranks that allocated the window and opened a fence epoch (most tests start so).
  static Builder in_fence_epoch(int n) {
    Builder b(n);
    b.create_all();
    b.fence();
    return b;
  }
};

std::vector<std::string> kinds(const std::vector<Issue>& v) {
  std::vector<std::string> k;
  for (const auto& i : v) k.push_back(i.kind);
  std::sort(k.begin(), k.end());
  return k;
}

TEST(Rma, PutsOfTwoOriginsToOneLocationInOneFenceEpochConflict) {
  auto b = Builder::in_fence_epoch(3);
  b.rma(0, ops::Put, 2, 1);
  b.rma(1, ops::Put, 2, 1);
  b.fence();
  b.free_windows();
  auto issues = b.check();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"rma-conflict"});
  EXPECT_EQ(issues[0].sides[0].rank, 0);
  EXPECT_EQ(issues[0].sides[1].rank, 1);
}

TEST(Rma, PutsInSuccessiveFenceEpochsOrOnOtherLocationsDoNotConflict) {
  auto b = Builder::in_fence_epoch(3);
  b.rma(0, ops::Put, 2, 1);
  b.rma(1, ops::Put, 2, 2);
  b.fence();
  b.rma(1, ops::Put, 2, 1);
  b.fence();
  b.free_windows();
  EXPECT_TRUE(b.check().empty());
}

TEST(Rma, AccumulatesOfOneOpDoNotConflictOfTwoOpsDo) {
  for (bool same : {true, false}) {
    auto b = Builder::in_fence_epoch(3);
    b.rma(0, ops::Accumulate, 2, 0, trace::ReduceOp::Sum);
    b.rma(1, ops::Accumulate, 2, 0, same ? trace::ReduceOp::Sum : trace::ReduceOp::Max);
    b.fence();
    b.free_windows();
    EXPECT_EQ(b.check().size(), same ? 0u : 1u) << same;
  }
}

TEST(Rma, ExclusiveLocksOrderEpochsSharedOnesDoNot) {
  for (int type : {trace::kLockExclusive, trace::kLockShared}) {
    Builder b(3);
    b.create_all();
    for (int r : {0, 1}) {
      Event& l = b.add(r, ops::Win_lock, OpClass::RmaSync);
      l.comm = kWin, l.peer = 2, l.tag = type;
      b.rma(r, ops::Put, 2, 0);
      Event& u = b.add(r, ops::Win_unlock, OpClass::RmaSync);
      u.comm = kWin, u.peer = 2;
    }
    b.free_windows();
    EXPECT_EQ(kinds(b.check()), type == trace::kLockExclusive ? std::vector<std::string>{} : std::vector<std::string>{"rma-conflict"});
  }
}

TEST(Rma, OperationOutsideAnEpochUnmatchedUnlockAndLeakedWindow) {
  Builder b(2);
  b.create_all();
  b.rma(0, ops::Put, 1, 0);
  Event& u = b.add(1, ops::Win_unlock, OpClass::RmaSync);
  u.comm = kWin, u.peer = 0;
  for (int r : {0, 1}) b.add(r, ops::Finalize, OpClass::Finalize);
  auto k = kinds(b.check());
  EXPECT_EQ(k, (std::vector<std::string>{"leaked-window", "leaked-window", "rma-outside-epoch", "rma-unmatched-sync"}));
}

TEST(Rma, LoadOfTheTargetConflictsOnlyInsideTheEpoch) {
  for (bool inside : {true, false}) {
    auto b = Builder::in_fence_epoch(2);  // its fence: seq 3 on both
    b.rma(0, ops::Put, 1, 2);
    b.fence();
    b.free_windows();
    WindowAccesses acc(2);
    WindowAccess a;
    a.window = kWin;
    a.seq = inside ? 3u : 4u;
    a.address = 0x20000 + 8;
    a.frames = {0x401000};
    acc[1].push_back(a);
    Options o;
    o.window_accesses = &acc;
    EXPECT_EQ(check_run(b.run, o).size(), inside ? 1u : 0u) << inside;
  }
}

}  // namespace
}  // namespace scalefuzz::detectors::rma

namespace scalefuzz::detectors::rma {
namespace {

// A load of window memory noted by the threaded guard (thread, fault and access times).
WindowAccess thread_access(std::uint64_t seq, std::uint64_t thread, std::uint64_t t_fault, std::uint64_t t_access,
                           std::uint64_t address) {
  return {kWin, false, seq, thread, t_fault, t_access, address, {0x401000}};
}

// A thread's load of its rank's window (OpenMP around MPI calls): ordered
// against the rank's other threads' records by time. Rank 0 puts under an
// exclusive lock and then enters the barrier; rank 1's main thread is in
// that barrier while another thread loads the location: the load overlaps
// the barrier, so nothing orders it after the Put. A load after the barrier
// returned is ordered (the barrier joins rank 0's unlock).
TEST(Rma, ThreadsLoadIsOrderedByTheRecordsThatReturnedBeforeIt) {
  for (bool during_barrier : {true, false}) {
    Builder b(2);
    b.create_all();
    for (int r : {0, 1}) b.add(r, ops::Barrier, OpClass::Collective).comm = trace::kCommWorld;
    Event& l = b.add(0, ops::Win_lock, OpClass::RmaSync);
    l.comm = kWin, l.peer = 1, l.tag = trace::kLockExclusive;
    b.rma(0, ops::Put, 1, 0);
    Event& u = b.add(0, ops::Win_unlock, OpClass::RmaSync);
    u.comm = kWin, u.peer = 1;
    b.add(0, ops::Barrier, OpClass::Collective).comm = trace::kCommWorld;
    Event& bar = b.add(1, ops::Barrier, OpClass::Collective);  // rank 1, seq 4: entered at 40
    bar.comm = trace::kCommWorld;
    bar.t_exit_ns = 400;
    b.free_windows();
    WindowAccesses acc(2);
    // seq 4: the last record entered, the barrier
    acc[1].push_back(thread_access(4, 7, during_barrier ? 200 : 450, during_barrier ? 200 : 450, 0x20000));
    Options o;
    o.window_accesses = &acc;
    const auto k = kinds(check_run(b.run, o));
    EXPECT_EQ(k, during_barrier ? std::vector<std::string>{"rma-conflict"} : std::vector<std::string>{}) << during_barrier;
    // The same access seen by a rank of one thread (thread 0): after the barrier by the trace's order.
    acc[1][0].thread = 0;
    EXPECT_TRUE(check_run(b.run, o).empty());
  }
}

// A thread's load of window memory that another thread's pending Get
// writes (its origin buffer), held by the injector from before the Get to
// after the unlock: nothing orders them. A fault after the unlock returned is
// ordered.
TEST(Rma, ThreadsLoadOfAPendingGetsOriginBufferIsReported) {
  for (bool pending : {true, false}) {
    Builder b(2);
    b.create_all();  // rank 0's window at 0x10000
    Event& l = b.add(0, ops::Win_lock, OpClass::RmaSync);  // entered at 30
    l.comm = kWin, l.peer = 1, l.tag = trace::kLockExclusive;
    b.rma(0, ops::Get, 1, 0).buffer = 0x10000;  // 40
    Event& u = b.add(0, ops::Win_unlock, OpClass::RmaSync);  // 50, left at 55
    u.comm = kWin, u.peer = 1;
    b.free_windows();
    WindowAccesses acc(2);
    acc[0].push_back(thread_access(3, 5, pending ? 38 : 58, 70, 0x10000));
    Options o;
    o.window_accesses = &acc;
    const auto k = kinds(check_run(b.run, o));
    EXPECT_EQ(k, pending ? std::vector<std::string>{"rma-origin-buffer"} : std::vector<std::string>{}) << pending;
  }
}

// A NULL origin buffer for elements of a predefined datatype (MPI-CorrBench's
// ArgError-MPIGet-buffer / MPIPut-buffer): an error where MPI accepted the
// call (Open MPI does not check it); not where MPI refused it (MPICH: the
// usage checks' mpi-error), nor for a derived datatype (MPI_BOTTOM with
// absolute addresses), nor for a count of 0.
TEST(Rma, NullOriginBufferOfAPredefinedTypeIsAnInvalidArgument) {
  constexpr std::uint32_t kAbsolute = 0x7;  // a derived type's key: an MPI_BOTTOM-based description
  for (int variant = 0; variant < 5; ++variant) {
    Builder b(2);
    trace::TypeEntry derived;
    derived.key = kAbsolute, derived.size = 4, derived.extent = 4, derived.name = "-";
    b.run.ranks[0].types.push_back(derived);
    b.create_all();
    b.fence();
    Event& e = b.rma(0, variant == 4 ? ops::Put : ops::Get, 1, 0);
    e.buffer = 0;
    if (variant == 1) e.error = 12;  // MPI refused it
    if (variant == 2) e.dtype = kAbsolute;
    if (variant == 3) e.scount_arg = 0, e.bytes = 0;
    b.fence();
    b.free_windows();
    const auto issues = b.check();
    const bool flagged = std::count_if(issues.begin(), issues.end(),
                                       [](const Issue& i) { return i.kind == "invalid-argument"; }) == 1;
    EXPECT_EQ(flagged, variant == 0 || variant == 4) << "variant " << variant;
  }
}

}  // namespace
}  // namespace scalefuzz::detectors::rma
