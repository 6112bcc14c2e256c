// Unit tests of the usage checks on hand-built traces (no MPI).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "scalefuzz/trace/testing/trace_builder.hpp"

namespace scalefuzz::detectors::usage {
namespace {

using trace::Event;
using trace::OpClass;
namespace ops = trace::ops;

constexpr std::uint32_t kInt = 0x4c000405, kFloat = 0x4c00040a, kDouble = 0x4c00080b, kChar = 0x4c000101;

using trace::testing::predefined_type;

struct Builder : trace::testing::TraceBuilder {
  explicit Builder(int n)
      : TraceBuilder(n, {predefined_type(kInt, "MPI_INT", 4), predefined_type(kFloat, "MPI_FLOAT", 4),
                         predefined_type(kDouble, "MPI_DOUBLE", 8)}) {}
  // What the usage checks find once every rank finalized.
  std::vector<Issue> finalized_issues() {
    finalize();
    return check_run(run);
  }
  // A call on `count` elements of `type`, counted as 4 bytes each whatever the type.
  Event& typed(int r, std::uint16_t op, OpClass c, std::uint32_t type, int count) {
    Event& e = add(r, op, c);
    e.dtype = type;
    e.scount_arg = count;
    e.count = count;
    e.bytes = 4 * count;
    return e;
  }
  Event& coll(int r, std::uint16_t op, std::uint32_t type, int count, int root = trace::kNoPeer,
              trace::ReduceOp rop = trace::ReduceOp::None) {
    Event& e = typed(r, op, OpClass::Collective, type, count);
    e.comm = trace::kCommWorld;
    e.root = root;
    e.reduce_op = static_cast<std::uint8_t>(rop);
    return e;
  }
  Event& send(int r, int to, std::uint32_t type, int count, int tag = 0) {
    Event& e = typed(r, ops::Send, OpClass::Send, type, count);
    e.peer = to;
    e.tag = tag;
    return e;
  }
  Event& recv(int r, int from, std::uint32_t type, int count, int tag = 0) {
    Event& e = typed(r, ops::Recv, OpClass::Recv, type, count);
    e.peer = from;
    e.tag = tag;
    e.status_source = from;
    e.status_tag = tag;
    e.status_bytes = 4 * count;
    return e;
  }
  // A nonblocking post (Isend/Irecv) with its request id.
  Event& post(int r, bool send, int peer, int tag, std::uint64_t request) {
    Event& e = send ? add(r, ops::Isend, OpClass::Isend) : add(r, ops::Irecv, OpClass::Irecv);
    e.peer = peer;
    e.tag = tag;
    e.request = request;
    return e;
  }
  // A completion (Wait) of `request` with its RequestDone child; the child.
  Event& wait_done(int r, std::uint64_t request) {
    add(r, ops::Wait, OpClass::Completion);
    Event& d = add(r, ops::Wait, OpClass::RequestDone);
    d.request = request;
    d.flags |= trace::kFlagChild;
    return d;
  }
  void free_request(int r, std::uint64_t request, std::uint16_t op = ops::Request_free) {
    add(r, op, OpClass::RequestFree).request = request;
  }
  void finalize() {
    for (int r = 0; r < static_cast<int>(run.ranks.size()); ++r) add(r, ops::Finalize, OpClass::Finalize);
  }
};

std::vector<std::string> kinds(const std::vector<Issue>& issues) {
  std::vector<std::string> k;
  for (const auto& i : issues) k.push_back(i.kind);
  return k;
}

TEST(UsageCollectives, AgreeingReduceIsClean) {
  Builder b(3);
  for (int r = 0; r < 3; ++r) b.coll(r, ops::Reduce, kInt, 4, 0, trace::ReduceOp::Sum);
  EXPECT_TRUE(b.finalized_issues().empty());
}

TEST(UsageCollectives, RootOpAndTypeMismatches) {
  {
    Builder b(2);
    b.coll(0, ops::Reduce, kInt, 4, 0, trace::ReduceOp::Sum);
    b.coll(1, ops::Reduce, kInt, 4, 1, trace::ReduceOp::Sum);
    EXPECT_EQ(kinds(b.finalized_issues()), std::vector<std::string>{"collective-root-mismatch"});
  }
  {
    Builder b(2);
    b.coll(0, ops::Allreduce, kInt, 4, trace::kNoPeer, trace::ReduceOp::Sum);
    b.coll(1, ops::Allreduce, kInt, 4, trace::kNoPeer, trace::ReduceOp::Max);
    auto issues = b.finalized_issues();
    ASSERT_EQ(kinds(issues), std::vector<std::string>{"collective-op-mismatch"});
    EXPECT_EQ(issues[0].sides.size(), 2u);
  }
  {
    Builder b(2);
    b.coll(0, ops::Bcast, kInt, 4, 0);
    b.coll(1, ops::Bcast, kFloat, 4, 0);  // same bytes, different signature
    EXPECT_EQ(kinds(b.finalized_issues()), std::vector<std::string>{"collective-type-mismatch"});
  }
  {
    Builder b(2);
    b.coll(0, ops::Allreduce, kInt, 4, trace::kNoPeer, trace::ReduceOp::Sum);
    b.coll(1, ops::Allreduce, kInt, 3, trace::kNoPeer, trace::ReduceOp::Sum);
    EXPECT_EQ(kinds(b.finalized_issues()), std::vector<std::string>{"collective-type-mismatch"});
  }
}

TEST(UsageCollectives, OrderAndMissing) {
  {
    Builder b(2);
    b.coll(0, ops::Bcast, kInt, 1, 0);
    b.coll(0, ops::Barrier, trace::kTypeNone, 0);
    b.coll(1, ops::Barrier, trace::kTypeNone, 0);
    b.coll(1, ops::Bcast, kInt, 1, 0);
    auto issues = b.finalized_issues();
    ASSERT_EQ(kinds(issues), std::vector<std::string>{"collective-order-mismatch"});
    EXPECT_EQ(issues[0].sides[0].rank, 1);
  }
  {
    Builder b(2);
    b.coll(0, ops::Barrier, trace::kTypeNone, 0);
    EXPECT_EQ(kinds(b.finalized_issues()), std::vector<std::string>{"collective-missing"});
  }
}

TEST(UsageP2p, TypeSignatureMismatchNotByteCount) {
  Builder b(2);
  b.send(0, 1, kInt, 2);
  b.recv(1, 0, kFloat, 2);
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"type-mismatch"});
  EXPECT_EQ(issues[0].sides[0].rank, 1);
  EXPECT_EQ(issues[0].sides[1].rank, 0);

  Builder ok(2);
  ok.send(0, 1, kInt, 2);
  ok.recv(1, 0, kInt, 8);  // a shorter message into a larger receive is fine
  ok.finalize();
  EXPECT_TRUE(check_run(ok.run).empty());
}

TEST(UsageP2p, DerivedTypesFlattenToTheirPrimitives) {
  Builder b(2);
  trace::TypeEntry two_ints;
  two_ints.key = 1;
  two_ints.name = "-";
  two_ints.size = two_ints.extent = 8;
  two_ints.signature_known = true;
  two_ints.runs = {{kInt, 2}};
  b.run.ranks[0].types.push_back(two_ints);
  b.send(0, 1, 1, 3);
  b.recv(1, 0, kInt, 6);  // 3 x {2 x int} == 6 x int
  EXPECT_TRUE(b.finalized_issues().empty());
  Signature s = signature(b.run.ranks[0], 1, 3);
  ASSERT_TRUE(s.known);
  EXPECT_EQ(s.runs, (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{kInt, 6}}));
}

TEST(UsageFinalize, PendingRequestUnmatchedSendMissingFinalize) {
  Builder b(2);
  Event& is = b.post(0, true, 1, 5, 7);
  is.dtype = kInt;
  is.scount_arg = 1;
  is.bytes = 4;
  b.send(1, 0, kInt, 1, 9);  // never received
  auto k = kinds(b.finalized_issues());
  EXPECT_NE(std::find(k.begin(), k.end(), "pending-request"), k.end());
  EXPECT_NE(std::find(k.begin(), k.end(), "unmatched-send"), k.end());

  Builder m(2);
  m.add(0, ops::Finalize, OpClass::Finalize);
  EXPECT_EQ(kinds(check_run(m.run)), std::vector<std::string>{"missing-finalize"});
  Options hung;
  hung.run_completed = false;
  EXPECT_TRUE(check_run(m.run, hung).empty());
}

TEST(UsageFinalize, LeakedHandlesAndFreedOnesAreNot) {
  Builder b(1);
  Event& g = b.add(0, ops::Comm_group, OpClass::HandleNew);
  g.tag = static_cast<std::int32_t>(trace::HandleKind::Group);
  g.buffer = 0x88000000;
  Event& t = b.add(0, ops::Type_contiguous, OpClass::HandleNew);
  t.tag = static_cast<std::int32_t>(trace::HandleKind::Datatype);
  t.buffer = 0x8c000001;
  Event& f = b.add(0, ops::Type_free, OpClass::HandleFree);
  f.tag = static_cast<std::int32_t>(trace::HandleKind::Datatype);
  f.buffer = 0x8c000001;
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"leaked-handle"});
  // Created once and kept: MPI_Finalize does not free it, and that is not
  // erroneous (MPI-4.1 §11.2.2): info.
  EXPECT_EQ(issues[0].severity, Severity::Info);
}

TEST(UsageFinalize, HandlesCreatedAgainAndAgainAtOneSiteAreAGrowingLeak) {
  Builder b(2);
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < 5; ++k) {  // one call site (3), five communicators, none freed
      Event& c = b.add(r, ops::Comm_split, OpClass::CommMgmt);
      c.callsite = 3;
      c.comm = 100 + static_cast<std::uint32_t>(k);
      c.tag = 0;  // the colour (the recorder writes it there; a negative one is an invalid argument)
    }
    Event& once = b.add(r, ops::Comm_dup, OpClass::CommMgmt);  // another site, once
    once.callsite = 4;
    once.comm = 200;
  }
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), (std::vector<std::string>{"leaked-handle", "leaked-handle", "leaked-handle", "leaked-handle"}));
  int warnings = 0, infos = 0;
  for (const auto& is : issues) {
    const bool split = b.run.ranks[static_cast<std::size_t>(is.sides[0].rank)].events[is.sides[0].event].op == ops::Comm_split;
    EXPECT_EQ(is.severity, split ? Severity::Warning : Severity::Info) << is.message;
    if (split) EXPECT_NE(is.message.find("5 communicators"), std::string::npos) << is.message;
    warnings += is.severity == Severity::Warning;
    infos += is.severity == Severity::Info;
  }
  EXPECT_EQ(warnings, 2);  // one per rank and site, not one per handle
  EXPECT_EQ(infos, 2);
}

TEST(UsageFinalize, AfterAnAbortNoRankIsBlamedForNotFinalizing) {
  Builder b(3);
  Event& abort = b.add(0, ops::Abort, OpClass::Abort);
  abort.t_exit_ns = 0;  // MPI_Abort never returns
  abort.count = 3;
  b.run.ranks[0].last_event_in_progress = true;
  b.run.ranks[0].exited_without_finalize = true;
  for (int r = 1; r < 3; ++r) {  // killed by the launcher inside MPI_Barrier
    b.coll(r, ops::Barrier, trace::kTypeNone, 0).t_exit_ns = 0;
    b.run.ranks[static_cast<std::size_t>(r)].last_event_in_progress = true;
    b.run.ranks[static_cast<std::size_t>(r)].exited_without_finalize = true;
  }
  Options aborted;
  aborted.run_completed = false;
  EXPECT_EQ(kinds(check_run(b.run, aborted)), std::vector<std::string>{});
  // Without the abort record, rank 1 ending inside MPI_Barrier is still an argument error.
  b.run.ranks[0].events.pop_back();
  b.run.ranks[0].last_event_in_progress = false;
  const auto found = kinds(check_run(b.run, aborted));
  EXPECT_NE(std::find(found.begin(), found.end(), "invalid-argument"), found.end());
}

TEST(UsageArguments, AliasedAndOverlappingBuffers) {
  Builder b(1);
  Event& a = b.coll(0, ops::Allreduce, kInt, 4, trace::kNoPeer, trace::ReduceOp::Sum);
  a.buffer = a.rbuffer = 0x1000;
  Event& r1 = b.add(0, ops::Irecv, OpClass::Irecv);
  r1.request = 1;
  r1.buffer = 0x2000;
  r1.bytes = 16;
  Event& r2 = b.add(0, ops::Irecv, OpClass::Irecv);
  r2.request = 2;
  r2.buffer = 0x2008;
  r2.bytes = 16;
  std::vector<Issue> out;
  check_arguments(b.run, out);
  EXPECT_EQ(kinds(out), (std::vector<std::string>{"aliased-buffers", "overlapping-buffers"}));
}

TEST(UsageArguments, IdenticalScratchReceiveBuffersAreOnlyInfo) {
  Builder b(1);
  for (std::uint64_t req : {1, 2}) {
    Event& r = b.add(0, ops::Irecv, OpClass::Irecv);
    r.request = req;
    r.buffer = 0x2000;
    r.bytes = 16;
  }
  std::vector<Issue> out;
  check_arguments(b.run, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"overlapping-buffers"});
  EXPECT_EQ(out[0].severity, Severity::Info);
}

TEST(UsageCollectives, IntercommunicatorsCompareOnlyTheOp) {
  // Rank 0 and rank 1 are in different groups of an intercommunicator: the
  // root side passes MPI_ROOT, the other the remote root, and counts pair
  // with the remote group's.
  constexpr std::uint32_t kInter = 0x1234;
  Builder b(2);
  for (int r = 0; r < 2; ++r) {
    Event& c = b.add(r, ops::Intercomm_create, OpClass::CommMgmt);
    c.comm = kInter;
    c.root = static_cast<std::int32_t>(100 + r);  // the two local communicators differ
  }
  Event& x = b.coll(0, ops::Bcast, kInt, 4, -3);
  x.comm = kInter;
  Event& y = b.coll(1, ops::Bcast, kInt, 8, 0);
  y.comm = kInter;
  for (int r = 0; r < 2; ++r) b.add(r, ops::Comm_free, OpClass::CommMgmt).comm = kInter;
  EXPECT_TRUE(b.finalized_issues().empty());
}

TEST(UsageFinalize, CancelledSendsAndFreedReceivesAreNotUnmatched) {
  Builder b(2);
  // Rank 0: an Isend cancelled and freed (never issued); a send whose
  // receive rank 1 posted and freed without waiting (it may have taken it).
  b.post(0, true, 1, 3, 7);
  b.free_request(0, 7, ops::Cancel);
  b.free_request(0, 7);
  b.send(0, 1, kInt, 1, 4);
  b.post(1, false, 0, 4, 9);
  b.free_request(1, 9);
  EXPECT_TRUE(b.finalized_issues().empty());

  // Freed (not cancelled) sends still have to be received.
  Builder f(2);
  f.post(0, true, 1, 3, 7);
  f.free_request(0, 7);
  f.finalize();
  EXPECT_EQ(kinds(check_run(f.run)), std::vector<std::string>{"unmatched-send"});

  // Both the send and its receive freed while active: nobody can know the
  // message completed before MPI_Finalize.
  Builder both(2);
  both.post(0, true, 1, 3, 7);
  both.free_request(0, 7);
  both.post(1, false, 0, 3, 9);
  both.free_request(1, 9);
  both.finalize();
  auto issues = check_run(both.run);
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"pending-request"});
  EXPECT_EQ(issues[0].sides[0].rank, 1);
  EXPECT_EQ(issues[0].sides[1].rank, 0);
}

TEST(UsageErrors, RecordedErrorIsAFindingAtItsCall) {
  Builder b(2);
  Event& s = b.send(0, 1, kInt, 1, -5);
  s.error = 0x1234;
  b.run.ranks[0].errors.push_back({s.seq, 0x1234, 4, "Invalid tag, error stack: ..."});
  auto issues = check_run(b.run, Options{false});
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"mpi-error"});
  EXPECT_EQ(issues[0].sides[0].event, b.run.ranks[0].events.size() - 1);
  EXPECT_NE(issues[0].message.find("Invalid tag"), std::string::npos);
}


// A resolver over a fixed list of objects (what MemoryObjects finds in the
// allocator log and the debug information).
ObjectResolver objects(std::vector<MemoryObject> list) {
  return [list](int, std::size_t, std::uint64_t a) -> std::optional<MemoryObject> {
    for (const auto& o : list)
      if (a >= o.begin && a < o.begin + o.size) return o;
    return std::nullopt;
  };
}
// What the buffer checks find in `b`'s run, finalized, with these objects.
std::vector<Issue> buffer_issues(Builder& b, const ObjectResolver& resolve) {
  b.finalize();
  std::vector<Issue> out;
  check_buffers(b.run, resolve, out);
  return out;
}

MemoryObject variable(std::uint64_t begin, std::uint64_t size, CType::Class cls, std::int64_t esize, const char* type) {
  MemoryObject o;
  o.kind = MemoryObject::Kind::Stack;
  o.begin = begin;
  o.size = size;
  o.name = "v";
  o.element = CType{cls, esize, type, {}};
  return o;
}

TEST(UsageBuffers, CountPastTheObjectIsAnOverflowOnBothSides) {
  Builder b(2);
  b.send(0, 1, kDouble, 4).buffer = 0x1000;  // 32 bytes from a 32-byte array: fits
  b.recv(1, 0, kDouble, 5).buffer = 0x2000;  // 40 bytes into 32: too many
  Event& red = b.coll(0, ops::Allreduce, kDouble, 2);
  red.buffer = 0x3000;
  red.rbuffer = 0x3008;  // 16 bytes into one double
  const std::vector<Issue> out =
      buffer_issues(b, objects({variable(0x1000, 32, CType::Class::Float, 8, "double"),
                                variable(0x2000, 32, CType::Class::Float, 8, "double"),
                                variable(0x3000, 8, CType::Class::Float, 8, "double"),
                                variable(0x3008, 8, CType::Class::Float, 8, "double")}));
  ASSERT_EQ(kinds(out), (std::vector<std::string>{"buffer-overflow", "buffer-overflow"}));
  EXPECT_EQ(out[0].sides[0].rank, 0);  // the allreduce's send side already
  EXPECT_EQ(out[1].sides[0].rank, 1);
}

TEST(UsageBuffers, GatherReceiveSideCountsEveryRank) {
  Builder b(2);
  for (int r = 0; r < 2; ++r) {
    Event& g = b.coll(r, ops::Gather, kInt, 4, 0);
    g.rdtype = kInt;
    g.rcount_arg = 4;
    g.buffer = 0x1000 + 0x100 * static_cast<std::uint64_t>(r);
    g.rbuffer = 0x5000;
  }
  b.finalize();
  std::vector<Issue> out;
  auto list = objects({variable(0x1000, 16, CType::Class::Signed, 4, "int"),
                       variable(0x1100, 16, CType::Class::Signed, 4, "int"),
                       variable(0x5000, 16, CType::Class::Signed, 4, "int")});
  check_buffers(b.run, list, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"buffer-overflow"});  // root only: 2 x 4 ints into 4
  EXPECT_EQ(out[0].sides[0].rank, 0);
}

TEST(UsageBuffers, DatatypeAgainstTheVariablesCType) {
  Builder b(1);
  b.coll(0, ops::Bcast, kInt, 1, 0).buffer = 0x1000;    // MPI_INT on a long: wrong width
  b.coll(0, ops::Bcast, kFloat, 1, 0).buffer = 0x2000;  // MPI_FLOAT on an int: float vs integer
  b.coll(0, ops::Bcast, kInt, 1, 0).buffer = 0x3000;    // MPI_INT on an unsigned: signedness, a warning
  b.coll(0, ops::Bcast, kInt, 4, 0).buffer = 0x4000;    // MPI_INT on char storage: not judged
  b.coll(0, ops::Bcast, kDouble, 1, 0).buffer = 0x5000; // a struct: not judged
  b.coll(0, ops::Bcast, kInt, 1, 0).buffer = 0x9000;    // no object known: nothing
  b.run.ranks[0].types.push_back(predefined_type(kChar, "MPI_CHAR", 1));
  b.coll(0, ops::Bcast, kChar, 4, 0).buffer = 0x3000;   // an int moved as chars: raw bytes, not judged
  const std::vector<Issue> out =
      buffer_issues(b, objects({variable(0x1000, 8, CType::Class::Signed, 8, "long"),
                                variable(0x2000, 4, CType::Class::Signed, 4, "int"),
                                variable(0x3000, 4, CType::Class::Unsigned, 4, "unsigned int"),
                                variable(0x4000, 64, CType::Class::Char, 1, "char"),
                                variable(0x5000, 24, CType::Class::Struct, 24, "struct particle")}));
  ASSERT_EQ(kinds(out), (std::vector<std::string>{"buffer-type-mismatch", "buffer-type-mismatch", "buffer-type-mismatch"}));
  EXPECT_NE(out[0].message.find("long"), std::string::npos);
  EXPECT_NE(out[1].message.find("MPI_FLOAT"), std::string::npos);
  EXPECT_EQ(out[0].severity, Severity::Error);
  EXPECT_EQ(out[2].severity, Severity::Warning);
  std::vector<Issue> none;
  check_buffers(b.run, {}, none);  // no resolver: the check is off
  EXPECT_TRUE(none.empty());
}

TEST(UsageBuffers, ModifiedSendIsAFindingAtItsPost) {
  Builder b(2);
  b.post(0, true, 1, 0, 11);                           // seq 2
  b.add(0, ops::Wait, OpClass::Completion);            // seq 3
  b.post(0, true, 1, 0, 12);                           // seq 4: same buffer changed again, another site
  b.finalize();
  ModifiedSends modified(2);
  modified[0] = {{2, 3}, {99, 3}};  // an unknown post seq is ignored
  std::vector<Issue> out;
  check_modified_sends(b.run, modified, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"buffer-modified"});
  ASSERT_EQ(out[0].sides.size(), 2u);
  EXPECT_EQ(out[0].sides[0].event, 1u);
  EXPECT_EQ(out[0].sides[1].event, 2u);
}


// A derived type (key 1) with the given type map over `base`.
trace::TypeEntry derived(std::vector<std::pair<std::uint32_t, std::int64_t>> map, std::int64_t extent) {
  trace::TypeEntry t;
  t.key = 1;
  t.extent = extent;
  t.name = "-";
  t.map_known = true;
  t.map = std::move(map);
  return t;
}

TEST(UsageBuffers, StructDatatypeAgainstTheStructMembers) {
  // struct { int i; double d; }: 16 bytes, d at byte 8.
  MemoryObject s = variable(0x1000, 64, CType::Class::Struct, 16, "struct cell");
  s.element.members = {{0, CType::Class::Signed, 4, "i", "int"}, {8, CType::Class::Float, 8, "d", "double"}};
  for (const auto& [map, extent, expect] :
       std::vector<std::tuple<std::vector<std::pair<std::uint32_t, std::int64_t>>, std::int64_t, std::string>>{
           {{{kInt, 0}, {kDouble, 8}}, 16, ""},                         // offsetof-built: clean
           {{{kInt, 0}, {kDouble, 4}}, 16, "lands in padding"},         // displacements summed from sizeof
           {{{kDouble, 0}, {kInt, 8}}, 16, "does not fit member 'i'"},  // member types swapped
           {{{kInt, 0}}, 4, "datatype element 1"},                      // no resize: element 1 is read at byte 4
       }) {
    Builder b(1);
    b.run.ranks[0].types.push_back(derived(map, extent));
    b.coll(0, ops::Bcast, 1, 4, 0).buffer = 0x1000;
    const std::vector<Issue> out = buffer_issues(b, objects({s}));
    if (expect.empty()) {
      EXPECT_TRUE(out.empty()) << out[0].message;
    } else {
      ASSERT_EQ(kinds(out), std::vector<std::string>{"buffer-type-mismatch"}) << expect;
      EXPECT_NE(out[0].message.find(expect), std::string::npos) << out[0].message;
    }
  }
}

TEST(UsageBuffers, ReceiveIntoOverlappingDatatypeIsInvalid) {
  Builder b(2);
  for (auto& rt : b.run.ranks) rt.types.push_back(derived({{kInt, 0}, {kInt, 2}}, 8));  // bytes 2-3 twice
  b.send(0, 1, 1, 1).buffer = 0x1000;  // sending through it is allowed
  b.recv(1, 0, 1, 1).buffer = 0x1000;
  const std::vector<Issue> out = buffer_issues(b, objects({}));
  ASSERT_EQ(kinds(out), std::vector<std::string>{"invalid-argument"});
  EXPECT_EQ(out[0].sides[0].rank, 1);
}

TEST(UsageArguments, ProcNullWhereTheOtherSideExists) {
  {
    Builder b(2);  // rank 1 receives from MPI_PROC_NULL; rank 0's message stays unreceived
    b.send(0, 1, kInt, 4, 5);
    Event& r = b.recv(1, trace::kProcNull, kInt, 4, 5);
    r.status_source = trace::kProcNull;
    r.status_bytes = 0;
    auto issues = b.finalized_issues();
    auto k = kinds(issues);
    ASSERT_NE(std::find(k.begin(), k.end(), "invalid-argument"), k.end());
    const Issue& is = issues[static_cast<std::size_t>(std::find(k.begin(), k.end(), "invalid-argument") - k.begin())];
    EXPECT_EQ(is.sides[0].rank, 1);
    EXPECT_EQ(is.sides[1].rank, 0);
  }
  {
    Builder b(3);  // boundary ranks talking to MPI_PROC_NULL, every real message received: clean
    b.send(0, trace::kProcNull, kInt, 1, 5);
    b.send(0, 1, kInt, 1, 5);
    b.recv(1, 0, kInt, 1, 5);
    Event& r = b.recv(2, trace::kProcNull, kInt, 1, 5);
    r.status_source = trace::kProcNull;
    EXPECT_TRUE(b.finalized_issues().empty());
  }
}

TEST(UsageBuffering, SendSendExchangeReliesOnBuffering) {
  Builder b(2);
  for (int r = 0; r < 2; ++r) {
    b.send(r, 1 - r, kInt, 4);
    b.recv(r, 1 - r, kInt, 4);
  }
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"potential-deadlock"});
  EXPECT_EQ(issues[0].sides.size(), 2u);
}

TEST(UsageBuffering, OrderedExchangesAreSafe) {
  Builder b(2);
  b.send(0, 1, kInt, 4, 1);  // 0 sends first, 1 receives first
  b.recv(1, 0, kInt, 4, 1);
  b.send(1, 0, kInt, 4, 2);
  b.recv(0, 1, kInt, 4, 2);
  b.post(0, false, 1, 3, 77);  // Irecv before the blocking send on both sides
  b.post(1, false, 0, 3, 78);
  b.send(0, 1, kInt, 4, 3);
  b.send(1, 0, kInt, 4, 3);
  for (int r = 0; r < 2; ++r) {
    b.add(r, ops::Wait, OpClass::Completion);
    Event& done = b.add(r, ops::Wait, OpClass::RequestDone);
    done.flags = trace::kFlagChild;
    done.request = r == 0 ? 77 : 78;
    done.status_source = 1 - r;
    done.status_tag = 3;
    done.status_bytes = 16;
  }
  for (int r = 0; r < 2; ++r) b.coll(r, ops::Barrier, trace::kTypeNone, 0);
  EXPECT_EQ(kinds(b.finalized_issues()), std::vector<std::string>{});
}

TEST(UsageBuffering, SendBeforeACollectiveTheReceiverEntersFirst) {
  Builder b(2);
  b.send(1, 0, kInt, 1, 1);
  b.send(1, 0, kInt, 1, 2);
  b.coll(1, ops::Barrier, trace::kTypeNone, 0);
  b.recv(0, 1, kInt, 1, 1);
  b.coll(0, ops::Barrier, trace::kTypeNone, 0);
  b.recv(0, 1, kInt, 1, 2);
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"potential-deadlock"});
  EXPECT_EQ(issues[0].sides[0].rank, 1);  // the blocked send first
  Options hung;
  hung.run_completed = false;  // a hang or crash is not replayed
  EXPECT_TRUE(check_run(b.run, hung).empty() || kinds(check_run(b.run, hung)) != std::vector<std::string>{"potential-deadlock"});
}

TEST(UsageBuffering, RelyingOnANonSynchronizingCollective) {
  // Rank 0 receives, then joins a Bcast rooted at 1; rank 1 broadcasts,
  // then sends: completes only if the root leaves MPI_Bcast early.
  Builder b(2);
  b.recv(0, 1, kInt, 1, 4);
  b.coll(0, ops::Bcast, kInt, 4, 1);
  b.coll(1, ops::Bcast, kInt, 4, 1);
  b.send(1, 0, kInt, 1, 4);
  auto issues = b.finalized_issues();
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"potential-deadlock"});
  EXPECT_EQ(issues[0].sides[0].rank, 1);  // the collective first
  EXPECT_EQ(issues[0].sides[0].role, "blocked in a collective");
  EXPECT_NE(issues[0].section.find("§6.14"), std::string::npos);
  // Twin: rank 0 joins the Bcast before it receives.
  Builder ok(2);
  ok.coll(0, ops::Bcast, kInt, 4, 1);
  ok.recv(0, 1, kInt, 1, 4);
  ok.coll(1, ops::Bcast, kInt, 4, 1);
  ok.send(1, 0, kInt, 1, 4);
  ok.finalize();
  EXPECT_EQ(kinds(check_run(ok.run)), std::vector<std::string>{});
}

TEST(UsageArguments, NegativeColorAndNegativeDims) {
  Builder b(2);
  Event& split = b.add(0, ops::Comm_split, OpClass::CommMgmt);
  split.tag = -1;  // meant MPI_UNDEFINED
  Event& undefined = b.add(1, ops::Comm_split, OpClass::CommMgmt);
  undefined.tag = trace::kColorUndefined;
  Event& cart = b.add(1, ops::Cart_create, OpClass::CommMgmt);
  cart.tag = -1;
  cart.count = 2;
  Event& good = b.add(0, ops::Cart_create, OpClass::CommMgmt);
  good.tag = 1;
  std::vector<Issue> out;
  check_arguments(b.run, out);
  ASSERT_EQ(kinds(out), (std::vector<std::string>{"invalid-argument", "invalid-argument"}));
  EXPECT_EQ(out[0].sides[0].rank, 0);
  EXPECT_NE(out[0].rule.find("color"), std::string::npos);
  EXPECT_EQ(out[1].sides[0].rank, 1);
  EXPECT_NE(out[1].rule.find("dims"), std::string::npos);
}

Event& receive_done(Builder& b, int r, int from, std::uint64_t request, std::uint64_t buffer, int bytes,
                    std::uint32_t sum) {
  b.add(r, ops::Wait, OpClass::Completion);
  Event& d = b.add(r, ops::Wait, OpClass::RequestDone);
  d.flags = trace::kFlagChild;
  d.request = request;
  d.peer = from;
  d.buffer = buffer;
  d.bytes = bytes;
  d.status_source = from;
  d.status_tag = 0;
  d.status_bytes = bytes;
  trace::set_payload_sum(d, sum);
  return d;
}

// A nonblocking collective record of rank 0 with its request.
Event& icoll(Builder& b, std::uint16_t op, std::uint64_t send, std::uint64_t recv, int count, std::uint64_t request) {
  Event& e = b.add(0, op, OpClass::Icollective);
  std::tie(e.comm, e.dtype, e.scount_arg) = std::make_tuple(trace::kCommWorld, kInt, count);
  std::tie(e.buffer, e.rbuffer, e.request) = std::make_tuple(send, recv, request);
  return e;
}

TEST(UsageBuffers, PendingNonblockingCollectiveBuffersUsedByOtherCalls) {
  Builder b(1);
  icoll(b, ops::Iallreduce, 0x1000, 0x2000, 4, 5);  // reads [0x1000,+16), writes [0x2000,+16)
  Event& s = b.send(0, 0, kInt, 4);                   // reads the pending receive buffer
  s.buffer = 0x2004;
  Event& r = b.recv(0, 0, kInt, 4);                   // writes the pending send buffer
  r.buffer = 0x1008;
  Event& fine = b.send(0, 0, kInt, 4);               // reads the send buffer: allowed
  fine.buffer = 0x1000;
  receive_done(b, 0, trace::kNoPeer, 5, 0, 0, 0);
  Event& after = b.send(0, 0, kInt, 4);              // after the Wait: allowed
  after.buffer = 0x2000;
  std::vector<Issue> out;
  check_collective_concurrency(b.run, out);
  ASSERT_EQ(kinds(out), (std::vector<std::string>{"overlapping-buffers", "overlapping-buffers"}));
  EXPECT_EQ(out[0].sides[0].event, 2u);
  EXPECT_EQ(out[0].sides[1].event, 1u);
  EXPECT_EQ(out[1].sides[0].event, 3u);
  // A second nonblocking collective into the pending one's receive buffer.
  Builder two(1);
  icoll(two, ops::Iallreduce, 0x1000, 0x2000, 4, 5);
  icoll(two, ops::Ibcast, 0x2000, 0x2000, 4, 6).root = trace::kNoPeer;  // non-root: receives
  std::vector<Issue> out2;
  check_collective_concurrency(two.run, out2);
  EXPECT_EQ(kinds(out2), std::vector<std::string>{"overlapping-buffers"});
  // Point-to-point pairs stay check_arguments' (no double report).
  Builder p2p(1);
  Event& r1 = p2p.post(0, false, 0, 1, 1);
  r1.buffer = 0x3000;
  r1.dtype = kInt;
  r1.scount_arg = 4;
  Event& r2 = p2p.post(0, false, 0, 1, 2);
  r2.buffer = 0x3000;
  r2.dtype = kInt;
  r2.scount_arg = 4;
  std::vector<Issue> out3;
  check_collective_concurrency(p2p.run, out3);
  EXPECT_TRUE(out3.empty());
}

TEST(UsageArguments, SendrecvWithOverlappingBuffers) {
  Builder b(1);
  // An MPI_Sendrecv of 8 doubles from 0x1000 into `into` (its Recv child record).
  auto sendrecv = [&](std::uint64_t into) {
    for (OpClass c : {OpClass::Sendrecv, OpClass::Recv}) {
      Event& e = b.add(0, ops::Sendrecv, c);
      e.flags = c == OpClass::Recv ? trace::kFlagChild : 0;
      e.dtype = kDouble;
      e.scount_arg = 8;
      e.buffer = c == OpClass::Recv ? into : 0x1000;
    }
  };
  sendrecv(0x1008);  // one element in: overlaps 56 bytes
  sendrecv(0x1040);  // right after: disjoint
  std::vector<Issue> out;
  check_collective_concurrency(b.run, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"aliased-buffers"});
  EXPECT_EQ(out[0].sides[0].event, 1u);
  EXPECT_NE(out[0].message.find("56 bytes"), std::string::npos);
}

TEST(UsageBuffers, NonblockingCollectiveBuffersWrittenWhilePending) {
  Builder b(1);
  icoll(b, ops::Ireduce, 0x1000, 0x2000, 4, 5);  // seq 2
  receive_done(b, 0, trace::kNoPeer, 5, 0, 0, 0);                                 // seq 3, 4
  ModifiedSends sends(1), receives(1);
  sends[0] = {{2, 4}};
  receives[0] = {{2, 4}};
  std::vector<Issue> out;
  check_modified_sends(b.run, sends, out);
  check_written_collectives(b.run, receives, out);
  ASSERT_EQ(kinds(out), (std::vector<std::string>{"buffer-modified", "receive-buffer-written"}));
  EXPECT_NE(out[0].section.find("§6.12"), std::string::npos);
  EXPECT_NE(out[1].section.find("§6.12"), std::string::npos);
  ASSERT_EQ(out[1].sides.size(), 2u);
  EXPECT_EQ(out[1].sides[0].event, 1u);
  EXPECT_EQ(out[1].sides[1].event, 2u);  // the Wait, not its child record
}

TEST(UsageFinalize, ExitInsideAnMpiCallIsAnArgumentError) {
  Builder b(2);
  b.coll(0, ops::Reduce, kDouble, -1, 0);
  b.coll(1, ops::Reduce, kDouble, -1, 0).t_exit_ns = 0;  // never returned: MPICH's assertion ended the process
  b.run.ranks[1].last_event_in_progress = true;
  b.run.ranks[1].exited_without_finalize = true;
  Options crashed;
  crashed.run_completed = false;
  auto issues = check_run(b.run, crashed);
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issues[0].kind, "invalid-argument");
  EXPECT_EQ(issues[0].sides[0].rank, 1);
  EXPECT_EQ(issues[0].sides[0].event, 1u);
  // With the MPI error recorded, the error is the finding (mpi-error), and
  // an exit outside any call is a missing MPI_Finalize.
  b.run.ranks[1].errors.push_back({2, 1, 1, "Invalid count"});
  EXPECT_EQ(kinds(check_run(b.run, crashed))[0], "mpi-error");
  b.run.ranks[1].errors.clear();
  b.run.ranks[1].last_event_in_progress = false;
  EXPECT_EQ(kinds(check_run(b.run, crashed))[0], "missing-finalize");
}

// A receive's RequestDone (the Wait's child) with its status and buffer hash.

TEST(UsageBuffers, ReceiveBufferWrittenWhilePending) {
  Builder b(2);
  Event& s = b.send(0, 1, kInt, 4);  // seq 2 on rank 0
  trace::set_payload_sum(s, 0xabcdef);
  Event& p = b.post(1, false, 0, 0, 21);  // rank 1 index 1
  p.buffer = 0x1000;
  p.bytes = 16;
  receive_done(b, 1, 0, 21, 0x1000, 16, 0x123456);
  b.finalize();
  trace::Matching m = trace::match_messages(b.run);
  ASSERT_EQ(m.messages.size(), 1u);
  std::vector<Issue> out;
  check_written_receives(b.run, m, {}, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"receive-buffer-written"});
  EXPECT_EQ(out[0].sides[0].rank, 1);
  EXPECT_EQ(out[0].sides[0].event, 1u);
  // The same bytes at completion, a send whose own buffer changed (that is
  // buffer-modified), or no hash on either side: nothing.
  auto& done = b.run.ranks[1].events[3];
  trace::set_payload_sum(done, 0xabcdef);
  out.clear();
  check_written_receives(b.run, m, {}, out);
  EXPECT_TRUE(out.empty());
  trace::set_payload_sum(done, 0x123456);
  ModifiedSends modified(2);
  modified[0] = {{2, 3}};
  check_written_receives(b.run, m, modified, out);
  EXPECT_TRUE(out.empty());
  trace::set_payload_sum(b.run.ranks[0].events[1], 0);
  check_written_receives(b.run, m, {}, out);
  EXPECT_TRUE(out.empty());
}

TEST(UsageBuffers, PendingReceiveBufferAccessedIsAFindingWithTheAccessStack) {
  Builder b(2);
  Event& p = b.post(1, false, 0, 0, 21);  // rank 1 index 1, seq 2
  p.buffer = 0x1000;
  p.bytes = 16;
  receive_done(b, 1, 0, 21, 0x1000, 16, 0);  // Wait at index 2, its RequestDone at 3
  b.finalize();
  ReceiveAccesses accessed(2);
  accessed[1] = {{2, false, 2, 0x1004, {0x401001, 0x402000}},
                 {2, true, 2, 0x1008, {0x401001, 0x402000}},  // same receive site and pc: once
                 {77, false, 2, 0x1004, {0x401001}}};          // no such record: ignored
  std::vector<Issue> out;
  check_accessed_receives(b.run, accessed, out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"receive-buffer-accessed"});
  EXPECT_NE(out[0].message.find("read its buffer"), std::string::npos) << out[0].message;
  EXPECT_NE(out[0].message.find("completed later by MPI_Wait"), std::string::npos) << out[0].message;
  ASSERT_EQ(out[0].sides.size(), 2u);
  EXPECT_EQ(out[0].sides[0].event, 1u);
  EXPECT_EQ(out[0].sides[1].event, 2u);
  EXPECT_EQ(out[0].stack_rank, 1);
  EXPECT_EQ(out[0].stack, (std::vector<std::uint64_t>{0x401001, 0x402000}));
  // The access's stack is the finding's location, before the receive's site.
  auto locate = [](int, std::size_t) { return nlohmann::json{{"location", "post.c:3"}, {"line", 3}}; };
  auto locate_stack = [](int, const std::vector<std::uint64_t>&) {
    return nlohmann::json{{"code", {{"location", "access.c:9"}, {"line", 9}}}, {"stack", {"access.c:9"}}};
  };
  auto f = usage_findings(out, b.run, "r", locate, locate_stack);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].location, "access.c:9");
  EXPECT_EQ(f[0].details["code"]["rank"], 1);
  EXPECT_EQ(f[0].details["sides"][0]["code"]["line"], 3);
}

TEST(UsageBuffers, ReceiveBufferSharedWithAnotherReceiveIsNotJudged) {
  Builder b(2);
  trace::set_payload_sum(b.send(0, 1, kInt, 4), 0xabcdef);
  Event& p = b.post(1, false, 0, 0, 21);
  p.buffer = 0x1000;
  p.bytes = 16;
  Event& other = b.recv(1, 0, kInt, 2, 5);  // a blocking receive into the same bytes meanwhile
  other.buffer = 0x1008;
  trace::set_payload_sum(b.send(0, 1, kInt, 2, 5), 0x111111);
  receive_done(b, 1, 0, 21, 0x1000, 16, 0x123456);
  b.finalize();
  trace::Matching m = trace::match_messages(b.run);
  std::vector<Issue> out;
  check_written_receives(b.run, m, {}, out);
  EXPECT_TRUE(out.empty());
}

TEST(UsageWaits, ReceiveFromAFinalizedRankIsNotACycle) {
  Builder b(3);
  b.add(0, ops::Finalize, OpClass::Finalize);  // rank 0 finalized (index 1)
  b.recv(1, 0, kInt, 4).t_exit_ns = 0;        // rank 1 blocked in a receive from it
  b.run.ranks[1].last_event_in_progress = true;
  b.recv(2, 1, kInt, 4).t_exit_ns = 0;        // rank 2 waits for rank 1: blocked in MPI, no finding
  b.run.ranks[2].last_event_in_progress = true;
  Options hung;
  hung.run_completed = false;
  hung.run_hung = true;
  auto out = check_run(b.run, hung);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"waits-for-finalized"});
  EXPECT_EQ(out[0].sides[0].rank, 1);
  EXPECT_EQ(out[0].sides[0].event, 1u);
  EXPECT_EQ(out[0].sides.back().rank, 0);
  EXPECT_EQ(out[0].sides.back().event, 1u);
  // A message rank 0 sent before finalizing can still complete the receive.
  Builder c(2);
  c.send(0, 1, kInt, 4, 7);
  c.add(0, ops::Finalize, OpClass::Finalize);
  c.recv(1, 0, kInt, 4, 0).t_exit_ns = 0;
  c.run.ranks[1].last_event_in_progress = true;
  auto kc = kinds(check_run(c.run, hung));
  EXPECT_EQ(std::count(kc.begin(), kc.end(), "waits-for-finalized"), 0);
  // Only hung runs are judged (a crash or abort stops ranks anywhere).
  Options crashed;
  crashed.run_completed = false;
  auto kb = kinds(check_run(b.run, crashed));
  EXPECT_EQ(std::count(kb.begin(), kb.end(), "waits-for-finalized"), 0);
}

TEST(UsageWaits, WaitOnAnIsendToAnExitedRankAndOnARankOutsideMpi) {
  Builder b(3);
  b.post(0, true, 1, 0, 31);                                   // rank 0: Isend to rank 1 ...
  b.add(0, ops::Wait, OpClass::Completion).t_exit_ns = 0;      // ... waited for
  b.run.ranks[0].events.back().request = 31;
  b.run.ranks[1].exited_without_finalize = true;               // rank 1 exited (ranks/1.exit)
  b.recv(2, 1, kInt, 1).t_exit_ns = 0;
  Options hung;
  hung.run_completed = false;
  hung.run_hung = true;
  auto out = check_run(b.run, hung);
  std::vector<std::string> k = kinds(out);
  ASSERT_EQ(std::count(k.begin(), k.end(), "waits-for-finalized"), 2);
  // The Isend was received before rank 1 left (its completion is not
  // written yet: the Waitall still waits for another request): only rank 2's wait is hopeless.
  b.recv(1, 0, kInt, 1);
  k = kinds(check_run(b.run, hung));
  EXPECT_EQ(std::count(k.begin(), k.end(), "waits-for-finalized"), 1);
  b.run.ranks[1].events.pop_back();
  // Rank 1 alive and back from its last call: it runs outside MPI.
  b.run.ranks[1].exited_without_finalize = false;
  out = check_run(b.run, hung);
  k = kinds(out);
  EXPECT_EQ(std::count(k.begin(), k.end(), "waits-for-rank-outside-mpi"), 2);
  EXPECT_EQ(std::count(k.begin(), k.end(), "waits-for-finalized"), 0);
}


// Issue 32 (real code at -O3): the checks that LULESH's mutations needed.

TEST(UsageBuffers, PredefinedDatatypeOnAStructMemberIsJudgedAgainstThatMember) {
  // `MPI_Allreduce(MPI_IN_PLACE, &this->cells_, 1, MPI_INT, ...)` with a long
  // member, in a heap object typed by `this`; an int member next to it is fine.
  Builder b(1);
  Event& bad = b.coll(0, ops::Allreduce, kInt, 1, trace::kNoPeer, trace::ReduceOp::Sum);
  bad.flags |= trace::kFlagInPlace;
  bad.rbuffer = 0x1000 + 16;
  Event& good = b.coll(0, ops::Allreduce, kInt, 1, trace::kNoPeer, trace::ReduceOp::Sum);
  good.flags |= trace::kFlagInPlace;
  good.rbuffer = 0x1000 + 24;
  Event& inside = b.coll(0, ops::Allreduce, kInt, 1, trace::kNoPeer, trace::ReduceOp::Sum);
  inside.flags |= trace::kFlagInPlace;
  inside.rbuffer = 0x1000 + 20;  // the middle of the long: no member starts there, not judged
  b.finalize();
  MemoryObject mesh = variable(0x1000, 32, CType::Class::Struct, 32, "struct Mesh");
  mesh.kind = MemoryObject::Kind::Heap;
  mesh.element.members = {{0, CType::Class::Float, 8, "x", "double"},
                          {8, CType::Class::Float, 8, "y", "double"},
                          {16, CType::Class::Signed, 8, "cells_", "long int"},
                          {24, CType::Class::Signed, 4, "rank_", "int"}};
  std::vector<Issue> out;
  check_buffers(b.run, objects({mesh}), out);
  ASSERT_EQ(kinds(out), std::vector<std::string>{"buffer-type-mismatch"});
  EXPECT_EQ(out[0].sides[0].event, 1u);
  EXPECT_NE(out[0].message.find("member 'cells_'"), std::string::npos) << out[0].message;
  EXPECT_NE(out[0].message.find("long int"), std::string::npos) << out[0].message;
}

TEST(UsageArguments, ReceiveCountRunningIntoTheNextPendingReceiveIsAnOverflowAtThatReceive) {
  // Halo slots of 128 bytes in one block; the first receive asks for 136.
  auto run = [](std::int32_t first_got) {
    Builder b(1);
    Event& r1 = b.post(0, false, 1, 7, 1);
    r1.buffer = 0x2000;
    r1.bytes = 136;
    r1.scount_arg = 17;
    Event& r2 = b.post(0, false, 2, 7, 2);
    r2.buffer = 0x2080;
    r2.bytes = 128;
    r2.scount_arg = 16;
    b.add(0, ops::Waitall, OpClass::Completion);
    for (std::uint64_t req : {1u, 2u}) {
      Event& d = b.add(0, ops::Waitall, OpClass::RequestDone);
      d.request = req;
      d.flags |= trace::kFlagChild;
      d.status_bytes = req == 1 ? first_got : 128;
    }
    std::vector<Issue> out;
    check_arguments(b.run, out);
    return out;
  };
  auto fit = run(128);  // the message fit its slot: the count is wrong, at the first receive
  ASSERT_EQ(kinds(fit), std::vector<std::string>{"buffer-overflow"});
  EXPECT_EQ(fit[0].sides[0].event, 1u);
  EXPECT_EQ(fit[0].sides[1].event, 2u);
  auto used = run(136);  // the data really landed in the other buffer: overlapping buffers, at the later call
  ASSERT_EQ(kinds(used), std::vector<std::string>{"overlapping-buffers"});
  EXPECT_EQ(used[0].sides[0].event, 2u);
}

TEST(UsageErrors, TruncatedMessageFromASendRunningIntoItsNeighbourSlotIsAnOverflowAtTheSend) {
  auto run = [](std::uint64_t second_buffer) {
    Builder b(2);
    Event& a = b.post(0, true, 1, 0, 1);  // index 1: 136 bytes from 0x1000
    a.buffer = 0x1000;
    a.bytes = 136;
    a.scount_arg = 17;
    Event& s2 = b.post(0, true, 1, 1, 2);  // index 2
    s2.buffer = second_buffer;
    s2.bytes = 128;
    b.add(0, ops::Waitall, OpClass::Completion);
    for (int tag = 0; tag < 2; ++tag) {
      Event& r = b.post(1, false, 0, tag, static_cast<std::uint64_t>(tag + 1));
      r.buffer = 0x5000 + 128u * static_cast<std::uint64_t>(tag);
      r.bytes = 128;
    }
    Event& w = b.add(1, ops::Waitall, OpClass::Completion);  // index 3 on rank 1
    w.error = 17;
    b.run.ranks[1].errors.push_back({w.seq, 17, 17, "See the MPI_ERROR field in MPI_Status for the error code"});
    // The first send's bytes also changed while pending (its neighbour
    // slot was filled): a consequence of its count when that is the error.
    static ModifiedSends modified(2);
    modified[0] = {{2, 4}};
    Options options;
    options.modified = &modified;
    std::vector<Issue> out = check_run(b.run, options);
    return out;
  };
  auto slot = run(0x1080);
  auto k = kinds(slot);
  EXPECT_EQ(std::count(k.begin(), k.end(), "buffer-modified"), 0);
  ASSERT_NE(std::find(k.begin(), k.end(), "buffer-overflow"), k.end());
  const Issue& is = slot[static_cast<std::size_t>(std::find(k.begin(), k.end(), "buffer-overflow") - k.begin())];
  EXPECT_EQ(is.sides[0].rank, 0);
  EXPECT_EQ(is.sides[0].event, 1u);
  EXPECT_EQ(is.sides[1].rank, 1);
  EXPECT_NE(std::find(k.begin(), k.end(), "mpi-error"), k.end());
  // The second send's buffer elsewhere: no evidence which count is wrong, only the MPI error.
  auto apart = kinds(run(0x9000));
  EXPECT_EQ(std::find(apart.begin(), apart.end(), "buffer-overflow"), apart.end());
  EXPECT_NE(std::find(apart.begin(), apart.end(), "buffer-modified"), apart.end());
  EXPECT_NE(std::find(apart.begin(), apart.end(), "mpi-error"), apart.end());
}

TEST(UsageWaits, SendWithAnotherTagThanTheHungReceiveWaitsForIsUnmatchedAtTheSend) {
  Builder b(2);
  Event& s = b.post(0, true, 1, 101, 1);  // index 1
  s.bytes = 256;
  b.wait_done(0, 1);
  Event& r = b.post(1, false, 0, 100, 1);  // index 1, never completed
  r.bytes = 256;
  b.add(1, ops::Wait, OpClass::Completion);
  Options hung;
  hung.run_hung = true;
  auto issues = check_run(b.run, hung);
  std::vector<Issue> unmatched;
  for (const auto& is : issues)
    if (is.kind == "unmatched-send") unmatched.push_back(is);
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_EQ(unmatched[0].sides[0].rank, 0);
  EXPECT_EQ(unmatched[0].sides[0].event, 1u);
  EXPECT_EQ(unmatched[0].sides[1].rank, 1);
  EXPECT_NE(unmatched[0].message.find("waits for tag 100"), std::string::npos);
  // The same tag on both sides: not this finding (the hang is MPI-PD's).
  b.run.ranks[1].events[1].tag = 101;
  for (const auto& is : check_run(b.run, hung)) EXPECT_NE(is.kind, "unmatched-send");
}

TEST(UsageArguments, IrecvFromProcNullIsOneFindingAtTheReceiveWithTheUnreceivedSendLinked) {
  // Issue 32: rank 1's MPI_Irecv names MPI_PROC_NULL; rank 0's MPI_Isend to
  // it is never received. One finding, at the receive, not also an
  // unmatched-send at the send.
  Builder b(2);
  Event& s = b.post(0, true, 1, 5, 1);  // index 1
  s.bytes = 16;
  b.wait_done(0, 1);
  Event& r = b.post(1, false, trace::kProcNull, 5, 1);  // index 1
  r.bytes = 16;
  b.wait_done(1, 1).status_source = trace::kProcNull;
  b.finalize();
  Options completed;
  completed.run_completed = true;
  auto issues = check_run(b.run, completed);
  ASSERT_EQ(kinds(issues), std::vector<std::string>{"invalid-argument"});
  EXPECT_EQ(issues[0].sides[0].rank, 1);
  EXPECT_EQ(issues[0].sides[0].event, 1u);
  EXPECT_EQ(issues[0].sides[1].rank, 0);
  EXPECT_EQ(issues[0].sides[1].event, 1u);
}

}  // namespace
}  // namespace scalefuzz::detectors::usage
