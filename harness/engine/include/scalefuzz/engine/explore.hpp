// Schedule exploration (issue 30; DAMPI's idea, Vo et al. SC'10, with
// coverage feedback after Mallory CCS'23 / FlyMC EuroSys'19): from a base
// run with a decision log, force each wildcard receive, one at a time (or
// `depth` together), to an alternative sender it could have matched
// (the registered technique's ScheduleAnalysis, detectors/api
// exploration.hpp), replaying the base run's decisions in the
// forced receive's causal past and running free afterwards. Alternatives
// whose match tuple no run has produced go first; a forced run that took
// its alternative is a base for the next depth. The forced runs' outcomes
// judge the race (the technique reads the record back); a failing schedule is
// shrunk by ddmin over its forced decisions (ddmin.hpp).
//
// The forcing itself is behind ScheduleRunner, so the plan is unit-tested
// with a fake runner.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/exploration.hpp"

namespace scalefuzz::engine {

// How far to explore one campaign point (campaign key `explore`).
struct ExploreLimits {
  int depth = 1;            // alternatives forced together
  std::size_t budget = 100; // forced runs at most (shrinking included)
  // Runs of the budget kept for shrinking once a forced run changed the
  // outcome: from then on exploration stops at budget - reserve, so a
  // failure found late still gets its minimal schedule.
  std::size_t shrink_reserve = 0;
  // reproduce: the first forced run that changes the outcome ends the
  // exploration (its shrinking still follows), instead of exploring on.
  bool stop_at_first_change = false;
};

// What a base run offers: its wildcard receives and their alternatives
// (potential_matches over its trace), its matches and its outcome.
struct ExploreBase {
  std::string run_id;
  std::filesystem::path run_dir;
  std::string outcome;  // harness::to_string(OutcomeKind)
  std::vector<exploration::ObservedMatch> matches;
  std::vector<exploration::WildcardAlternatives> wildcards;
  // Its MPI_Waitany/MPI_Testany returns and the requests that could have come first.
  std::vector<exploration::CompletionAlternatives> completions;
  int depth = 0;  // forced decisions in its own schedule
  // A forced run as a base: per rank, the first event whose wildcard
  // receives are still open to forcing (those before it were replayed from
  // its own base, whose exploration covers them; DAMPI/DPOR backtrack only
  // after the last forced choice). Empty: every receive is open.
  std::vector<std::uint64_t> frontier;
  std::vector<std::string> output;  // its stdout lines (a failure that changes shows there)
};

// One forced decision: `rank`'s wildcard receive number `ordinal` (its
// receives posted with MPI_ANY_SOURCE, in post order) takes the message of
// `source` with `tag`; before it, every rank replays the base run's
// decisions made by its first replay_events[r] events (the causal past of
// the receive and of the forced send); after it, all run free.
struct ForcedSchedule {
  std::filesystem::path base_run_dir;
  std::vector<std::uint64_t> replay_events;  // per rank
  int rank = -1;
  std::uint64_t ordinal = 0;
  std::size_t done_event = 0;  // where the receive completed in the base run (its decision's call)
  int base_source = -1;        // what it took there
  int source = -1;
  std::int32_t tag = 0;
  // A completion order instead (MPI_Waitany/MPI_Testany): `rank`'s call at
  // event done_event returns the request that its call at event
  // alternative_call returned in the base run (the index that call's
  // decision holds) instead of the one it returned.
  bool completion = false;
  std::size_t alternative_call = 0;
};

// The cut of a forced alternative: per rank the larger of the receive's and
// the send's causal past; the receiving rank up to (not including) the receive.
ForcedSchedule forced_schedule(const ExploreBase& base, const exploration::WildcardAlternatives& receive,
                               const exploration::AlternativeSend& alternative);
// The cut of a forced completion order: per rank the larger of the returned
// message's and the alternative's causal past; the receiving rank up to (not
// including) the completion call.
ForcedSchedule forced_schedule(const ExploreBase& base, const exploration::CompletionAlternatives& call,
                               std::size_t alternative);

// What a forced run did.
struct ForcedRun {
  std::string run_id;
  std::filesystem::path run_dir;
  std::string outcome;
  std::string outcome_detail;
  bool took_forced = false;  // the forced receive took the forced sender
  std::vector<std::string> new_usage_errors;
  std::vector<std::string> replay_argv;
  ExploreBase as_base;  // its matches and alternatives (for coverage and the next depth)
};

// Runs one forced schedule (the engine's is a real MPI run with the
// injector's replay; tests use a fake). `name` is unique per exploration.
class ScheduleRunner {
 public:
  virtual ~ScheduleRunner() = default;
  virtual ForcedRun run(const ForcedSchedule& schedule, const std::string& name) = 0;
  // A replay of `base` with its whole decision log, nothing forced: a
  // control (two per failing base) that tells which output lines of a failing base depend on timing
  // rather than on matches (exploration::output_change). nullopt: no control
  // (nothing is run; forced runs that fail like the base are then compared
  // by outcome kind only).
  virtual std::optional<ForcedRun> replay_base(const ExploreBase& base, const std::string& name) {
    (void)base;
    (void)name;
    return std::nullopt;
  }
};

struct ExploreResult {
  std::vector<exploration::ExploredAlternative> explored;
  std::size_t runs = 0;      // forced runs made
  bool budget_exhausted = false;
  // The depth of the last forced run: above limits.depth when the leftover
  // budget went to tuples that forced runs offered and no run had produced.
  int depth_reached = 0;
  std::size_t candidates = 0;  // alternatives offered at depth 1 by the bases
  // Of them, distinct (base, match tuple, within its exchange or from another
  // site or round): what depth 1 forces at least once, when the budget allows.
  std::size_t distinct_candidates = 0;
  // Wildcard matches of the forced runs whose tuple no run had produced
  // before (the run that first did), for the record's coverage.
  std::vector<std::pair<std::string, exploration::ObservedMatch>> new_matches;
  // Tuples the forced runs offered as alternatives that `coverage` did not
  // know yet (potential, for the record's coverage).
  std::vector<exploration::PotentialTuple> new_potential;
};

// Breadth-first over the bases' alternatives: depth 1 for every base first
// (alternatives of tuples `coverage` has not seen nor tried first, then the
// others; per base a match tuple taken within its exchange and one taken
// from another site or round are each forced at their first instance, and
// at their next instance only while the last forcing produced a tuple no
// run had: further loop instances that repeat known tuples are not forced),
// then depth 2 from the forced runs that took their alternative, ... up to
// limits.depth, at most limits.budget forced runs; then, with what is left
// of the budget, deeper from the forced runs that offer a tuple no run has
// produced nor forced, forcing only such tuples (depth-1 alternatives
// exhausted, the budget goes to new coverage rather than to repeats). `coverage` is updated with what the forced runs
// produced and which tuples were tried. A forced run that took its
// alternative and failed like its failing base is compared with the base by
// output (two control replays per such base, from the budget): a changed
// failure is a changed outcome.
ExploreResult explore(const std::string& point, const std::vector<ExploreBase>& bases, ScheduleRunner& runner,
                      const ExploreLimits& limits, exploration::MatchCoverage& coverage);

}  // namespace scalefuzz::engine
