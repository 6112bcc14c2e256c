// The decision log writer (ranks/N.decisions, trace format 4; layout in
// scalefuzz/trace/decisions.hpp): every nondeterministic outcome of the
// rank's MPI calls, appended to a mapped file (each entry's kind byte stored
// last, so a killed rank keeps every complete entry). Always on while
// recording. The handlers call these; the replay (injectors/replay) checks
// each logged outcome against the log it enforces.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "scalefuzz/trace/decisions.hpp"

namespace scalefuzz::inject {

struct State;

// Opens RUN_DIR/ranks/N.decisions (after the other trace files).
bool decisions_open(State& s, const std::string& path);
// At MPI_Finalize (the Finalize call's record exists): the trailing failed
// polls, the End entry, the file cut to its used bytes.
void decisions_close();

inline bool is_wildcard(int source, int tag) { return source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG; }

// The ordinal of a wildcard receive or probe posted now (1-based, per rank).
std::uint64_t decision_post();
// Wildcard receive `ordinal` matched a message from world rank `source`
// (trace::kNoMessage: none, e.g. cancelled) with `tag`, or kNoDecisionTag
// when the call named its tag.
void decision_match(std::uint64_t ordinal, std::int32_t source, std::int32_t tag);
// Test*/Iprobe/Improbe outcomes and Waitany/Waitsome indices.
void decision_poll_failed();
void decision_poll();
void decision_index(int index);
void decision_some(const int* indices, int count);

// The number of the current intercepted call (the live state's counter).
std::uint64_t current_call();

// The executable's GNU build id (NT_GNU_BUILD_ID of the main program); 0 bytes if none.
std::size_t exe_build_id(std::uint8_t* out, std::size_t max);

}  // namespace scalefuzz::inject
