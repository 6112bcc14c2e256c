// Message races (NINJA's unintended matches, Sato et al. PPoPP'17) found by
// message instance, and potential races found from one run (DAMPI's
// potential-match analysis with vector clocks, Vo et al. SC'10).
//
// Instances: a send is (sender, call site, communicator, tag, its number
// among that sender's sends there); a receive is (receiver, call site,
// communicator, its number there) and belongs to a *round* of its rank: the
// receives posted between two of the rank's sends or collectives (every
// rank's sends and collectives are fixed by its control flow; a receive
// round is what the program means by "this exchange"). The quiet runs of a
// campaign point (noise none, outcome ok) say into which receive site and
// round each send instance goes (on whichever rank: programs may draw their
// destinations from the run's seed); a run whose receive took a send
// instance meant for another site or round, or one never delivered in quiet
// runs, has an unintended match (Error). Order changes inside a round are Info.
// Independently of quiet runs, a run whose wildcard receives broke their
// lock-step (lockstep_divergences below) has an unintended match too, and a
// quiet run that did is not part of the baseline.
//
// A run that died of a signal or of an MPI error has a matching that the
// failure may have cut or corrupted: its divergences are Warnings, never
// Errors. A run that called MPI_Abort itself (a program checking its own
// matches) keeps its Errors: every match it completed is real.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "scalefuzz/detectors/api/exploration.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::races {

// The schedule-exploration contract's types (detectors/api exploration.hpp):
// this library computes them from a trace (potential_matches,
// potential_completions, summarize_run) and names them as its own.
using exploration::AlternativeSend;
using exploration::CompletionAlternatives;
using exploration::ObservedMatch;
using exploration::SiteNamer;
using exploration::WildcardAlternatives;

// A wildcard receive that another sender's send could have matched: nothing
// orders that send after the receive's completion (vector clocks), its
// envelope fits, and in this run it went to another receive site or round
// (or came from another send site).
struct PotentialRace {
  ObservedMatch actual;        // what the receive took
  int other_rank = -1;         // the competing send
  std::uint64_t other_site_hash = 0;
  std::uint32_t other_site_id = 0;
  std::uint64_t other_instance = 0;
  std::uint64_t other_recv_round = 0;  // where it went in this run (round of its receive)
  bool other_received = false;         // false: never received in this run
};

// Every potential race of one run (one entry per wildcard receive instance
// with a competitor; the first competitor found among potential_matches'
// alternatives that went to another receive site or round or came from
// another send site).
std::vector<PotentialRace> potential_races(const trace::RunTrace& run, const trace::Matching& matching);

// Every matched wildcard receive instance of one run, with its alternatives
// (possibly none), in matching.messages order.
std::vector<WildcardAlternatives> potential_matches(const trace::RunTrace& run, const trace::Matching& matching);

// What each wildcard probe of the run (MPI_Probe/MPI_Iprobe with
// MPI_ANY_SOURCE that found a message) took, as a wildcard match whose
// receive is the probe: the message the rank received next from the
// reported source and tag. The same as potential_matches' probe entries'
// `actual`, without the vector clocks; for the match coverage of every run.
std::vector<ObservedMatch> probe_matches(const trace::RunTrace& run, const trace::Matching& matching);

// Every message returned by MPI_Waitany/MPI_Testany in one run, with the
// requests of later calls from the same call site that could have come
// first (none: no alternative), in matching.messages order.
std::vector<CompletionAlternatives> potential_completions(const trace::RunTrace& run, const trace::Matching& matching);

// potential_races from potential_matches already computed.
std::vector<PotentialRace> potential_races(const std::vector<WildcardAlternatives>& wildcards);

// Instance-relative matching, from one run alone (no quiet run needed, so a
// race that shows in every run, quiet ones included, is still found). A
// wildcard receive site (rank, site, communicator) posts its receives in
// rounds. Signs that a round took a message of another iteration:
// - two generations: the round took two messages of one sender from one send
//   site, the later one sent after the receive that took it was posted (it
//   answers something the receiver did after posting: the next iteration's
//   message), the earlier one not (vector clocks; mark_after_post);
// - lock-step broken: a sender (rank, send site, tag) is in lock-step at the
//   site with u >= 1 messages per round, over at least 8 rounds, when
//   (a) at least 75% of the rounds took u of its messages, or
//   (b) u is strictly the most common number per round AND its messages
//   taken at the site number u per round over all rounds (u x rounds, give
//   or take u: a run cut short in its last round). (b) holds in runs that go
//   wrong in most rounds: a message taken a round early leaves its own round
//   short, so the wrong rounds come in pairs (u+1, u-1) around the usual u,
//   the total does not move, and u stays the most common number while fewer
//   than two thirds of the rounds are wrong. A program whose rounds take a
//   varying number of a sender's messages by design (phases, work queues)
//   has no such fixed total or no such mode. Then:
//   * windows: messages of one sender to one receiver are received in the
//     order sent (MPI's non-overtaking rule), so round k of the site (k-th of
//     its rounds in the run) takes that sender's messages to this rank
//     numbered [u*k, u*k+u) (ObservedMatch::send_to_instance). A sender that
//     got ahead in a round where another lock-step sender came short (the
//     round stole that sender's place) took a later iteration's message,
//     and so does every round while it stays ahead, even where the round's
//     numbers look usual (shifted by one pattern): each message numbered
//     beyond its round's window is reported. Falling behind (a skipped
//     round, a late start) or getting ahead with nobody short (a round that
//     posted an extra receive) is not judged. Used only where every message
//     of that sender to this rank that was received went to this site's
//     wildcard receives (numbers 0..n-1 there);
//   * counts, for lock-step senders without windows: a round that took more
//     than u from one while another lock-step sender came short took the
//     extra ones (the latest instances).
//   The rounds counted are the run's own, or, where they show fewer than two
//   lock-step senders, those of the quiet runs of its campaign point, pooled
//   (RaceJudge), when those show more.
//   Lock-step is then judged a second time over the receivers' phases
//   (ObservedMatch::recv_phase), the run's own only: a receiver that posts
//   one pattern's receives, waits for all of them and posts the next
//   pattern's without a send or collective in between has both patterns in
//   one round, where a swap between them leaves every count as usual.
// A work queue served in arrival order with one receive per round shows
// none of these; one that posts several receives per round and hands a
// worker a new task before those receives completed can show the first (a
// Warning would fit it better; such programs are reported as races).
struct LockstepDivergence {
  ObservedMatch match;            // the message of another iteration the round took
  bool two_generations = false;   // found by the first sign (the fields below are the second's)
  bool shifted = false;           // found by windows: match.send_to_instance beyond [window_begin, +usual)
  std::uint64_t window_begin = 0;
  std::size_t taken = 0;          // messages of that sender in that round
  std::size_t usual = 0;          // its usual number per round
  std::size_t usual_rounds = 0;   // rounds of the site with its usual number
  std::size_t rounds = 0;         // rounds of the site
  int short_rank = -1;            // a lock-step sender with fewer than usual in that round (-1: none)
  bool from_quiet_runs = false;   // the usual numbers are the point's quiet runs' (`pooled` below)
  bool by_phase = false;          // "round" above is the receiver's phase (ObservedMatch::recv_phase)
};

// Per wildcard receive site (rank, site, communicator) and sender (rank,
// send site, tag): how many of the site's rounds took n of that sender's
// messages (n -> rounds), from one run or pooled over several.
struct RoundCounts {
  using SiteKey = std::tuple<int, std::uint64_t, std::uint32_t>;
  using SenderKey = std::tuple<int, std::uint64_t, std::int32_t>;
  struct Site {
    std::size_t rounds = 0;
    std::map<SenderKey, std::map<std::size_t, std::size_t>> senders;
  };
  std::map<SiteKey, Site> sites;
};
RoundCounts round_counts(const std::vector<ObservedMatch>& matches);
void pool_round_counts(RoundCounts& into, const RoundCounts& from);

// `pooled`: the round counts of the run's campaign point's quiet runs. A
// site where this run alone shows fewer than two lock-step senders (a race
// that goes wrong in nearly every round, or too few rounds) takes its
// lock-step senders and their usual numbers from there instead when the
// pooled rounds show more.
std::vector<LockstepDivergence> lockstep_divergences(const std::vector<ObservedMatch>& matches,
                                                     const RoundCounts* pooled = nullptr);

struct RunMatchSummary {
  std::string run_id;
  std::string point;        // campaign point: same for runs that differ only in noise/repetition
  std::string noise_label;  // "none", "system-scale1.0", ...
  bool quiet = false;       // noise mode none
  bool outcome_ok = true;   // quiet + ok: part of the baseline
  std::string died;         // "" or why the run's matching cannot be trusted ("crashed: SIGSEGV", "MPI error ...")
  std::vector<ObservedMatch> matches;
  std::vector<ObservedMatch> probe_matches;  // what its wildcard probes took (match coverage only)
  std::vector<PotentialRace> potential;  // filled for quiet runs
  std::vector<WildcardAlternatives> wildcards;  // potential_matches, filled for quiet runs
  std::vector<LockstepDivergence> divergences;  // lockstep_divergences(matches), judged without a baseline
  std::uint64_t order_hash = 0;
  std::size_t unmatched_sends = 0;
  std::size_t unmatched_recvs = 0;
};

// Instances, rounds and (for quiet runs) potential races of one run.
RunMatchSummary summarize_run(std::string run_id, std::string point, std::string noise_label, bool quiet,
                              const trace::RunTrace& run, const trace::Matching& matching);

// Where the quiet runs delivered a send instance.
struct IntendedReceive {
  int recv_rank = -1;
  std::uint64_t recv_site_hash = 0;
  std::uint64_t recv_round = 0;
  std::string quiet_run_id;       // a quiet run that delivered it there (names the site)
  std::uint32_t recv_site_id = 0; // the receive's site id in that run
};

struct UnintendedMatch {
  std::string run_id;
  std::string point;
  std::string noise_label;
  ObservedMatch first;                   // first occurrence in the run (earliest completed receive)
  std::vector<IntendedReceive> intended;  // where quiet runs delivered that send instance (empty: never)
  std::size_t occurrences = 0;           // how often this (receive site, send site) pair diverged in the run
  std::string died;                      // the run died: Warning, not Error
  bool has_first_divergence = false;     // the run's first receive that took another send than in quiet runs
  ObservedMatch first_divergence;
  bool lockstep = false;                 // found by lock-step (this run alone), not against quiet runs
  LockstepDivergence lockstep_first;     // the lock-step divergence behind `first`
};

struct PointDeterminism {
  std::string point;
  std::size_t runs = 0;
  std::size_t distinct_order_hashes = 0;
  std::size_t quiet_runs = 0;
  std::vector<std::string> order_runs;  // the first run of each distinct matching order, in the order seen
  bool racy = false;                    // a potential race or unintended match was found at the point
};

// A potential race, deduplicated per (campaign point, receive site).
struct PotentialRaceSite {
  std::string run_id;  // the first run that showed it
  std::string point;
  PotentialRace example;
  std::size_t receives = 0;  // receive instances with a competitor, over the runs analysed
};

struct RaceReport {
  std::vector<UnintendedMatch> unintended;           // one per (run, receive site, send site)
  std::vector<PointDeterminism> determinism;         // one per campaign point
  std::vector<std::string> points_without_baseline;  // no quiet ok run: nothing could be judged
  std::vector<PotentialRaceSite> potential;
};

RaceReport detect_races(const std::vector<RunMatchSummary>& runs);

// A run whose matching is part of its campaign point's baseline: quiet, ok,
// its matching not cut by a crash or an MPI error, and no divergence of its
// own (divergences).
bool is_baseline(const RunMatchSummary& run);

// detect_races one run at a time, for campaigns too large to keep every
// run's matches: memory is per campaign point (the quiet runs' delivery
// tables, the distinct order hashes) plus one entry per potential-race site
// and per unintended match found, never a run's matches. A run is judged
// against its point's baseline as it stands, so the baseline runs of a point
// go to add() before its other runs go to judge(). detect_races(runs) is
// add() of every run, then judge() of every run that is not a baseline run.
class RaceJudge {
 public:
  RaceJudge();
  ~RaceJudge();
  RaceJudge(RaceJudge&&) noexcept;
  RaceJudge& operator=(RaceJudge&&) noexcept;
  // Every run once, in any order: determinism, potential races, and the
  // baseline of its point when is_baseline(run).
  void add(const RunMatchSummary& run);
  // A run that is not a baseline run, against its point's baseline now.
  void judge(const RunMatchSummary& run);
  // No run of `point` will be judged any more: frees its baseline tables.
  void forget_baseline(const std::string& point);
  RaceReport report() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};


// Error findings for unintended matches (Warning when the run died),
// Warning findings for potential races, Info for nondeterministic points.
std::vector<Finding> race_findings(const RaceReport& report, const SiteNamer& name_site);

}  // namespace scalefuzz::detectors::races
