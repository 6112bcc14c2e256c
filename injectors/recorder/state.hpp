// Per-rank recorder state, created in the MPI_Init wrapper (never by a
// constructor: mpiexec and hydra_pmi_proxy load this library too).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "clock.hpp"
#include "int_map.hpp"
#include "mapped.hpp"
#include "mpi_impl.hpp"
#include "request_table.hpp"
#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

// Test-and-set spinlock; taken only when the application runs
// MPI_THREAD_MULTIPLE, never across a PMPI call that may block.
struct SpinLock {
  int word = 0;
  void lock();
  void unlock() { __atomic_store_n(&word, 0, __ATOMIC_RELEASE); }
};

struct CommInfo {
  std::uint32_t id = 0;
  int size = 0;
  int my_rank = 0;
  bool inter = false;            // peers are ranks of the remote group
  bool identity = false;         // rank r is world rank r
  std::vector<int> to_world;     // comm (or remote group) rank -> world rank
  int world_of(int r) const {
    if (identity) return r;
    return r >= 0 && static_cast<std::size_t>(r) < to_world.size() ? to_world[r] : trace::kNoPeer;
  }
};

struct RequestInfo {
  std::uint64_t id = 0;
  const CommInfo* comm = nullptr;  // CommInfo objects are never deleted
  std::int64_t count = 0;
  std::int64_t bytes = 0;
  std::uint64_t buffer = 0;
  std::int32_t peer = trace::kNoPeer;
  std::int32_t tag = trace::kNoTag;
  std::uint32_t site = 0;
  trace::OpClass cls = trace::OpClass::Other;  // Isend, Irecv, SendInit, RecvInit, Icollective
  bool persistent = false;
  bool active = false;      // persistent: started and not yet completed
  bool cancelled = false;   // MPI_Cancel was called on this instance
  bool free_pending = false;
  std::uint8_t flags = 0;
  std::uintptr_t slot = 0;  // address of the MPI_Request the post wrote (request_table.hpp)
  // Usage checks (local concurrency): buffer_checksum() of a nonblocking
  // send's buffer at the post (0: not taken) and the post's record.
  std::uint64_t checksum = 0;
  std::uint64_t post_seq = 0;
  // The buffer is count x size contiguous bytes: a persistent send is hashed
  // at each MPI_Start, a receive at its completion (trace Event::payload_sum).
  bool contiguous = false;
  // Nonblocking collectives (local concurrency of the receive side): the
  // receive buffer (contiguous receive datatype), its hash taken right after
  // the rank's MPI call numbered `rmark` (events used then), and, once the
  // hash at a later MPI call's entry differed with no MPI call in between
  // (`rwritten`), that entry's hash (handlers_coll.cpp).
  std::uint64_t rbuffer = 0;
  std::int64_t rbytes = 0;
  std::uint64_t rchecksum = 0, rmark = 0, rentry = 0;
  bool rwritten = false;
  // Decision log: the wildcard ordinal of a receive posted with
  // MPI_ANY_SOURCE/MPI_ANY_TAG (0: not one; persistent: of the current
  // Start), whether its tag was MPI_ANY_TAG, and (persistent) whether the
  // receive is a wildcard one.
  std::uint64_t wild_ordinal = 0;
  bool wild_any_tag = false;
  bool wildcard = false;
};

// A message matched by Mprobe/Improbe, for the Mrecv/Imrecv that receives it.
struct MessageInfo {
  std::int32_t source = trace::kNoPeer;  // world rank
  std::int32_t tag = trace::kNoTag;
  std::uint32_t comm = trace::kCommNull;
};

// Call-site table (sites.cpp).
class SiteTable {
 public:
  void init(int depth);  // also reads SCALEFUZZ_STACK_CACHE (sites.cpp)
  // Identifies the call stack of the current MPI call; records new sites.
  // `return_address` (the wrapper's, may be null) replaces the stack walk
  // when the configured depth is 1.
  std::uint32_t current(std::uint16_t op, void* return_address = nullptr);
  // The id of the stack `frames` (innermost first); records a new site.
  std::uint32_t lookup(std::uint16_t op, void* const* frames, int nframes);
  int depth() const { return depth_; }
  std::size_t size() const { return count_; }
  trace::CallSite* file_records = nullptr;  // N.sites records
  std::size_t file_capacity = 0;

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint32_t id = 0;
    std::uint16_t op = 0;
    std::uint8_t nframes = 0;
    bool used = false;
    void* frames[trace::kMaxFrames];
  };
  std::uint32_t add(std::uint64_t hash, std::uint16_t op, void* const* frames, int n);
  std::vector<Entry> table_;
  std::size_t count_ = 0;
  int depth_ = 8;
};

inline constexpr std::uint32_t kSiteOverflow = 0xFFFFFFFFu;  // beyond the site-table capacity

struct State {
  int rank = 0;
  int size = 1;
  bool recording = false;    // SCALEFUZZ_RUN_DIR set and files open
  bool oversubscribe = false;
  bool threaded = false;     // MPI_THREAD_MULTIPLE granted: take locks
  bool fold_polls = true;    // SCALEFUZZ_FOLD_POLLS=0: one record per poll (record.hpp)
  std::uint64_t start_ns = 0;
  std::string ranks_dir;
  std::string exe_path;
  int oversub_spins = 16;
  long oversub_max_sleep_ns = 1000;

  EventLog events;
  FixedMapping sites_file, features_file, markov_file, live_file;
  SiteTable sites;
  trace::SiteFeature* features = nullptr;
  trace::MarkovEdge* markov = nullptr;
  std::size_t markov_capacity = 0;  // power of two
  std::size_t markov_used = 0;
  std::uint64_t markov_dropped = 0;
  // Per call site: 1 + the Markov slot of the edge last counted into it
  // (0: none). A loop repeats its edges, so markov_add() mostly finds its
  // edge there without hashing and probing.
  std::vector<std::uint32_t> markov_into;
  std::uint64_t stack_cache_mismatches = 0;  // call-site cache vs. re-walk disagreements (sites.cpp)
  trace::LiveState* live = nullptr;

  IntMap<CommInfo*> comms;
  IntMap<std::uint32_t> comms_created;  // member-list hash -> communicators created with those members
  RequestTable<RequestInfo> requests;
  IntMap<MessageInfo> messages;  // MPI_Message -> what its Mprobe/Improbe found
  std::uint64_t next_request_id = 1;
  SpinLock lock;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;

  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> module_ranges;  // known [begin, end)
  std::uintptr_t self_begin = 0, self_end = 0;                           // this library's text
};

extern State* g_state;

// Lock guard that costs nothing for single-threaded applications.
class StateLock {
 public:
  StateLock() : s_(g_state->threaded ? &g_state->lock : nullptr) {
    if (s_) s_->lock();
  }
  ~StateLock() {
    if (s_) s_->unlock();
  }
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  SpinLock* s_;
};


// Modules (state.cpp): rewrites N.modules from dl_iterate_phdr.
void write_modules();
bool address_known(std::uintptr_t a);
// The loaded object holding `address`: its mapped range [first, second), or {0, 0}.
std::pair<std::uintptr_t, std::uintptr_t> module_range(std::uintptr_t address);

// Communicators (comms.cpp).
CommInfo* comm_info(MPI_Comm comm);  // registers unknown communicators lazily
// comm_info() under the state lock, memoized per thread (inline: a loop
// names one communicator again and again). Registering or forgetting a
// communicator bumps the generation, which invalidates every thread's memo.
// CommInfo objects are never deleted.
CommInfo* locked_comm_slow(MPI_Comm comm);
namespace comms_detail {
extern constinit unsigned g_comm_generation;
extern thread_local constinit MPI_Comm tl_memo_comm;
extern thread_local constinit CommInfo* tl_memo_comm_info;
extern thread_local constinit unsigned tl_memo_comm_generation;
}  // namespace comms_detail
inline CommInfo* locked_comm(MPI_Comm comm) {
  using namespace comms_detail;
  if (comm == tl_memo_comm && tl_memo_comm_generation == __atomic_load_n(&g_comm_generation, __ATOMIC_ACQUIRE))
    return tl_memo_comm_info;
  return locked_comm_slow(comm);
}
void register_new_comm(MPI_Comm newcomm);
void forget_comm(MPI_Comm comm);
void setup_world_comms();

// Error handler (errors.cpp).
void install_error_handler();
// The same for a window the application created (windows do not inherit it).
void set_window_error_handler(MPI_Win win);

}  // namespace scalefuzz::inject
