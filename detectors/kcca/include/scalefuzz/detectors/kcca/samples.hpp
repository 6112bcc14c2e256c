// Vrisha's per-rank feature vectors (paper §4.1): a control vector (rank,
// number of ranks, numeric run parameters) and an observation vector (data
// volume per call site, keyed by the call stack's stable hash).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::kcca {

// One process of one run, as KCCA sees it.
struct RankSample {
  std::string run_id;
  int rank = -1;
  int nprocs = 0;
  // Values named by the model's control_names; samples_from_run() fills
  // [rank, nprocs, <numeric params in key order>].
  std::vector<double> control;
  // Feature key -> value. Keys are call-site stable hashes (or hashes derived
  // from them, see VolumeFeature); any other numeric feature can be added
  // under its own 64-bit key without touching the model code.
  std::map<std::uint64_t, double> observation;
};

// Which bytes of a call site become observation features.
enum class VolumeFeature {
  Total,            // bytes_sent + bytes_received under the site's stable hash (default)
  Sent,             // bytes_sent only (the paper's "volume of data sent")
  SentAndReceived,  // two features: sent under the hash, received under received_key(hash)
};

// Key of the "bytes received" feature of a site in VolumeFeature::SentAndReceived.
std::uint64_t received_key(std::uint64_t stable_hash);

// The run-level inputs of the control vector.
struct RunParams {
  std::string run_id;                    // defaults to RunTrace::run_id when empty
  std::map<std::string, double> numeric; // numeric campaign parameters (e.g. "count" -> 256)
};

// Names of the control features samples_from_run() produces for `params`.
std::vector<std::string> control_names(const RunParams& params);

// One sample per rank present in `run` (ranks with rank == -1 are skipped).
// Sites whose volume is zero are left out of the observation map; a site seen
// by several call-site ids of one rank (impossible by construction, but cheap
// to tolerate) is summed.
std::vector<RankSample> samples_from_run(const trace::RunTrace& run, const RunParams& params,
                                         VolumeFeature volume = VolumeFeature::Total);

}  // namespace scalefuzz::detectors::kcca
