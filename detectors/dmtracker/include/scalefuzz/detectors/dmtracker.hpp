// DMTracker (Gao, Qin, Panda, SC'07): data-movement chains and the invariants
// on them. Pure functions over data movements; no MPI, no trace files. The
// analysis glue (dmtracker/analysis) turns a run's trace into Movements.
//
// Paper -> code:
//   §4.2 chain formation (active chain table, intra- and inter-process
//        linking)                                   build_chains()
//   §4.3 chain groups, Eq. 1-2 uniqueness           group_chains(), uniqueness()
//   §4.3.1 FC-invariant selection                   select_fc_invariants()
//   §4.3.2 Eq. 3-5 chain distributions, k-th NN     chain_distributions(), distance_k()
//   §4.4.1 Eq. 6-8 similarity, rareness, abnormality fc_violations()
//   §4.4.2 chain instance (context) checking        fc_violations()
//   §4.5 CD outliers (K x average), last-phase halving cd_outliers()
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace scalefuzz::detectors::dmtracker {

// What a data movement is (Eq. 2 gives each kind its uniqueness).
enum class OpKind : std::uint8_t {
  Copy,    // a single memory copy (uniqueness 1)
  Net,     // a message: send buffer in one process -> receive buffer in another (M)
  Coll,    // a collective: this rank's contribution -> its result buffer (M)
  Pack,    // MPI_Pack: n segments of a user buffer -> a contiguous buffer (min(N, n))
  Unpack,  // MPI_Unpack: contiguous buffer -> n segments (min(N, n))
};
const char* to_string(OpKind k);

// A buffer range in one process, with the allocation site of the memory
// object holding it (0 = unknown: stack, globals or untracked heap).
struct BufferRange {
  int rank = -1;               // -1: no such side (e.g. an unmatched receive has no source)
  std::uint64_t addr = 0;
  std::uint64_t len = 0;
  std::uint64_t alloc_site = 0;  // stable key of the allocation call site
  // Which allocation holds it (0 = none known): an address freed and
  // allocated again is another block, and what was written into the old one
  // does not flow into the new one.
  std::uint64_t block = 0;
  // A datatype with holes (size < extent) touches only some bytes of the
  // range, which ones the trace does not say (no displacements): 0 for a
  // contiguous range, else the element extent. Two such ranges with the same
  // extent whose starts are not a whole number of elements apart touch
  // different fields (a halo column and the column next to it) and do not
  // link; a strided write leaves the bytes between its pieces to their
  // earlier writers.
  std::uint64_t stride = 0;
};

// One DM-operation.
struct Movement {
  OpKind kind = OpKind::Net;
  std::uint64_t site = 0;      // stable key of the operation's call site(s); for Net both ends
  BufferRange src;
  BufferRange dst;
  std::uint64_t t_read = 0;    // when src was read (at src.rank)
  std::uint64_t t_write = 0;   // when dst was written (at dst.rank)
  int segments = 1;            // Pack/Unpack: contiguous pieces
  std::uint64_t ref = 0;       // caller's handle (e.g. an event reference) for reporting
};

struct Parameters {
  // Eq. 2 (paper §4.3.1: "we use M = 2", "We use N = 10").
  double network_uniqueness = 2.0;  // M
  int pack_segments_cap = 10;       // N
  // §4.3.1: "we set the uniqueness threshold to 5, and require the number of
  // chains in a chain group for FC-invariants to account for more than 10%".
  double uniqueness_threshold = 5.0;
  double fc_min_share = 0.10;
  // §4.4.1: "reports all violations with an abnormality score more than 0.7".
  double abnormality_threshold = 0.7;
  // §4.5: "we use 5 as the value of parameter K"; §4.3.2: k = n/4.
  double outlier_factor = 5.0;
  double k_fraction = 0.25;
  // §4.4.2 "closely before/after": how many movements of the same process
  // around a chain instance are compared with the unmatched part (our choice;
  // the paper gives no number).
  std::size_t context_window = 8;
  // §4.5 last-phase refinement: rounds of halving the time range when no
  // outlier is found (0 = off).
  int halving_rounds = 0;
};

double uniqueness(const Movement& m, const Parameters& p);

// A chain: indices into the movement list, in data-flow order.
struct Chain {
  std::vector<std::size_t> moves;
  int start_rank = -1;          // the process the chain starts from (§4.3.2)
  std::uint64_t t_start = 0;
};

// §4.2: link movements whose source range overlaps the range the latest
// earlier movement wrote in that process (active chain table per process);
// a message links the send's chain to the receive's chain through the
// Movement itself. A write read by several later movements forks: every
// root-to-leaf path is one chain.
std::vector<Chain> build_chains(const std::vector<Movement>& moves);

// The symbol of a movement for grouping (§4.3: same call sites of the
// DM-operations and same allocation sites of source and destination).
struct Symbol {
  OpKind kind;
  std::uint64_t site;
  std::uint64_t src_alloc;
  std::uint64_t dst_alloc;
  friend bool operator==(const Symbol&, const Symbol&) = default;
};
Symbol symbol_of(const Movement& m);

struct ChainGroup {
  std::vector<Symbol> type;           // the chain type
  std::vector<double> op_uniqueness;  // Eq. 2 per position
  double uniqueness = 0;              // Eq. 1
  std::vector<std::size_t> chains;    // indices into the chain list
  std::size_t frequency() const { return chains.size(); }
};

struct Grouping {
  std::vector<ChainGroup> groups;
  std::vector<std::size_t> group_of;  // chain index -> group index
};
Grouping group_chains(const std::vector<Movement>& moves, const std::vector<Chain>& chains, const Parameters& p);

// §4.3.1: groups with uniqueness >= threshold holding > fc_min_share of the
// chains of all groups above the threshold.
std::vector<std::size_t> select_fc_invariants(const Grouping& g, const Parameters& p);

// Longest common substring of two chain types, maximizing summed uniqueness
// (Eq. 6's C ∩ P). Positions are where it starts in a and b.
struct CommonPart {
  std::size_t a_pos = 0, b_pos = 0, length = 0;
  double uniqueness = 0;
};
CommonPart longest_common_substring(const ChainGroup& a, const ChainGroup& b);

double similarity(const ChainGroup& c, const ChainGroup& p, const CommonPart& common);  // Eq. 6
double rareness(std::size_t freq_c, std::size_t freq_p);                                // Eq. 7
double abnormality(double similarity, double rareness);                                 // Eq. 8

struct Violation {
  std::size_t group = 0;       // the abnormal chain group C
  std::size_t invariant = 0;   // the FC-invariant P it violates
  CommonPart common;
  double similarity = 0, rareness = 0, abnormality = 0;
  std::size_t instances = 0;             // chains in C
  std::size_t context_matches = 0;       // instances whose neighbourhood holds P's missing part
  std::size_t example_chain = 0;         // a chain of C (a context-matched one if any)
  std::size_t example_context_move = SIZE_MAX;  // the movement that matched P's missing part
};

// §4.4: violations of every FC-invariant, ranked context-match first, then by
// abnormality. `invariants` are groups of `g`: selected in this run
// (select_fc_invariants) or the types known-good runs selected
// (KnownGood::invariants_in). `known_normal` (per group of `g`; empty = none)
// marks chain types known-good runs also had: those are never violations.
std::vector<Violation> fc_violations(const std::vector<Movement>& moves, const std::vector<Chain>& chains,
                                     const Grouping& g, const std::vector<std::size_t>& invariants,
                                     const Parameters& p, const std::vector<bool>& known_normal = {});

// ---- chain distributions (§4.3.2, §4.5) -----------------------------------

// Eq. 3 for each rank in `ranks`: share of the chains starting there per group.
std::vector<std::vector<double>> chain_distributions(const std::vector<Chain>& chains, const Grouping& g,
                                                     const std::vector<int>& ranks, std::uint64_t t_from = 0);
double manhattan(const std::vector<double>& a, const std::vector<double>& b);  // Eq. 4
// Eq. 5: distance of each distribution to its k-th nearest other one.
std::vector<double> distance_k(const std::vector<std::vector<double>>& cd, std::size_t k);

struct Outlier {
  int rank = -1;
  double distance_k = 0;
  double average = 0;
  std::size_t top_group = 0;  // group contributing most to the distance to the k-th neighbour
  int neighbour = -1;         // that k-th nearest rank
  int round = 0;              // 0 = whole run; r = the last 1/2^r of the time range
};

struct CdResult {
  std::vector<int> ranks;
  std::vector<double> distance_k;  // per entry of ranks, whole run
  double average = 0;
  std::size_t k = 0;
  std::vector<Outlier> outliers;
};

// §4.5: ranks whose Distance^k exceeds K x the average. `ranks` empty = every
// rank with chains (a master/worker program passes its workers). With
// `good_distance_k` (indexed by rank number: the largest Distance^k that rank
// had in known-good runs), a rank is an outlier only if it also exceeds K x that.
CdResult cd_outliers(const std::vector<Chain>& chains, const Grouping& g, std::vector<int> ranks,
                     const Parameters& p, const std::vector<double>& good_distance_k = {});

// ---- invariants from known-good runs -----------------------------------------

// A chain type's key, equal in every run of one binary when the movements'
// call-site and allocation-site keys are (stable hashes of module + offset).
std::uint64_t type_key(const ChainGroup& g);

// What known-good runs of the program taught: the chain types selected as
// FC-invariants in any of them, every chain type they had, and per run size
// the largest Distance^k of each rank.
struct KnownGood {
  std::set<std::uint64_t> invariant_types;
  std::set<std::uint64_t> normal_types;
  std::map<int, std::vector<double>> distance_k;  // nprocs -> per rank number
  std::size_t runs = 0;

  void learn(const Grouping& g, const std::vector<std::size_t>& fc, const CdResult& cd, int nprocs);
  // The groups of `g` whose type is a known FC-invariant.
  std::vector<std::size_t> invariants_in(const Grouping& g) const;
  // Per group of `g`: its type occurred in a known-good run.
  std::vector<bool> normal_in(const Grouping& g) const;
  // Per rank number at this run size (empty when no known-good run had it).
  std::vector<double> distance_k_at(int nprocs) const;
};

}  // namespace scalefuzz::detectors::dmtracker
