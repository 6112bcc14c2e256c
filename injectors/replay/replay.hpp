// Replay: enforces a decision log (SCALEFUZZ_REPLAY_DIR/N.decisions) on this
// rank. Wildcard receives and probes are posted with the recorded source and
// tag (by post order: MPI's non-overtaking rule then matches the recorded
// message), a Test*/Iprobe the log says failed returns "not yet" without
// calling MPI, one that succeeded waits for exactly the recorded request or
// message, Waitany/Waitsome wait for the recorded indices. A call the log does
// not expect is a divergence: written to RUN_DIR/ranks/N.replay, then the rank
// goes on unforced. Contract: trace/README.md, "Decision logs and replay".
#pragma once

#include <mpi.h>

#include <cstdint>

#include "handlers.hpp"

namespace scalefuzz::inject {

struct CommInfo;
struct State;

// True while this rank enforces a log (cleared at divergence, at the log's
// Free entry, after a truncated log's last entry).
extern constinit bool g_replaying;

// At setup, after the trace files are open: reads SCALEFUZZ_REPLAY_DIR.
void replay_start(State& s);
// At every intercepted call, after it was counted (number `call`).
void replay_on_call(const Call& c, std::uint64_t call, std::uint32_t site);
// At the return of every intercepted call (number `call`).
void replay_on_return(std::uint64_t call);
// A wildcard receive/probe with `ordinal` is posted now: true when the log
// forces it, with the comm ranks `source` and `tag` to post (`blocking`: it
// completes in this call, whose number the log must name).
bool replay_force_post(std::uint64_t ordinal, const CommInfo* comm, bool blocking, int& source, int& tag);
// A wildcard receive's match became known (called by decision_match).
void replay_check_match(std::uint64_t ordinal, std::int32_t source, std::int32_t tag, std::uint64_t call);

// What a Test*/Iprobe/Improbe/Waitany/Waitsome at this call must do.
enum class PollPlan : std::uint8_t { Free, Fail, Succeed };
struct PollForce {
  PollPlan plan = PollPlan::Free;
  int index = -1;         // Index entries
  int nindices = 0;       // Some entries
  const int* indices = nullptr;
};
// `must_succeed`: Waitany/Waitsome (a missing entry is a divergence).
PollForce replay_poll(bool must_succeed);
// At MPI_Finalize: the End entry.
void replay_finalize();

// comm rank of world rank `world` in `comm` (MPI_ANY_SOURCE if not a member).
int comm_rank_of_world(const CommInfo* comm, int world);

}  // namespace scalefuzz::inject
