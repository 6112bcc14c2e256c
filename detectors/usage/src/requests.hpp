// A rank's requests as the usage checks see them (internal): one table for
// the at-finalize checks (usage.cpp) and the wait-for graph (waits.cpp).
#pragma once

#include <cstdint>
#include <map>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::usage {

struct OpenRequest {
  std::size_t post = 0;     // the creating record: Isend/Irecv/Icollective, or SendInit/RecvInit
  std::size_t started = 0;  // the record that made it active: == post, or a persistent request's last Start
  bool persistent = false;
  bool active = false;     // posted or started, not completed yet
  bool receive = false;    // Irecv, or a persistent request created by MPI_Recv_init
  bool cancelled = false;  // MPI_Cancel was called on the active instance
};

// Requests created before record `end` (exclusive) and neither completed
// (non-persistent) nor freed, by request id. Failed posts create none.
std::map<std::uint64_t, OpenRequest> open_requests(const trace::RankTrace& rt, std::size_t end);

}  // namespace scalefuzz::detectors::usage
