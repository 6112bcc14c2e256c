// The input of the PDG analysis distilled from a run's traces: program states
// unified across ranks, each task's current state and Markov model, and the
// point-to-point dependencies read from the live state. Kept compact so that
// 10^6 tasks fit in memory (RankTrace carries far more than the PDG needs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "scalefuzz/detectors/pdg/markov_chain.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::pdg {

inline constexpr std::uint32_t kNoSite = 0xFFFFFFFFu;
inline constexpr std::uint32_t kStartState = 0;  // index of the virtual start state

// A Markov state shared by all ranks: a call site identified by its stable
// hash, or the virtual start state (before the first MPI call).
struct ProgramState {
  bool is_start = false;
  std::uint64_t stable_hash = 0;
  std::uint16_t op = 0;
  int site_rank = -1;                 // first rank seen with this call site...
  std::uint32_t site_id = kNoSite;    // ...and its local call-site id there
};

// One task's Markov model in global state indices, sorted by (from, to).
// Identical models of many tasks are stored once.
struct LocalModel {
  std::vector<Transition> transitions;
  std::size_t tasks = 0;  // how many tasks have exactly this model
};

struct TaskInfo {
  int rank = -1;
  std::uint32_t state = kStartState;  // current state (global index)
  std::uint32_t site_id = kNoSite;    // the same as this rank's local call-site id
  std::uint32_t model = 0;            // index into ProgressModel::models
  bool in_call = false;               // blocked inside the MPI call (else computing after it)
  bool finalized = false;             // MPI_Finalize returned
  bool aborted = false;               // called MPI_Abort: its own verdict on the run (issue 35)
};

// Definition 2: `task` cannot progress until `peer` does.
struct P2pDependence {
  int task = -1;
  int peer = -1;
};

struct ProgressModel {
  std::vector<ProgramState> states;  // [kStartState] is the virtual start state
  std::vector<TaskInfo> tasks;       // sorted by rank
  std::vector<LocalModel> models;
  std::vector<P2pDependence> p2p;    // sorted by task, then peer
  std::size_t any_source_waits = 0;  // blocked receives on MPI_ANY_SOURCE (no dependence inferred)
  std::vector<std::string> warnings;
};

// Accumulates ranks one at a time, so a caller can stream 10^6 ranks through
// one reused RankTrace.
class ProgressModelBuilder {
 public:
  ProgressModelBuilder();
  // Throws std::invalid_argument for rank < 0 or a rank added twice.
  // Inconsistent records (a call-site id outside the rank's table) are
  // skipped and reported in ProgressModel::warnings.
  void add_rank(const trace::RankTrace& rank);
  void reserve(std::size_t ranks) { model_.tasks.reserve(ranks); }
  ProgressModel finish();

 private:
  std::uint32_t state_of(const trace::RankTrace& rank, std::uint32_t site_id);
  void warn(std::string message);
  std::uint32_t map_sites_and_model(const trace::RankTrace& rank);

  // Ranks of an SPMD program mostly repeat the call-site table and Markov
  // model of another rank verbatim; those reuse its mapping (a cache, so
  // 10^6 ranks build in well under a second).
  struct Known {
    std::vector<std::uint64_t> site_hashes;
    std::vector<trace::MarkovModel::Edge> edges;
    std::vector<std::uint32_t> site_state;
    std::uint32_t model = 0;
  };
  std::vector<Known> known_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> known_by_hash_;
  std::vector<std::uint32_t> recent_;  // indices into known_, most recent first

  ProgressModel model_;
  std::unordered_map<std::uint64_t, std::uint32_t> state_by_hash_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> models_by_hash_;
  std::vector<std::uint32_t> site_state_;  // scratch: local site id -> global state
  std::vector<Transition> scratch_;
  std::vector<int> peers_;
  std::size_t warnings_dropped_ = 0;
};

// Every traced rank of the run; ranks without a trace (rank == -1) are left
// out with a warning.
ProgressModel build_progress_model(const trace::RunTrace& run);

}  // namespace scalefuzz::detectors::pdg
