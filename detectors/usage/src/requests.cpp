#include "requests.hpp"

#include "comms.hpp"
#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::detectors::usage {

std::map<std::uint64_t, OpenRequest> open_requests(const trace::RankTrace& rt, std::size_t end) {
  using trace::OpClass;
  std::map<std::uint64_t, OpenRequest> requests;
  for (std::size_t i = 0; i < end && i < rt.events.size(); ++i) {
    const trace::Event& e = rt.events[i];
    if (e.request == 0) continue;
    switch (op_class(e)) {
      case OpClass::Isend: case OpClass::Irecv: case OpClass::Icollective:
        if (e.error == 0) requests[e.request] = {i, i, false, true, op_class(e) == OpClass::Irecv, false};
        break;
      case OpClass::SendInit: case OpClass::RecvInit:
        if (e.error == 0) requests[e.request] = {i, i, true, false, op_class(e) == OpClass::RecvInit, false};
        break;
      case OpClass::Start:
        if (auto it = requests.find(e.request); it != requests.end()) {
          it->second.active = true;
          it->second.cancelled = false;
          it->second.started = i;
        }
        break;
      case OpClass::RequestDone:
        if (e.flags & trace::kFlagTestFailed) break;
        if (auto it = requests.find(e.request); it != requests.end()) {
          if (it->second.persistent) it->second.active = false, it->second.cancelled = false;
          else requests.erase(it);
        }
        break;
      case OpClass::RequestFree:
        if (e.op == trace::ops::Request_free) requests.erase(e.request);
        else if (auto it = requests.find(e.request); it != requests.end()) it->second.cancelled = true;  // MPI_Cancel
        break;
      default:
        break;
    }
  }
  return requests;
}

}  // namespace scalefuzz::detectors::usage
