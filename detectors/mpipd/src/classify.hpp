// How MPI-PD reads one trace record: which side of a message it is.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::mpipd::detail {

using trace::Event;
using trace::OpClass;

inline OpClass op_class(const Event& e) { return static_cast<OpClass>(e.op_class); }
inline bool unfinished(const Event& e) { return e.t_exit_ns == 0; }
inline bool is_child(const Event& e) { return (e.flags & trace::kFlagChild) != 0; }
inline bool test_failed(const Event& e) { return (e.flags & trace::kFlagTestFailed) != 0; }
inline bool valid_rank(std::int32_t r, int nranks) { return r >= 0 && r < nranks; }

// Request id -> true when the persistent request is a send (from its
// SendInit/RecvInit record), so that Start records can be read.
using PersistentKinds = std::unordered_map<std::uint64_t, bool>;
PersistentKinds persistent_kinds(const trace::RankTrace& rt);

enum class Side { None, SendPost, RecvPost, Completion, Probe, Collective };

// The role of a record in the event graph. PROC_NULL peers carry no message.
Side side_of(const Event& e, const PersistentKinds& kinds);

inline bool is_post(const Event& e) {
  auto c = op_class(e);
  return c == OpClass::Isend || c == OpClass::Irecv || c == OpClass::Start || c == OpClass::Icollective;
}

// "MPI_Recv" or "op 17" when the op table does not know the id.
std::string op_label(const Event& e);

}  // namespace scalefuzz::detectors::mpipd::detail
