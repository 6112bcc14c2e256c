// MPI usage checks on a recorded run (issue 21): the errors that need not
// hang or crash. Pure functions over trace::RunTrace; every issue names the
// rule it broke, the MPI standard section, and each side's rank and record.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::usage {

// One side of an issue: a rank's record (index into RankTrace::events).
struct Side {
  int rank = -1;
  std::size_t event = 0;
  std::string role;  // "send", "receive", "root", "this rank", "other rank" ...
};

struct Issue {
  std::string kind;         // finding kind: "mpi-error", "pending-request", "type-mismatch" ...
  std::string rule;         // what the standard requires, one sentence
  std::string section;      // "MPI-4.0 §3.3.1" ...
  std::string message;      // what happened here
  Severity severity = Severity::Error;
  std::vector<Side> sides;  // first = where to look first
  // An access outside any MPI call (receive-buffer-accessed): the stack the
  // rank captured, innermost first; usage_findings' StackLocator places it.
  int stack_rank = -1;
  std::vector<std::uint64_t> stack;
};

// (post seq, completion seq) of a rank's nonblocking sends whose buffer
// changed before completion (ranks/N.modified), per rank.
using ModifiedSends = std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>>;

// An application access to a pending receive's buffer, caught by the
// injector's page protection (guard_receives; ranks/N.accessed).
struct ReceiveAccess {
  std::uint64_t post_seq = 0;  // the MPI_Irecv / MPI_Start / MPI_Startall record
  bool write = false;
  std::uint64_t seq = 0;  // the rank's last record before the access
  std::uint64_t address = 0;
  std::vector<std::uint64_t> frames;  // innermost first (frames[0]: the faulting pc + 1)
};
using ReceiveAccesses = std::vector<std::vector<ReceiveAccess>>;  // per rank

struct Options {
  // The run ended by itself (not a hang, crash or abort): the at-finalize
  // checks (pending requests, unmatched messages, missing MPI_Finalize,
  // collectives some ranks never called) only make sense then.
  bool run_completed = true;
  // ranks/N.modified of the run (buffer-modified, receive-buffer-written); null: none.
  const ModifiedSends* modified = nullptr;
  // Its "recv" lines: nonblocking collectives whose receive buffer the
  // application wrote while they were pending (receive-buffer-written); null: none.
  const ModifiedSends* written_collectives = nullptr;
  // The run hung (stopped by the harness): wait-for edges are judged.
  bool run_hung = false;
  // ranks/N.accessed of the run (receive-buffer-accessed); null: none.
  const ReceiveAccesses* accessed = nullptr;
};

std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options = {});

// Individual checks (check_run calls them all; exposed for the unit tests).
void check_recorded_errors(const trace::RunTrace& run, std::vector<Issue>& out);
void check_finalize(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out);
void check_collectives(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out);
void check_p2p_types(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out);
void check_arguments(const trace::RunTrace& run, std::vector<Issue>& out);
// potential-deadlock: a completed run replayed with synchronous standard
// sends and synchronizing collectives gets stuck with a rank in a send: the
// program relies on MPI buffering (MPI-4.0 §3.5), src/buffering.cpp.
void check_buffering(const trace::RunTrace& run, const trace::Matching& matching, const Options& options,
                     std::vector<Issue>& out);

// ---- buffer extent and C-type checks (memory objects from debug info) -------
// The C type of a variable's elements as the debug information gives it.
struct CType {
  enum class Class : std::uint8_t { Unknown, Signed, Unsigned, Float, Char, Bool, Struct, Pointer, Other };
  Class cls = Class::Unknown;
  std::int64_t size = 0;  // bytes of one element
  std::string name;       // "int", "double", "struct point" ...
  // Structs: the scalar members, nested structs and arrays flattened, in
  // offset order (empty: not known, e.g. unions and bit-fields).
  struct Member {
    std::int64_t offset = 0;
    Class cls = Class::Unknown;
    std::int64_t size = 0;
    std::string name;  // "d", "pos[1]", "inner.x"
    std::string type;  // its C type: "int", "double" (scalars)
  };
  std::vector<Member> members;
};
// The memory object holding a buffer: a heap block (allocator log), a global
// or a stack variable (DWARF).
struct MemoryObject {
  enum class Kind : std::uint8_t { Heap, Global, Stack };
  Kind kind = Kind::Heap;
  std::uint64_t begin = 0, size = 0;
  std::string name;          // variable name, or "heap block of 64 bytes"
  CType element;             // Unknown for heap blocks
  std::string decl;          // "file.c:12" of the declaration or allocation, if known
  // Heap blocks: the struct type the element was inferred from (the only
  // struct whose pointer variables the calling function has and whose size
  // divides the block), e.g. "pointer variable 'buf'"; empty otherwise.
  std::string typed_by;
};
// The object containing `address` as seen by rank `rank`'s record `event`
// (its time, its frame), or nullopt when none is known.
using ObjectResolver = std::function<std::optional<MemoryObject>(int rank, std::size_t event, std::uint64_t address)>;
// buffer-overflow: count x extent of a send/receive buffer runs past the end
// of its memory object (MPI-4.0 §3.2.2, §3.2.4, §6.1); buffer-type-mismatch:
// the datatype's basic types do not fit the variable's C type (§3.3.1).
void check_buffers(const trace::RunTrace& run, const ObjectResolver& resolve, std::vector<Issue>& out);
std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options, const ObjectResolver& resolve);

// buffer-modified: a nonblocking send's buffer changed between its post and
// its completion (MPI-4.0 §3.7.2). `modified[rank]` holds the (post seq,
// completion seq) pairs the injector noted in ranks/N.modified.
void check_modified_sends(const trace::RunTrace& run, const ModifiedSends& modified, std::vector<Issue>& out);
// receive-buffer-written for nonblocking collectives: `written[rank]` holds
// the (post seq, completion seq) of the "recv" lines of ranks/N.modified —
// the receive buffer changed between two MPI calls of the rank while the
// collective was pending, and the completion overwrote it (MPI-4.0 §6.12).
void check_written_collectives(const trace::RunTrace& run, const ModifiedSends& written, std::vector<Issue>& out);
// overlapping-buffers of nonblocking collectives: a buffer of a pending
// nonblocking collective that a later call (before its completion) writes,
// or reads while the collective writes it; or a pending nonblocking
// operation's buffer a nonblocking collective's post uses likewise (§6.12,
// §3.7.2). Pairs of pending point-to-point requests are check_arguments'.
void check_collective_concurrency(const trace::RunTrace& run, std::vector<Issue>& out);
// waits-for-finalized: in a hung run, a rank blocked in a receive, send or
// Wait whose peer already called MPI_Finalize (or exited) without the
// matching send/receive; waits-for-rank-outside-mpi: its only peer was
// running outside MPI (neither blocked, polling nor finalized). Ranks blocked
// on each other (cycles) are left to MPI-PD/PDG.
void check_finalized_waits(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out);
// receive-buffer-written: a matched message whose nonblocking receive's
// buffer held, at completion, bytes other than the ones sent (Event::
// payload_sum of the send record and of the receive's RequestDone) — the
// application wrote it after the data arrived (MPI-4.0 §3.7.2). Sends in
// `modified`, and receives whose buffer another receive shared, are skipped.
void check_written_receives(const trace::RunTrace& run, const trace::Matching& matching,
                            const ModifiedSends& modified, std::vector<Issue>& out);

// receive-buffer-accessed: the application read or wrote a pending
// receive's buffer before the Wait/Test that completed it (MPI-4.0 §3.7.2,
// §3.7.3), caught by page protection. One issue per (receive call site,
// access pc); the access's stack goes to Issue::stack.
void check_accessed_receives(const trace::RunTrace& run, const ReceiveAccesses& accessed, std::vector<Issue>& out);

// Type signatures: the flattened primitive sequence of `count` elements of a
// datatype key on a rank. Equal signatures match (MPI-4.0 §3.3.1, §6.1).
struct Signature {
  bool known = false;  // false: key undescribed, signature too long, or MPI_PACKED
  std::vector<std::pair<std::uint32_t, std::uint64_t>> runs;
};
Signature signature(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count);
// True when `a` is a prefix of (or equal to) `b`; with `exact`, only equal.
bool signature_fits(const Signature& a, const Signature& b, bool exact);
// "3 x MPI_INT" style text of a (count, key) pair.
std::string describe_type(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count);

// Findings from issues. `locate(rank, event)` returns the symbolized
// {file, line, function, location} JSON of that record's call site (or null).
using Locator = std::function<nlohmann::json(int rank, std::size_t event)>;
// `locate_stack(rank, stack)` places an Issue::stack: {"code": {file, line,
// function, location} of its innermost application frame, "stack": [...]}
// (or null).
using StackLocator = std::function<nlohmann::json(int rank, const std::vector<std::uint64_t>& stack)>;
std::vector<Finding> usage_findings(const std::vector<Issue>& issues, const trace::RunTrace& run,
                                    const std::string& run_id, const Locator& locate,
                                    const StackLocator& locate_stack = nullptr);

}  // namespace scalefuzz::detectors::usage
