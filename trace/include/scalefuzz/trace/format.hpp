// On-disk format shared by the writer (injectors/) and every reader (harness,
// detectors). Plain fixed-size records so that the injector can write them
// through memory-mapped files: after SIGKILL at any moment the page cache still
// holds every completed store, and a reader accepts a file up to its last
// complete record.
//
// Files of one rank in a run directory (N = world rank):
//   ranks/N.events    FileHeader + Event[]         (the trace, while the rank runs)
//                     or FileHeader + packed blocks (format 3: after MPI_Finalize; packed.hpp)
//   ranks/N.sites     FileHeader + CallSite[]      (call-site table)
//   ranks/N.modules   text: "<begin-hex> <end-hex> <offset-hex> <path>" lines
//   ranks/N.features  FileHeader + SiteFeature[]   (indexed by call-site id)
//   ranks/N.markov    FileHeader + MarkovEdge[]    (open-addressing table while running;
//                                                   only the used edges after MPI_Finalize)
//   ranks/N.live      FileHeader + LiveState       (seqlock-protected)
//   ranks/N.decisions FileHeader + DecisionPreamble + entries (format 4; decisions.hpp)
//
// Bump kFormatVersion on any layout change; readers read versions
// kOldestReadableVersion..kFormatVersion and refuse others naming both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scalefuzz::trace {

// Format 3: packed events files of finished ranks (PackedEvents), Markov
// files written dense at MPI_Finalize. Raw records are unchanged from
// format 2, so format 2 files are still read.
// Format 4: adds ranks/N.decisions (FileKind::Decisions, decisions.hpp) and
// one-sided communication records (OpClass WinMgmt, Rma, RmaSync; their field
// use below). Other records are unchanged: formats 2 and 3 are still read (a
// format 3 run is a run without a decision log).
inline constexpr std::uint32_t kFormatVersion = 4;
inline constexpr std::uint32_t kOldestReadableVersion = 2;
inline constexpr char kMagic[8] = {'S', 'F', 'Z', 'T', 'R', 'A', 'C', 'E'};

enum class FileKind : std::uint32_t {
  Events = 1,
  CallSites = 2,
  Features = 3,
  Markov = 4,
  Live = 5,
  Allocs = 6,
  PackedEvents = 7,  // format 3: ranks/N.events of a finished rank (packed.hpp)
  Decisions = 8,     // format 4: ranks/N.decisions, a byte stream (decisions.hpp)
};

struct FileHeader {
  char magic[8];              // kMagic
  std::uint32_t version;      // kFormatVersion
  std::uint32_t kind;         // FileKind
  std::int32_t rank;          // world rank of the writer
  std::int32_t world_size;    // MPI_COMM_WORLD size
  std::uint32_t record_size;  // sizeof the record type that follows
  std::uint32_t reserved0;
  std::uint64_t start_ns;     // CLOCK_REALTIME at MPI_Init
  std::int64_t pid;
  char run_id[64];            // SCALEFUZZ_RUN_ID, NUL-terminated
  std::uint8_t reserved[16];
};
static_assert(sizeof(FileHeader) == 128);

// What an MPI call does, as far as the detectors care. The op id (generated
// from the wrapper table) names the exact function; the class tells how to
// interpret the record.
enum class OpClass : std::uint8_t {
  Other = 0,
  Init,         // MPI_Init, MPI_Init_thread
  Finalize,
  Abort,
  Send,         // blocking send: Send, Ssend, Bsend, Rsend
  Recv,         // blocking receive (also the receive half of Sendrecv, Mrecv)
  Sendrecv,     // the send half of Sendrecv[_replace]; a child Recv record follows
  Isend,        // nonblocking send post: Isend, Issend, Ibsend, Irsend
  Irecv,        // nonblocking receive post (also Imrecv)
  SendInit,     // persistent send creation (Send_init ...): no message yet
  RecvInit,     // persistent receive creation
  Start,        // Start/Startall: one record per started request (children for Startall)
  Completion,   // a Wait*/Test* call itself
  RequestDone,  // child of a Completion: one completed request with its status
  Probe,        // Probe, Iprobe, Mprobe, Improbe
  Collective,   // blocking collective
  Icollective,  // nonblocking collective post
  CommMgmt,     // communicator creation/free (comm field = the new/freed comm)
  RequestFree,  // MPI_Request_free, MPI_Cancel
  // Format 2 (usage checks):
  HandleNew,    // a group/datatype/op handle created: tag = HandleKind, buffer = handle value
  HandleFree,   // that handle freed (same fields)
  TypeCommit,   // MPI_Type_commit: dtype = the committed type's key
  // Additive (no version change; detectors/dmtracker's data movements):
  // buffer = the bytes read, rbuffer = the bytes written, bytes = packed bytes
  // moved (position after - before), count/scount_arg = element count,
  // dtype = the datatype, rcount_arg = the packed buffer's size argument.
  Pack,         // MPI_Pack: buffer = inbuf, rbuffer = outbuf + position (before)
  Unpack,       // MPI_Unpack: buffer = inbuf + position (before), rbuffer = outbuf
  // Format 4 (one-sided communication, detectors/rma). `comm` is the window
  // id (equal on every member of the window; never a communicator id), the
  // op id names the function.
  WinMgmt,      // Win_create/allocate/allocate_shared/create_dynamic: tag = the communicator's id
                // (as int32), buffer = base (0 for dynamic), bytes = size, count = disp_unit;
                // Win_attach/Win_detach: buffer = base, bytes = size (detach: 0); Win_free
  Rma,          // Put/Get/Accumulate/Get_accumulate/Fetch_and_op/Compare_and_swap and the R*
                // versions: peer = target (world rank), buffer = origin address, scount_arg/dtype/
                // bytes = origin count/datatype/bytes, count = target displacement (disp units),
                // rcount_arg/rdtype = target count/datatype, status_bytes = target bytes
                // (target count x size), rbuffer = result address (Get_accumulate/Fetch_and_op/
                // Compare_and_swap), reduce_op = the accumulate op, request = R*'s request id
  RmaSync,      // Win_fence/lock/unlock/lock_all/unlock_all/flush*/sync/start/complete/post/
                // wait/test: peer = target (lock/unlock/flush/flush_local, world rank),
                // tag = lock type (kLockExclusive, kLockShared), count = assert (kMode* bits);
                // Win_start/Win_post: one child RmaSync record per group member (peer);
                // Win_test: kFlagTestFailed when the epoch has not ended
};

// Lock types of Win_lock records (Event::tag; format 4).
inline constexpr std::int32_t kLockExclusive = 1;
inline constexpr std::int32_t kLockShared = 2;
// RmaSync records' `count`: the assert argument's MPI_MODE_* bits, as these
// bits (the recorder translates MPI's values).
inline constexpr std::int64_t kModeNoCheck = 1, kModeNoStore = 2, kModeNoPut = 4, kModeNoPrecede = 8,
                              kModeNoSucceed = 16;

// What a HandleNew/HandleFree record's handle is (stored in Event::tag).
enum class HandleKind : std::int32_t { Group = 1, Datatype = 2, Op = 3 };

// Event flags.
inline constexpr std::uint8_t kFlagChild = 1u << 0;       // emitted by a call whose own record precedes it
inline constexpr std::uint8_t kFlagSynchronous = 1u << 1; // Ssend/Issend: completes only when matched
inline constexpr std::uint8_t kFlagBuffered = 1u << 2;    // Bsend/Ibsend
inline constexpr std::uint8_t kFlagTestFailed = 1u << 3;  // Test*/Iprobe returned "not complete"/"no message"
inline constexpr std::uint8_t kFlagDelayed = 1u << 4;     // the noise injector delayed this send
inline constexpr std::uint8_t kFlagPersistent = 1u << 5;  // the request is persistent
// Added by the reader (additive): set on a RequestDone record whose request was
// cancelled (MPI_Test_cancelled returned true). Readers treat it as "no
// message": a cancelled send was never issued, a cancelled receive never
// matched.
inline constexpr std::uint8_t kFlagCancelled = 1u << 6;
// Format 2: a collective whose send buffer was MPI_IN_PLACE.
inline constexpr std::uint8_t kFlagInPlace = 1u << 7;

// Peer and tag sentinels (peer is always a world rank when >= 0).
inline constexpr std::int32_t kAnySource = -1;
inline constexpr std::int32_t kProcNull = -2;
inline constexpr std::int32_t kNoPeer = -3;
inline constexpr std::int32_t kAnyTag = -1;
inline constexpr std::int32_t kNoTag = -3;
// Communicator constructors' arguments the standard restricts (usage
// checks, issue 32): an MPI_Comm_split record's tag is the color passed,
// MPI_UNDEFINED written as kColorUndefined; an MPI_Cart_create record's
// tag is the smallest entry of dims (0 without dims) and its count ndims.
inline constexpr std::int32_t kColorUndefined = INT32_MIN;

// Communicator ids are equal on every member rank: world is 0, self is 1,
// others are derived at creation from the parent id and creation ordinal.
inline constexpr std::uint32_t kCommWorld = 0;
inline constexpr std::uint32_t kCommSelf = 1;

// One MPI call (or one child of it). Written at call entry with t_exit_ns = 0
// and seq stored last; completed in place at exit by filling the status fields
// and then t_exit_ns. A record whose seq is set but t_exit_ns is 0 is a call
// that never returned (a hang or a crash inside MPI): a "truncated event".
struct Event {
  std::uint64_t seq;          // 1-based per rank, dense; 0 = slot never written
  std::uint64_t t_enter_ns;   // CLOCK_REALTIME
  std::uint64_t t_exit_ns;    // 0 while in progress
  std::uint16_t op;           // generated op id (see ops.hpp)
  std::uint8_t op_class;      // OpClass
  std::uint8_t flags;         // kFlag*
  std::uint32_t callsite;     // index into the rank's call-site table
  std::int32_t peer;          // dest/source as world rank, or kAnySource/kProcNull/kNoPeer
  std::int32_t tag;           // or kAnyTag / kNoTag
  std::uint32_t comm;         // communicator id (equal on all members)
  std::int32_t root;          // collectives: root as world rank, else kNoPeer
  std::int64_t count;         // element count argument
  std::int64_t bytes;         // count * datatype size (recv: posted capacity)
  std::uint64_t request;      // injector-assigned request id, 0 if none
  std::uint64_t buffer;       // user buffer address (send or receive buffer)
  std::int32_t status_source; // completion: world rank the message came from
  std::int32_t status_tag;
  std::int32_t status_bytes;  // bytes actually received
  std::int32_t error;         // MPI error code returned; 0 = MPI_SUCCESS
  // ---- format 2: what the usage checks compare (detectors/usage) ----
  std::uint32_t dtype;        // datatype key of the send side (or the only datatype); see kType*
  std::uint32_t rdtype;       // receive-side datatype key of collectives (kTypeNone elsewhere)
  std::int32_t scount_arg;    // the count argument as passed (send side / only count)
  std::int32_t rcount_arg;    // the receive-side count argument of collectives
  std::uint64_t rbuffer;      // receive buffer of collectives and Sendrecv (0 if none)
  std::uint8_t reduce_op;     // ReduceOp of reductions, kReduceNone elsewhere
  // A 24-bit hash of the message bytes (little endian; 0 = not taken; usage
  // checks, additive in format 3): on a send record (Send/Isend/Sendrecv/
  // Start of a persistent send) the payload at the post, on a receive's
  // RequestDone the receive buffer at completion (trace::payload_sum()).
  std::uint8_t payload_sum[3];
  std::uint32_t repeats;      // folded polls: further identical unsuccessful calls (0 = one call)
};
static_assert(sizeof(Event) == 128);

inline std::uint32_t payload_sum(const Event& e) {
  return std::uint32_t{e.payload_sum[0]} | std::uint32_t{e.payload_sum[1]} << 8 | std::uint32_t{e.payload_sum[2]} << 16;
}
inline void set_payload_sum(Event& e, std::uint32_t sum) {
  e.payload_sum[0] = static_cast<std::uint8_t>(sum);
  e.payload_sum[1] = static_cast<std::uint8_t>(sum >> 8);
  e.payload_sum[2] = static_cast<std::uint8_t>(sum >> 16);
}

// Datatype keys (Event::dtype/rdtype): equal on every rank for the same
// predefined type; a derived type's key is its entry id in ranks/N.types
// (rank-local; compare signatures, never keys, across ranks).
inline constexpr std::uint32_t kTypeNone = 0;           // no datatype argument
inline constexpr std::uint32_t kTypeNull = 0xFFFFFFFFu; // MPI_DATATYPE_NULL or a handle MPI does not know

// Reduction ops (Event::reduce_op): predefined ops by name, user ops, null.
enum class ReduceOp : std::uint8_t {
  None = 0, Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc, Maxloc, Replace, NoOp,
  User = 0xFE, Null = 0xFF,
};

// ranks/N.types (format 2, text, append-only; one line per datatype key the
// rank used, written at first use before the record that names it):
//   "<key-hex> <size> <extent> <lb> <committed 0/1> <predefined 0/1> <name> <sig-hash-hex> <nruns> [<prim-hex>:<n> ...]"
// The signature is the type's flattened primitive sequence for one element,
// run-length encoded (adjacent equal primitives merged, at most 32 runs; a
// longer one keeps the hash only and nruns = -1). Primitive keys are the
// predefined types' keys. A freed derived type's key is never reused.
// Derived types' lines end with their type map (additive, readers ignore
// it if absent): " map <n> [<prim-hex>@<byte displacement> ...]", one
// entry per basic element of one instance in definition order; n = -1 when
// longer than 64 entries or built by a combiner not followed (subarray, darray).
//
// ranks/N.signal (format 2, text): written by the rank's fatal-signal handler,
// "<signal> <current seq> <in MPI call 0/1> <frame-hex> ...".
// ranks/N.exit (format 2, text): written at process exit (atexit) by a rank
// that called MPI_Init and never returned from MPI_Finalize.
//
// ranks/N.errors (format 2, text, append-only): one line per MPI error the
// injector's error handler saw, "<seq> <error-code> <error-class> <message>",
// seq naming the failing call's record.

// Reader decisions on the event stream (added by the trace reader; additive):
// - The file is accepted up to the last record whose seq equals its dense
//   index (1, 2, 3 ...). Zero slots after it are the normal preallocated tail;
//   a nonzero seq out of sequence ends the trace with a warning.
// - Records with t_exit_ns == 0 are kept in RankTrace::events (detectors need
//   truncated events); last_event_in_progress is set when the final record, or
//   the final non-child record followed only by its children, never returned.
// - Sendrecv[_replace]: the Sendrecv record carries the send half (peer = dest,
//   tag = sendtag); the child Recv record (kFlagChild) carries the receive half
//   (peer = source, tag = recvtag) and its completion status.
// - Wait*/Test*: one RequestDone child per completed request, `request` = the
//   injector's request id; a RequestDone with kFlagTestFailed is not a
//   completion. A receive's status_source < 0 means "no message" (PROC_NULL,
//   cancelled, error before matching).
// - Request ids identify one request object on one rank; a persistent
//   request's id is reused across Starts: each Start opens a new instance and
//   the next RequestDone for that id closes it. Start records copy the
//   persistent request's peer/tag/comm/count/bytes and set kFlagPersistent;
//   send vs. receive comes from the SendInit/RecvInit record with that id.
// - A send's message is issued at its Send/Isend/Sendrecv/Start record.
// - Folded polls (format 2): a top-level Test/Testany/Testsome/Testall/
//   Iprobe/Improbe record with kFlagTestFailed and repeats = k stands for
//   k + 1 consecutive unsuccessful calls of one thread at one call site on
//   the same requests (recorder ids) or envelope: t_enter_ns is the first
//   call's entry, t_exit_ns the last one's exit. Only such polls of that
//   thread (at most 4 distinct ones, folded alike: a loop alternating
//   MPI_Test and MPI_Iprobe is two records) were recorded between them, so
//   the records of one polling loop interleave in time. Features, the Markov model (self-edge site -> site counted
//   k times more) and the live state count every call.
// - Request ids are the injector's, assigned at the post: several live
//   requests may share one MPI handle (MPICH returns one handle for every
//   Isend that completes at once); their completions still carry each one's
//   own id (injectors/recorder/request_table.hpp).

inline constexpr std::size_t kMaxFrames = 16;

// A distinct call stack at an MPI call. `stable_hash` is computed from
// (module path, offset in module) per frame, so it is equal across ranks and
// runs of the same binary despite ASLR; it is the key Vrisha's features use.
struct CallSite {
  std::uint32_t id;           // dense, equal to the record index
  std::uint32_t nframes;
  std::uint64_t stable_hash;
  std::uint16_t op;           // op id of the MPI call made here
  std::uint16_t reserved[3];
  std::uint64_t frames[kMaxFrames];  // raw return addresses, innermost first (frame 0 = in the app, wrappers skipped)
};
static_assert(sizeof(CallSite) == 8 + 8 + 8 + 8 * kMaxFrames);
// Reader decision (additive): the sites file may be preallocated with zero
// slots, and an all-zero slot is indistinguishable from site 0 with no frames.
// A written site therefore has nframes >= 1 or stable_hash != 0 (writers map a
// computed hash of 0 to 1); the first slot with nframes == 0 and
// stable_hash == 0, or whose id differs from its index, ends the table.
//
// ranks/N.modules (decided by the reader; additive): one line per loaded
// segment, "<begin-hex> <end-hex> <offset-hex> <path>", where [begin, end) is
// the segment's address range in the rank's process and offset is the
// link-time virtual address of `begin` (p_vaddr from dl_iterate_phdr, or the
// file offset from /proc/self/maps, equal for ordinary ELF layouts). So a
// frame address A in the segment is the module-relative address
// A - begin + offset, which is what addr2line expects. The main executable is
// written with its real path (not ""). Hex numbers may carry a 0x prefix.

// Vrisha's observation vector entries: per call site, calls and bytes moved.
struct SiteFeature {
  std::uint64_t calls;
  std::uint64_t bytes_sent;
  std::uint64_t bytes_received;
};

// AutomaDeD's Markov model: states are call sites (MPI calls); an edge
// (from -> to) is the computation between two consecutive MPI calls.
// Stored as an open-addressing table; an empty slot has count == 0.
inline constexpr std::uint32_t kMarkovStart = 0xFFFFFFFEu;  // virtual state before the first call
struct MarkovEdge {
  std::uint32_t from;   // call-site id or kMarkovStart
  std::uint32_t to;     // call-site id
  std::uint64_t count;
  std::uint64_t total_ns;  // time spent in the transition (computation)
};

inline constexpr std::size_t kMaxPendingRequests = 64;
struct PendingRequest {
  std::uint64_t request;
  std::uint8_t op_class;   // Isend/Irecv/Start/Icollective ...
  std::uint8_t reserved[3];
  std::int32_t peer;
  std::int32_t tag;
  std::uint32_t comm;
  std::uint32_t callsite;
  std::uint32_t reserved2;
};
static_assert(sizeof(PendingRequest) == 32);

// Live state of a rank, rewritten at every call entry and exit. Writers bump
// `version` to odd before and to even after an update (seqlock); a reader
// retries until it sees the same even version before and after copying.
struct LiveState {
  std::uint64_t version;
  std::uint64_t t_update_ns;
  std::uint64_t current_seq;   // seq of the current/last call's record
  std::uint16_t op;            // current/last op id
  std::uint8_t op_class;
  std::uint8_t in_call;        // 1 = inside an MPI call now
  std::uint32_t callsite;
  std::int32_t peer;
  std::int32_t tag;
  std::uint32_t comm;
  std::int32_t finalized;      // 1 after MPI_Finalize returned
  std::uint64_t calls;
  std::uint64_t sends;
  std::uint64_t recvs;
  std::uint64_t collectives;
  std::uint64_t bytes_sent;
  std::uint64_t bytes_received;
  std::uint32_t npending;      // valid entries in `pending` (overflow counted in dropped)
  std::uint32_t pending_dropped;
  PendingRequest pending[kMaxPendingRequests];
};

// Noise (added by injectors/noise; additive, no layout change): a send record
// with kFlagDelayed was deferred by the noise injector; how long is in the
// text file ninja/N.delays of the run directory, one line per delayed send:
// "seq dest tag comm bytes delay_ns" (seq = that send record's seq, dest a
// world rank). A deferred Isend's request is a generalized request for the
// application; its RequestDone has kFlagDelayed too.
// Writer decisions (added by the injector; additive):
// - CommMgmt records: `comm` is the new communicator's id (kCommNull when the
//   call returned MPI_COMM_NULL, e.g. Comm_split with MPI_UNDEFINED) or the
//   freed one's; `root` is the parent communicator's id cast to int32 (kNoPeer
//   for Comm_free). Ids of derived comms hash (members' world ranks, both groups
//   of an intercomm; count of earlier comms with those members); communicators
//   the injector did not see created get a hash of their members' world ranks
//   with the top bit set.
// - Startall: a parent record (class Start, request 0, count = number of
//   requests) followed by one kFlagChild Start record per started request.
// - Wait*/Test* RequestDone children of requests the injector did not create
//   (e.g. from MPI_File_i*) carry request 0. A Test*/Iprobe that completes
//   or finds nothing is one record with kFlagTestFailed and no children.
// - MPI errors: the error handler stores the code in `error` of the current
//   record and sets its t_exit_ns before aborting; LiveState has no error
//   field: its current_seq names that record.
// - Events written with the site-table full carry callsite 0xFFFFFFFF.
// - Mrecv/Imrecv take peer, tag and comm from the Mprobe/Improbe that matched
//   the message (kAnySource/kCommNull if that probe was not seen).
// - Collective records: count/bytes = what this rank contributes (send side;
//   0 where MPI ignores it: non-root Scatter senders, in-place Gather/Allgather
//   at the root); SiteFeature::bytes_received = what it receives (attributed
//   at the post for nonblocking collectives). Point-to-point receives add
//   their status bytes to the posting call site's bytes_received.
inline constexpr std::uint32_t kCommNull = 0xFFFFFFFFu;

// Heap blocks (added by injectors/alloc for DMTracker's allocation sites and
// the usage checks' buffer extents; additive). ranks/N.allocs: FileHeader +
// AllocRecord[], written by the preloaded malloc/calloc/realloc/
// posix_memalign/aligned_alloc/memalign/free for blocks of at least
// SCALEFUZZ_ALLOC_MIN_BYTES (default 64) allocated by the application (not by
// MPI or its transports). `t_ns` is on the events' clock and stored last: the
// file is valid up to the first record with t_ns == 0. `site` is the return
// address of the application frame that called the allocator (frames in libc
// and libstdc++, e.g. operator new, are skipped); map it through
// ranks/N.modules like a call-site frame. Blocks allocated before MPI_Init are
// written at MPI_Init with their original times.
enum class AllocKind : std::uint32_t { Alloc = 1, Free = 2 };
struct AllocRecord {
  std::uint64_t t_ns;
  std::uint64_t addr;
  std::uint64_t size;    // 0 for Free
  std::uint64_t site;    // 0 for Free, or when no application frame was found
  std::uint32_t kind;    // AllocKind
  std::uint32_t reserved;
};
static_assert(sizeof(AllocRecord) == 40);

}  // namespace scalefuzz::trace
