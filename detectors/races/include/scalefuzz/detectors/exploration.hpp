// Schedule exploration's judgement (issue 30): match tuples as coverage, and
// race verdicts from what a forced alternative match does to the outcome.
// Pure functions; the forced runs themselves are the engine's
// (harness/engine, explore.hpp).
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

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
// produced it), potential (some run's potential_matches offered it), tried
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

// "41 potential match tuples, 37 seen, 4 unreachable under this input"
// (and how many the budget left untried), as an Info finding of the point.
Finding coverage_finding(const std::string& point, const MatchCoverage& coverage, const SiteNamer& name_site);

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
// races detector reads it back to judge the point's races): the forced
// alternatives, the tuples tried, and the wildcard matches the forced runs
// produced (seen tuples count towards coverage).
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
// writes it, the races detector reads it.
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

// Per wildcard receive site (point, receiving rank's site) explored:
// Error "race" (kind "harmful-race") for each site where some forced
// alternative that was taken changed the outcome, naming the receive, the
// two sends, the outcome and the forced schedule's replay; Info
// ("benign-nondeterminism: N alternatives explored") where every taken
// alternative left the outcome unchanged. Alternatives whose run did not
// take the forced sender are counted, not judged.
std::vector<Finding> exploration_findings(const std::vector<ExploredAlternative>& explored, const SiteNamer& name_site);

// The receive sites exploration found benign: (campaign point, receive
// routine as named in findings).
std::set<std::pair<std::string, std::string>> benign_sites(const std::vector<Finding>& exploration);

// The races detector's Warnings and Errors (unintended-match,
// potential-race) at a receive site exploration found benign become Info,
// saying so; those at a harmful site stay.
void downgrade_benign(std::vector<Finding>& findings, const std::set<std::pair<std::string, std::string>>& benign);

}  // namespace scalefuzz::detectors::races
