// The human listing of a run printed by `scalefuzz trace RUN_DIR`.
#pragma once

#include <ostream>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

// Per rank: header line, warnings, events (seq, op, peer, tag, comm, bytes,
// duration, status, "IN PROGRESS"), then call sites with their frames
// (symbolized frames when `symbolized` is true and symbolize() has filled
// them, raw addresses otherwise), then the live state if present.
void print_run(const RunTrace& run, std::ostream& out, bool symbolized);

}  // namespace scalefuzz::trace
