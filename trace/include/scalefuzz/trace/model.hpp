// In-memory model of one run's recorded data: what the readers produce and
// every detector consumes. Detectors are pure functions over these types, so
// their unit tests build them by hand without MPI.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::trace {

// One frame of a symbolized call site. Only filled when reporting.
struct Frame {
  std::uint64_t address = 0;   // raw return address in the rank's process
  std::string module;          // path of the ELF object holding it
  std::uint64_t offset = 0;    // address relative to the module's load base
  std::string function;        // demangled, "" if unknown
  std::string file;            // source file, "" if unknown
  int line = 0;                // 0 if unknown
};

struct CallSiteInfo {
  std::uint32_t id = 0;
  std::uint64_t stable_hash = 0;  // equal across ranks and runs (see format.hpp)
  std::uint16_t op = 0;
  std::vector<std::uint64_t> frames;  // raw return addresses, innermost first
  std::vector<Frame> symbolized;      // empty until symbolize() is called
};

struct MarkovModel {
  struct Edge {
    std::uint32_t from = kMarkovStart;  // call-site id of this rank (or kMarkovStart)
    std::uint32_t to = 0;
    std::uint64_t count = 0;
    std::uint64_t total_ns = 0;
  };
  std::vector<Edge> edges;
};

// One line of ranks/N.types (format 2): a datatype key's description.
struct TypeEntry {
  std::uint32_t key = 0;
  std::int64_t size = 0;
  std::int64_t extent = 0;
  std::int64_t lb = 0;
  bool predefined = false;
  std::string name;                                         // MPI_Type_get_name, "-" if none
  std::uint64_t signature_hash = 0;
  bool signature_known = false;                             // runs hold the whole signature
  std::vector<std::pair<std::uint32_t, std::uint64_t>> runs;  // (primitive key, repetitions) per element
  // Derived types: the type map of one element, (primitive key, byte
  // displacement) per basic entry in definition order (" map" tail; empty and
  // map_known false when not recorded or longer than 64 entries).
  bool map_known = false;
  std::vector<std::pair<std::uint32_t, std::int64_t>> map;
};

// One line of ranks/N.errors (format 2): an MPI error the injector saw.
struct RecordedError {
  std::uint64_t seq = 0;       // the failing call's record (0: none in progress)
  int code = 0;
  int error_class = 0;
  std::string message;         // MPI_Error_string (MPICH's text)
};

// ranks/N.signal (format 2): the fatal signal that killed the rank, recorded
// by the rank's own handler (injectors/recorder/signals.cpp).
struct FatalSignal {
  int signal = 0;
  std::uint64_t seq = 0;               // current/last record at the signal
  bool in_call = false;                // inside an MPI call
  std::vector<std::uint64_t> frames;   // raw return addresses, innermost first (handler frames included)
};

struct RankTrace {
  int rank = -1;
  int world_size = 0;
  std::int64_t pid = 0;
  std::uint64_t start_ns = 0;
  std::vector<Event> events;            // in seq order, complete records only
  bool last_event_in_progress = false;  // the final record never returned
  std::vector<CallSiteInfo> sites;      // index == id
  std::vector<SiteFeature> features;    // index == call-site id
  MarkovModel markov;
  std::optional<LiveState> live;        // absent if the file is missing
  std::vector<TypeEntry> types;         // ranks/N.types, in file order (format 2)
  // Datatype key -> index into `types` of its last line (later lines win),
  // built by the reader (index_types). find_type uses it while it covers
  // every entry (types_indexed == types.size()), else scans: a production
  // code creates a type for most transfers (issue 37: 250,000 in one run).
  std::unordered_map<std::uint32_t, std::size_t> type_index;
  std::size_t types_indexed = 0;
  std::vector<RecordedError> errors;    // ranks/N.errors (format 2)
  std::optional<FatalSignal> fatal_signal;  // ranks/N.signal (format 2)
  bool exited_without_finalize = false;     // ranks/N.exit (format 2): exit()/return from main before MPI_Finalize
  std::vector<std::string> warnings;    // e.g. "events: 3 trailing bytes ignored"
  bool events_capped = false;           // the run's trace size cap stopped recording (ranks/N.capped)
};

struct RunTrace {
  std::string run_id;
  std::vector<RankTrace> ranks;         // index == world rank; missing ranks have rank == -1
};

// ---- reading -------------------------------------------------------------

// Reads one rank's files from `rank_dir_root/ranks/`. Throws TraceError with
// the file path and the reason when a file is unreadable, of another version,
// or of another kind; a partially written tail is accepted (and noted in
// warnings), never an error.
RankTrace read_rank(const std::filesystem::path& run_dir, int rank);

// Reads every rank found under run_dir/ranks/.
RunTrace read_run(const std::filesystem::path& run_dir);

class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Fills CallSiteInfo::symbolized for every site of `rank` (DWARF via libdw at the
// module-relative offsets from ranks/N.modules). Best effort: unknown frames
// keep empty names.
void symbolize(const std::filesystem::path& run_dir, RankTrace& rank);

// The entry of a datatype key in `rank.types`, or null: O(1) once
// index_types() has indexed every entry, else a scan.
const TypeEntry* find_type(const RankTrace& rank, std::uint32_t key);

// (Re)builds rank.type_index over rank.types; the reader calls it, code that
// fills `types` by hand may.
void index_types(RankTrace& rank);

// Human-readable op name for a generated op id ("MPI_Isend").
const char* op_name(std::uint16_t op);

// ---- message matching ----------------------------------------------------

// A reference to one record: rank and index into RankTrace::events.
struct EventRef {
  int rank = -1;
  std::size_t index = 0;
  friend bool operator==(const EventRef&, const EventRef&) = default;
};

struct MatchedMessage {
  EventRef send;        // Send / Isend / Sendrecv / Start-of-persistent-send record
  EventRef recv_post;   // Recv / Irecv / child Recv of Sendrecv / Start-of-persistent-recv record
  EventRef recv_done;   // record carrying the completion status (== recv_post for blocking)
  std::uint32_t comm = 0;
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
};

struct Matching {
  std::vector<MatchedMessage> messages;
  std::vector<EventRef> unmatched_sends;   // sent, never received (in the traces)
  std::vector<EventRef> unmatched_recvs;   // posted, never completed with a message
  std::uint64_t order_hash = 0;            // hash of the match order; equal for runs that matched identically
};

// Reconstructs which send matched which receive: per (source, destination,
// communicator, tag) the k-th completed receive in posting order matches the
// k-th send in issue order (MPI's non-overtaking rule); wildcard receives are
// resolved from their completion status.
Matching match_messages(const RunTrace& run);

}  // namespace scalefuzz::trace
