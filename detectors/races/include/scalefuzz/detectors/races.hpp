// Unintended message matches (NINJA's message races) found from reconstructed
// send/receive matchings. A receive matched by a send from a call site it was
// never matched with in the quiet (noise: none) runs of the same campaign
// point is an unintended match. Each run's matching-order hash tells
// deterministic campaign points from nondeterministic ones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::races {

// One matched message, reduced to what identifies the routines involved.
struct ObservedMatch {
  std::uint64_t recv_site_hash = 0;  // stable hash of the receive's call site
  std::uint64_t send_site_hash = 0;  // stable hash of the send's call site
  std::uint32_t recv_site_id = 0;    // rank-local site ids, for symbolization
  std::uint32_t send_site_id = 0;
  int recv_rank = -1;
  int send_rank = -1;
  std::int32_t tag = 0;
  std::uint32_t comm = 0;
  std::uint64_t recv_seq = 0;
  std::uint64_t send_seq = 0;
};

struct RunMatchSummary {
  std::string run_id;
  std::string point;        // campaign point: same for runs that differ only in noise/repetition
  std::string noise_label;  // "none", "system-scale1.0", ...
  bool quiet = false;       // noise mode none: these runs form the baseline
  std::vector<ObservedMatch> matches;
  std::uint64_t order_hash = 0;
  std::size_t unmatched_sends = 0;
  std::size_t unmatched_recvs = 0;
};

RunMatchSummary summarize_run(std::string run_id, std::string point, std::string noise_label, bool quiet,
                              const trace::RunTrace& run, const trace::Matching& matching);

struct UnintendedMatch {
  std::string run_id;
  std::string point;
  std::string noise_label;
  ObservedMatch first;       // first occurrence in the run (lowest receive seq on the lowest rank)
  std::size_t occurrences = 0;  // how often this routine pair matched in the run
};

struct PointDeterminism {
  std::string point;
  std::size_t runs = 0;
  std::size_t distinct_order_hashes = 0;
  std::size_t quiet_runs = 0;
};

struct RaceReport {
  std::vector<UnintendedMatch> unintended;        // one per (run, receive site, send site)
  std::vector<PointDeterminism> determinism;      // one per campaign point
  std::vector<std::string> points_without_baseline;  // no quiet run: nothing could be judged
};

RaceReport detect_races(const std::vector<RunMatchSummary>& runs);

// Names a call site for a report: (run id, rank, rank-local site id) -> "func (file:line)".
using SiteNamer = std::function<std::string(const std::string& run_id, int rank, std::uint32_t site_id)>;

// Error findings for unintended matches, Info findings for nondeterministic points.
std::vector<Finding> race_findings(const RaceReport& report, const SiteNamer& name_site);

}  // namespace scalefuzz::detectors::races
