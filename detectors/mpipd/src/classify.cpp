#include "classify.hpp"

#include <cstring>

namespace scalefuzz::detectors::mpipd::detail {

PersistentKinds persistent_kinds(const trace::RankTrace& rt) {
  PersistentKinds kinds;
  for (const Event& e : rt.events) {
    if (e.request == 0) continue;
    if (op_class(e) == OpClass::SendInit) kinds[e.request] = true;
    if (op_class(e) == OpClass::RecvInit) kinds[e.request] = false;
  }
  return kinds;
}

Side side_of(const Event& e, const PersistentKinds& kinds) {
  const bool no_message = e.peer == trace::kProcNull;
  switch (op_class(e)) {
    case OpClass::Send:
    case OpClass::Isend:
    case OpClass::Sendrecv:
      return no_message ? Side::None : Side::SendPost;
    case OpClass::Recv:
    case OpClass::Irecv:
      return no_message ? Side::None : Side::RecvPost;
    case OpClass::Start: {
      if (no_message) return Side::None;
      auto it = kinds.find(e.request);
      if (it == kinds.end()) return Side::None;  // creation record lost: cannot tell the side
      return it->second ? Side::SendPost : Side::RecvPost;
    }
    case OpClass::Completion:
    case OpClass::RequestDone:
      return Side::Completion;
    case OpClass::Probe:
      return no_message ? Side::None : Side::Probe;
    case OpClass::Collective:
    case OpClass::Icollective:
      return Side::Collective;
    default:
      return Side::None;
  }
}

std::string op_label(const Event& e) {
  const char* name = trace::op_name(e.op);
  if (name != nullptr && *name != '\0' && std::strchr(name, '?') == nullptr) return name;
  // The op table does not know the id: name the class instead.
  static const char* const kClass[] = {"Other",    "Init",       "Finalize",    "Abort",      "Send",
                                       "Recv",     "Sendrecv",   "Isend",       "Irecv",      "SendInit",
                                       "RecvInit", "Start",      "Completion",  "RequestDone", "Probe",
                                       "Collective", "Icollective", "CommMgmt", "RequestFree"};
  return e.op_class < sizeof kClass / sizeof kClass[0] ? std::string("<") + kClass[e.op_class] + ">"
                                                        : "op " + std::to_string(e.op);
}

}  // namespace scalefuzz::detectors::mpipd::detail
