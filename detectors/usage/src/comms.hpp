// Communicators as the usage checks see them (internal): members by the
// creating records, and which ids are intercommunicators.
#pragma once

#include <cstdint>
#include <map>
#include <set>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::usage {

inline trace::OpClass op_class(const trace::Event& e) { return static_cast<trace::OpClass>(e.op_class); }

struct Comms {
  std::map<std::uint32_t, std::set<int>> members;  // world ranks that created (or are in) each id
  std::set<std::uint32_t> inter;  // intercommunicators: from Intercomm_create, or derived from one (not merged)
};
Comms comms_of(const trace::RunTrace& run);

}  // namespace scalefuzz::detectors::usage
