// On-disk format shared by the writer (injectors/) and every reader (harness,
// detectors). Plain fixed-size records so that the injector can write them
// through memory-mapped files: after SIGKILL at any moment the page cache still
// holds every completed store, and a reader accepts a file up to its last
// complete record.
//
// Files of one rank in a run directory (N = world rank):
//   ranks/N.events    FileHeader + Event[]         (the trace)
//   ranks/N.sites     FileHeader + CallSite[]      (call-site table)
//   ranks/N.modules   text: "<begin-hex> <end-hex> <offset-hex> <path>" lines
//   ranks/N.features  FileHeader + SiteFeature[]   (indexed by call-site id)
//   ranks/N.markov    FileHeader + MarkovEdge[]    (open-addressing table)
//   ranks/N.live      FileHeader + LiveState       (seqlock-protected)
//
// Bump kFormatVersion on any layout change; readers reject other versions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scalefuzz::trace {

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr char kMagic[8] = {'S', 'F', 'Z', 'T', 'R', 'A', 'C', 'E'};

enum class FileKind : std::uint32_t {
  Events = 1,
  CallSites = 2,
  Features = 3,
  Markov = 4,
  Live = 5,
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
};

// Event flags.
inline constexpr std::uint8_t kFlagChild = 1u << 0;       // emitted by a call whose own record precedes it
inline constexpr std::uint8_t kFlagSynchronous = 1u << 1; // Ssend/Issend: completes only when matched
inline constexpr std::uint8_t kFlagBuffered = 1u << 2;    // Bsend/Ibsend
inline constexpr std::uint8_t kFlagTestFailed = 1u << 3;  // Test*/Iprobe returned "not complete"/"no message"
inline constexpr std::uint8_t kFlagDelayed = 1u << 4;     // the noise injector delayed this send
inline constexpr std::uint8_t kFlagPersistent = 1u << 5;  // the request is persistent

// Peer and tag sentinels (peer is always a world rank when >= 0).
inline constexpr std::int32_t kAnySource = -1;
inline constexpr std::int32_t kProcNull = -2;
inline constexpr std::int32_t kNoPeer = -3;
inline constexpr std::int32_t kAnyTag = -1;
inline constexpr std::int32_t kNoTag = -3;

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
};
static_assert(sizeof(Event) == 96);

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

}  // namespace scalefuzz::trace
