// The schedule-exploration contract (issue 30; issue 28: the engine does not
// depend on a technique's library): what the engine's exploration
// (harness/engine explore.hpp) needs from the technique that analyses a
// trace's nondeterminism, and the record the two share.
//
// - A run's nondeterminism, as values: its matches (ObservedMatch), each
//   wildcard receive with the sends it could have matched instead
//   (WildcardAlternatives), each MPI_Waitany/MPI_Testany return with the
//   requests that could have come first (CompletionAlternatives).
// - Match tuples as coverage (MatchTuple, MatchCoverage).
// - The record of one exploration (ExploredAlternative, ExplorationRecord:
//   OUT/explore/<point>.json), which the engine writes and the technique
//   reads back to judge the races.
// - ScheduleAnalysis: the technique's functions that compute the above from
//   a trace and judge an exploration, set in its DetectorInfo
//   (schedule_analysis) and found by the engine through the registry.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::exploration {

// One matched message, with both sides' instance identities (instances,
// rounds and phases as the technique that analyses schedules counts them).
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
  std::uint64_t send_instance = 0;  // number of this send among (sender, site, comm, tag)'s sends, from 0
  std::uint64_t send_to_instance = 0;  // ... among those of them to this send's destination, from 0
  std::uint64_t recv_instance = 0;  // number of this receive among (receiver, site, comm)'s receives, from 0
  std::uint64_t recv_round = 0;     // the receiver's round at the receive's post
  // Its phase: rounds split further where a receive is posted while none of
  // the rank's earlier receives is pending (post, wait for all, post again:
  // a receiver that never sends between two exchanges). Used by lock-step only.
  std::uint64_t recv_phase = 0;
  std::uint64_t recv_done_ns = 0;   // when the receive completed (orders the run's divergences)
  bool wildcard = false;            // posted with MPI_ANY_SOURCE
  bool after_own_post = false;      // the send causally follows the receive's post (answers what the receiver did after posting)
};

// A send another rank made that a wildcard receive instance could have
// taken instead of the one it took (ScheduleAnalysis::wildcard_alternatives).
struct AlternativeSend {
  int send_rank = -1;
  std::uint64_t send_site_hash = 0;
  std::uint32_t send_site_id = 0;
  std::uint64_t send_instance = 0;
  std::int32_t tag = 0;
  // Where this run delivered it (a receive of the same rank); a send never
  // received in this run (a run cut short by a hang or a crash: often the
  // one the wrong match left behind) has received == false.
  bool received = true;
  std::uint64_t recv_site_hash = 0;
  std::uint64_t recv_round = 0;
  // It went to another receive site or round, or came from another send
  // site than the one taken (a potential race); false: the
  // same exchange in another order.
  bool other_instance = false;
  // Per rank r: how many of r's first events happen before this send
  // (vector clock; the send itself included on its own rank).
  std::vector<std::uint32_t> past;
};

// One wildcard (MPI_ANY_SOURCE) receive instance and every alternative
// sender it could have matched: per other rank, the first send to the
// receiver (received in this run or not) whose envelope fits, not consumed
// by a receive posted earlier
// (messages of one sender never overtake each other), and not causally
// after the receive's completion (DAMPI's potential matches, Vo et al. SC'10).
struct WildcardAlternatives {
  ObservedMatch actual;          // what the receive took
  std::size_t message = 0;       // its index in matching.messages
  std::size_t post_event = 0;    // the receive's post: index in its rank's events
  std::size_t done_event = 0;    // the record of its completion (== post_event for a blocking receive)
  // Its number among its rank's receives posted with MPI_ANY_SOURCE, in
  // post order, matched or not (the order of a decision log's receive entries).
  std::uint64_t wildcard_ordinal = 0;
  // Per rank r: how many of r's first events happen before the receive's post.
  std::vector<std::uint32_t> post_past;
  std::vector<AlternativeSend> alternatives;  // by sender rank, ascending
};

// A call that completes one request of several (MPI_Waitany, MPI_Testany):
// which one it returned is a decision of the rank's log (an Index entry),
// and another request of the same call, posted before it and whose message
// nothing orders after the call's return, could have been returned first
// (issue 30: completion order explored like wildcard matches).
struct CompletionAlternatives {
  ObservedMatch actual;          // the message of the request it returned
  std::size_t message = 0;       // its index in matching.messages
  std::size_t call_event = 0;    // the completion call's record (its decision's call)
  std::string call;              // "MPI_Waitany" or "MPI_Testany"
  std::size_t done_event = 0;    // the record of the returned request (a child of call_event)
  std::vector<std::uint32_t> past;  // per rank: events before the returned message's send
  std::vector<AlternativeSend> alternatives;
  // Per alternative: the completion call that returned it later in this run
  // (its decision holds the request's index in the array).
  std::vector<std::size_t> alternative_calls;
};

// Names a call site for a report: (run id, rank, rank-local site id) -> "func (file:line)".
using SiteNamer = std::function<std::string(const std::string& run_id, int rank, std::uint32_t site_id)>;

// Which receive site took which sender's message from which send site with
// which tag: the unit of coverage (Mallory/FlyMC keep schedules that show a
// new happens-before shape; here the shape is the match).
struct MatchTuple {
  int recv_rank = -1;
  std::uint64_t recv_site_hash = 0;
  int send_rank = -1;
  std::uint64_t send_site_hash = 0;
  std::int32_t tag = 0;
  auto operator<=>(const MatchTuple&) const = default;
};
MatchTuple tuple_of(const ObservedMatch& m);
MatchTuple tuple_of(const ObservedMatch& receive, const AlternativeSend& alternative);

// A potential tuple and a run that offered it, for naming it (rank-local site ids there).
struct PotentialTuple {
  std::string run_id;
  MatchTuple tuple;
  std::uint32_t recv_site_id = 0;
  std::uint32_t send_site_id = 0;
};

// Match tuples of one campaign point's wildcard receives: seen (some run
// produced it), potential (some run's wildcard_alternatives offered it), tried
// (exploration forced it). Unreachable under this input: potential, tried,
// never seen.
class MatchCoverage {
 public:
  // A run's wildcard matches are seen; each is named by its first run.
  // Returns how many tuples no earlier run had produced.
  std::size_t add_seen(const std::string& run_id, const std::vector<ObservedMatch>& matches);
  // A run's alternatives are potential; returns the tuples no earlier run had offered or produced.
  std::vector<PotentialTuple> add_potential(const std::string& run_id,
                                            const std::vector<WildcardAlternatives>& alternatives);
  void add_potential(const PotentialTuple& tuple);
  void mark_tried(const MatchTuple& t);

  bool seen(const MatchTuple& t) const { return seen_.count(t) > 0; }
  std::size_t potential_count() const { return tuples_.size(); }
  std::size_t seen_count() const { return seen_.size(); }
  std::size_t unreachable_count() const;
  std::size_t untried_count() const;  // potential, never seen, never forced (the budget ran out)

  // For naming a tuple in a report: a run that has it, and the rank-local
  // site ids there.
  struct Example {
    std::string run_id;
    std::uint32_t recv_site_id = 0;
    std::uint32_t send_site_id = 0;
  };
  const std::map<MatchTuple, Example>& tuples() const { return tuples_; }
  bool tried(const MatchTuple& t) const { return tried_.count(t) > 0; }
  const std::set<MatchTuple>& tried_tuples() const { return tried_; }

 private:
  std::map<MatchTuple, Example> tuples_;  // every potential tuple (seen ones included)
  std::set<MatchTuple> seen_;
  std::set<MatchTuple> tried_;
};

// One forced alternative and what it did.
struct ExploredAlternative {
  std::string point;
  std::string base_run_id;     // the run whose decisions were replayed up to the forced receive
  std::string run_id;          // the forced run
  ObservedMatch receive;       // the wildcard receive and what it took in the base run
  AlternativeSend forced;      // the send it was forced to take
  std::string base_outcome;    // outcome kinds (harness::to_string)
  std::string outcome;
  std::string outcome_detail;
  // Usage errors (finding fingerprints) the forced run has and the base run
  // had not: a new usage error is a changed outcome too.
  std::vector<std::string> new_usage_errors;
  bool took_alternative = false;  // the forced run's receive really took the forced sender
  // Not a wildcard match but a completion order: the call ("MPI_Waitany")
  // that was forced to return the request of `forced`'s message first.
  std::string completion_call;
  // Base and forced run failed the same way but the failure itself changed:
  // the first program output line (stdout) that differs and is stable
  // across a replay of the base ("stdout line 2: 'a' became 'b'"); empty
  // when unchanged or not compared (an ok base, or an output that a replay
  // of the base does not repeat).
  std::string failure_change;
  std::vector<std::string> replay_argv;  // replays the forced run
  // The minimal failing schedule, when shrunk: one line per forced decision
  // ("rank 2's receive #14 at f (a.c:3) takes rank 3's send"), and its replay.
  std::vector<std::string> minimal_schedule;
  std::vector<std::string> minimal_replay_argv;
  // The base run died (crashed, hung, aborted) and this alternative does not:
  // the race is the base run's root cause.
  bool root_cause = false;
};

// What one exploration of a campaign point left on disk (explore.json; the
// technique that analyses schedules reads it back to judge the point's
// races): the forced alternatives, the tuples tried, and the wildcard
// matches the forced runs produced (seen tuples count towards coverage).
struct ExplorationRecord {
  std::string point;
  std::vector<ExploredAlternative> explored;
  std::vector<MatchTuple> tried;
  // Wildcard matches of the forced runs, one per distinct tuple, with the run that made it.
  std::vector<std::pair<std::string, ObservedMatch>> forced_matches;
  // Tuples the forced runs offered as alternatives and no base had offered
  // or produced: potential too (empty in older records).
  std::vector<PotentialTuple> forced_potential;
  std::size_t runs = 0;
  bool budget_exhausted = false;
  // Alternatives the bases offered at depth 1, and how many distinct keys
  // (base, tuple, within its exchange or not) they make (0 in older records).
  std::size_t candidates = 0;
  std::size_t distinct_candidates = 0;
};
nlohmann::json to_json(const ExplorationRecord& record);
// Throws std::runtime_error naming the missing or mistyped field.
ExplorationRecord exploration_record_from_json(const nlohmann::json& j);
// A record's tuples into a point's coverage: tried ones, those its forced
// runs produced, and those its forced runs offered.
void add_record(MatchCoverage& coverage, const ExplorationRecord& record);

// Where an exploration of a campaign (or of one run: `scalefuzz explore`)
// lives under its output directory: OUT/explore/<point>.json (the record)
// and OUT/explore/runs/<forced run id>/ (the forced runs). The engine
// writes it, the technique that analyses schedules reads it.
std::filesystem::path exploration_dir(const std::filesystem::path& out_dir);
std::filesystem::path exploration_record_file(const std::filesystem::path& out_dir, const std::string& point);
std::filesystem::path forced_run_dir(const std::filesystem::path& out_dir, const std::string& run_id);
// Every record under exploration_dir(out_dir), by file name; a file that
// does not parse throws std::runtime_error naming it.
std::vector<ExplorationRecord> read_exploration_records(const std::filesystem::path& out_dir);

// An alternative changed the outcome: another kind (hang, crash, abort,
// wrong result by the campaign's check, failed exit), a new usage error, or
// (from a failing base) the same kind of failure with another output.
bool changes_outcome(const ExploredAlternative& a);

// How the output (stdout lines) of a forced run that failed like its base
// differs from the base's: "stdout line 2: 'a' became 'b'" for the first
// differing line, "" when none differs. Only what the base repeats is
// compared: a line is cut into numbers and the text between them, and a
// piece that differs between the base and any of `controls` (replays of
// the base with its whole decision log) depends on timing, not on matches,
// and is skipped; the others are compared, so "wrong=3 in 0.52 s" becoming
// "wrong=5 in 0.61 s" is a change when the replays repeat "3" but not
// "0.52" (a line the replays cut into another number of pieces is all
// timing). Two controls make a timing value that one replay repeats by
// chance (a coarse "0.3 s") unlikely to pass as stable. Without controls,
// or with one of another line count, nothing is compared.
std::string output_change(const std::vector<std::string>& base, const std::vector<std::vector<std::string>>& controls,
                          const std::vector<std::string>& forced);

// What exploration asks of the technique that analyses a trace's
// nondeterminism (the races detector): constant data, its functions pure.
struct ScheduleAnalysis {
  // Every matched wildcard receive instance of the run, with the sends it
  // could have matched instead (possibly none), in matching.messages order.
  std::vector<WildcardAlternatives> (*wildcard_alternatives)(const trace::RunTrace& run,
                                                             const trace::Matching& matching);
  // Every message returned by MPI_Waitany/MPI_Testany, with the requests
  // that could have been returned first, in matching.messages order.
  std::vector<CompletionAlternatives> (*completion_alternatives)(const trace::RunTrace& run,
                                                                 const trace::Matching& matching);
  // What each of the run's potential races took (one per wildcard receive
  // instance that a send of another site or round could have matched):
  // NINJA's application-centric noise treats their envelopes as unsafe.
  std::vector<ObservedMatch> (*potential_races)(const trace::RunTrace& run, const trace::Matching& matching);
  // The findings of one exploration (`scalefuzz explore RUN_DIR`): a verdict
  // per receive site explored, then the point's match coverage.
  std::vector<detectors::Finding> (*findings)(const ExplorationRecord& record, const MatchCoverage& coverage,
                                              const SiteNamer& name_site);
};

}  // namespace scalefuzz::exploration
