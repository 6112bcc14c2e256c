// Vrisha §5.4: localize a scale anomaly to a call site and a frame. Call sites
// of the training and test runs are matched by their share of the total
// volume (shares are scale-invariant even when volumes are not); matched sites
// whose call stacks differ are compared from the innermost frame outwards and
// the divergence point is reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/kcca/samples.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::kcca {

struct SiteProfile {
  std::uint64_t stable_hash = 0;
  std::uint16_t op = 0;
  std::uint32_t site_id = 0;            // id in the representative rank it was taken from
  int rank = -1;                        //   ... and that rank
  std::vector<trace::Frame> frames;     // innermost first; symbolized when available, else raw addresses
  double volume = 0;                    // bytes (summed over the ranks considered; mean over runs when merged)
  double share = 0;                     // volume / total volume
};

// Sites ordered by share, largest first.
struct VolumeProfile {
  std::vector<SiteProfile> sites;
  int runs = 0;                         // how many runs were merged into it
};

// Profile of one run over `ranks` (all present ranks when empty). Frames come
// from CallSiteInfo::symbolized when filled (call trace::symbolize first for
// comparisons across runs: raw addresses differ under ASLR), else from the
// raw return addresses with only Frame::address set.
VolumeProfile volume_profile(const trace::RunTrace& run, const std::vector<int>& ranks = {},
                             VolumeFeature volume = VolumeFeature::Total);

// Mean share per stable hash over runs (e.g. all training runs); frames from
// the first run that has the site.
VolumeProfile merge_profiles(const std::vector<VolumeProfile>& profiles);

struct LocalizeOptions {
  // Path (or basename suffix) of the application's executable; frames in
  // other modules count as library frames. When empty, a module whose name
  // contains ".so" is a library and anything else the application.
  std::string application_module;
  std::size_t max_divergences = 5;
  double min_share = 0.0;               // ignore test sites below this share
};

struct Divergence {
  std::uint64_t test_hash = 0, train_hash = 0;
  std::uint32_t test_site_id = 0, train_site_id = 0;
  int test_rank = -1, train_rank = -1;
  std::uint16_t op = 0;                 // MPI op of the test site
  double test_share = 0, train_share = 0;
  std::vector<int> differing_frames;    // indices into the test stack, innermost first
  // Outermost differing frame below the common caller part: the function
  // where the two paths split (paper Fig. 6: MPIR_Allgather). -1 when the
  // stacks are identical (the site's volume share changed, not its path).
  int divergence_frame = -1;
  std::optional<trace::Frame> test_frame, train_frame;  // at divergence_frame (aligned from the outside)
  std::string where = "unknown";        // "application", "library" or "unknown" (unsymbolized)
  bool from_crash = false;              // ordered first because it is the crash site
  std::string reason;                   // one line for people
};

// `crash_site_hash`: for a crashed test run, the stable hash of the call site
// of the last recorded call (see crash_site()); it is localized first against
// the training site with the most similar stack.
std::vector<Divergence> localize(const VolumeProfile& train, const VolumeProfile& test,
                                 const LocalizeOptions& options = {},
                                 std::optional<std::uint64_t> crash_site_hash = std::nullopt);

// Stable hash of the call site of the last recorded event of `rank` (the call
// in progress, if any), or nullopt when the rank recorded nothing.
std::optional<std::uint64_t> crash_site(const trace::RankTrace& rank);

// "application" / "library" / "unknown" for one frame.
std::string frame_origin(const trace::Frame& frame, const LocalizeOptions& options);

}  // namespace scalefuzz::detectors::kcca
