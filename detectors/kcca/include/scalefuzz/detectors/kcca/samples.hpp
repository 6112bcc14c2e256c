// Vrisha's per-rank feature vectors (paper §4.1): a control vector (rank,
// number of ranks, numeric run parameters) and an observation vector (data
// volume per call site, keyed by the call stack's stable hash).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
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

// How call sites become observation features (issue 37). Vrisha keys
// features by the whole call stack (§4.1); a library that changes its
// communication with the rank count by design (ScaLAPACK's broadcast
// topologies) then shows call sites at the test scales that no training run
// had, and every correct large run is flagged. With `library_entry`, a site
// whose MPI call is made inside a library (the innermost frame after MPI, the
// injector and libc lies outside the application) is keyed by where the
// application enters the library instead: the library's module name and the
// application frames from that call outwards. The library's internal paths
// merge into that one feature, whose volume is what the model scores.
// Sites the application itself makes keep their own stack's key.
struct SiteKeying {
  bool library_entry = false;
  // Path (or basename suffix) of the application's executable, as
  // LocalizeOptions::application_module; empty: a module whose name contains
  // ".so" is a library.
  std::string application_module;
};

// A library site's entry (see SiteKeying): the feature key, the library
// (module basename of the frame the application called) and the index of the
// application frame that calls into it (into CallSiteInfo::symbolized).
struct LibraryEntry {
  std::uint64_t key = 0;
  std::string library;
  std::size_t application_frame = 0;
};
// nullopt for a site the application makes itself, an unsymbolized site, or
// a site without any application frame (a library's own thread).
std::optional<LibraryEntry> library_entry(const trace::CallSiteInfo& site, const std::string& application_module);

// Names of the control features samples_from_run() produces for `params`.
std::vector<std::string> control_names(const RunParams& params);

// One sample per rank present in `run` (ranks with rank == -1 are skipped).
// Sites whose volume is zero are left out of the observation map; a site seen
// by several call-site ids of one rank (impossible by construction, but cheap
// to tolerate) is summed.
// With keying.library_entry, sites are keyed as SiteKeying says (the run must
// be symbolized: trace::symbolize).
std::vector<RankSample> samples_from_run(const trace::RunTrace& run, const RunParams& params,
                                         VolumeFeature volume = VolumeFeature::Total, const SiteKeying& keying = {});

}  // namespace scalefuzz::detectors::kcca
