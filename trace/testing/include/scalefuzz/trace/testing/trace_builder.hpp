// Hand-built run traces for the detectors' unit tests (no MPI): every rank
// starts with an MPI_Init record and knows the given datatypes; records are
// appended per rank. Shared by detectors/usage and detectors/rma tests.
#pragma once

#include <cstdint>
#include <vector>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace::testing {

// A predefined datatype of one basic type (`key` is also its signature).
TypeEntry predefined_type(std::uint32_t key, const char* name, int size);

struct TraceBuilder {
  RunTrace run;
  TraceBuilder(int ranks, const std::vector<TypeEntry>& types);
  // A record appended to rank `r`: seq dense from 1, entered at 10 x seq ns
  // and left 5 ns later, call site = its index; no peer, tag or root.
  Event& add(int r, std::uint16_t op, OpClass c);
};

}  // namespace scalefuzz::trace::testing
