// AutomaDeD's progress-dependence graph (Laguna et al., TPDS, §2-4): from the
// per-rank Markov models and live states of a hung run, the task groups, the
// progress dependencies between them, and the least-progressed (LP) task(s).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/pdg/dependence.hpp"
#include "scalefuzz/detectors/pdg/markov_chain.hpp"
#include "scalefuzz/detectors/pdg/progress_model.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::pdg {

enum class Variant {
  SemiDist,  // one global Markov model (all tasks' edges merged), Algorithm 3
  Dist,      // each task's own model, views merged by the Table 2 union, Algorithm 2
};
const char* to_string(Variant v);

enum class P2pElimination {
  // §4.3 as written: when several LP nodes are found, discard LP tasks with a
  // point-to-point dependence on a non-LP task.
  Paper,
  // Paper, and also discard an LP task that waits (point-to-point) on a task
  // whose chain of point-to-point waits ends in tasks that are computing
  // (outside MPI, not finalized): those cannot be waiting for the LP task, so
  // it is not the least progressed. Chains through a cycle or through a task
  // blocked without a known peer (collective, ANY_SOURCE) may lead back to
  // it and discard nothing.
  Strict,
};

struct PdgOptions {
  Variant variant = Variant::SemiDist;
  P2pElimination elimination = P2pElimination::Strict;
  // Extension beyond the paper, off by default: split task groups by how many
  // times their tasks entered their current state, and decide pairs that
  // Table 1 leaves undefined (both in one loop) or that share a state when
  // one group's visit counts of both states are >= the other's and not equal:
  // that group progressed further and depends on the other.
  bool resolve_with_visit_counts = false;
  // Text for a state in the Graphviz output (e.g. a symbolized location).
  // Default: "MPI call site 0x<stable hash>" or "start".
  std::function<std::string(const ProgramState&)> state_label;
};

// A group of tasks in the same state.
struct PdgNode {
  std::uint32_t state = kStartState;   // index into ProgressModel::states
  ProgramState where;                  // copy of that state
  std::uint64_t visits = 0;            // only with resolve_with_visit_counts
  int site_rank = -1;                  // first task of the node and its own call-site id
  std::uint32_t site_id = kNoSite;     // (kNoSite in the start state)
  std::vector<int> ranks;              // sorted
  std::string ranks_text;              // compact, "0-3,7"
  std::size_t in_call = 0;             // tasks blocked inside the call; the rest compute after it
  bool lp = false;
  bool aborted = false;                // its tasks called MPI_Abort
};

enum class EdgeKind {
  Progress,      // from -pd-> to, inferred from the Markov model (Table 1)
  Undefined,     // Table 1 "?" (undirected)
  PointToPoint,  // tasks of `from` wait on a peer in `to` (Definition 2)
};
const char* to_string(EdgeKind k);

struct PdgEdge {
  std::size_t from = 0;  // node indices
  std::size_t to = 0;
  EdgeKind kind = EdgeKind::Progress;
  std::optional<double> p_forward;   // P(from ~> to), SEMI-DIST only
  std::optional<double> p_backward;  // P(to ~> from), SEMI-DIST only
  bool by_visit_counts = false;      // decided by resolve_with_visit_counts
  std::size_t tasks = 0;             // PointToPoint: number of task-level dependencies
};

struct PdgResult {
  Variant variant = Variant::SemiDist;
  std::vector<PdgNode> nodes;
  std::vector<PdgEdge> edges;
  std::vector<std::size_t> lp_nodes;    // nodes holding LP tasks
  std::vector<int> lp_tasks;            // sorted world ranks
  std::vector<int> eliminated_tasks;    // LP candidates discarded by the point-to-point step
  // Tasks that called MPI_Abort and their nodes. An abort is the task's own
  // verdict: the run ended there, and the other tasks' states are where the
  // abort stopped them, not a hang (issue 35). The LP analysis is still
  // computed and shown, but findings name the aborted tasks.
  std::vector<int> aborted_tasks;
  std::vector<std::size_t> aborted_nodes;
  // The LP state's call site, for symbolization: site `lp_site` of rank
  // `lp_site_rank` (the first LP task); kNoSite for the start state.
  std::uint32_t lp_site = kNoSite;
  std::uint64_t lp_site_hash = 0;
  int lp_site_rank = -1;
  std::vector<std::string> notes;       // warnings and what could not be decided
  std::string dot;                      // Graphviz, LP nodes highlighted
};

PdgResult analyze_progress(const ProgressModel& model, const PdgOptions& options = {});
PdgResult analyze_progress(const trace::RunTrace& run, const PdgOptions& options = {});

// An extension of the §4.3 elimination step (scalefuzz's, not the paper's):
// when several LP groups remain and the tasks of one group wait
// point-to-point on another LP group that does not wait back on it, the
// waiting group cannot be the least progressed and is dropped; never every
// group. Applied by the harness after analyze_progress().
void drop_lp_groups_waiting_on_lp(PdgResult& result);

// One finding of kind "lp-task" per LP node (detector "pdg"), with the PDG as
// a "text/vnd.graphviz" artifact. `location` is left empty: details.site holds
// {rank, id, stable_hash} for the caller to symbolize. When tasks called
// MPI_Abort, one finding of kind "aborted-task" per node of aborted tasks
// instead (its site: the MPI_Abort call), the LP tasks in its details.
std::vector<Finding> pdg_findings(const PdgResult& result, const std::string& run_id);

// ---- fault-injection metrics (§5.2.2) --------------------------------------

struct InjectionOutcome {
  int injected_rank = -1;
  std::vector<int> lp_tasks;
  bool injected_isolated = false;  // the injected task is alone in its PDG node
};

struct Coverage {
  std::size_t injections = 0;
  std::size_t accurate = 0;  // LP set includes the faulty task
  std::size_t precise = 0;   // LP set includes no non-faulty task
  std::size_t isolated = 0;  // not accurate, but the faulty task is a singleton node ("semi-successful")
  double accuracy = 0.0;     // accurate / injections
  double precision = 0.0;    // precise / injections (1 - false-positive rate)
};

Coverage coverage(std::span<const InjectionOutcome> outcomes);

// Whether `rank` is the only task of its PDG node (the paper's "isolation").
bool is_isolated(const PdgResult& result, int rank);

}  // namespace scalefuzz::detectors::pdg
