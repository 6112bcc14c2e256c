#include "scalefuzz/engine/explore.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace scalefuzz::engine {


namespace {

// Per rank the larger of two causal pasts (events before the receive and
// before the forced send); the receiving rank up to (not including) `event`,
// its forced call: its decisions before it are replayed.
std::vector<std::uint64_t> causal_cut(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                                      int receiving_rank, std::size_t event) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<std::uint64_t> cut(n, 0);
  for (std::size_t r = 0; r < n; ++r)
    cut[r] = std::max<std::uint64_t>(r < a.size() ? a[r] : 0, r < b.size() ? b[r] : 0);
  const auto recv = static_cast<std::size_t>(receiving_rank);
  if (recv < n) cut[recv] = event;
  return cut;
}

}  // namespace

ForcedSchedule forced_schedule(const ExploreBase& base, const exploration::WildcardAlternatives& receive,
                               const exploration::AlternativeSend& alternative) {
  ForcedSchedule s;
  s.base_run_dir = base.run_dir;
  s.replay_events = causal_cut(receive.post_past, alternative.past, receive.actual.recv_rank, receive.post_event);
  s.rank = receive.actual.recv_rank;
  s.ordinal = receive.wildcard_ordinal;
  s.done_event = receive.done_event;
  s.base_source = receive.actual.send_rank;
  s.source = alternative.send_rank;
  s.tag = alternative.tag;
  return s;
}

ForcedSchedule forced_schedule(const ExploreBase& base, const exploration::CompletionAlternatives& call,
                               std::size_t alternative) {
  const exploration::AlternativeSend& alt = call.alternatives.at(alternative);
  ForcedSchedule s;
  s.base_run_dir = base.run_dir;
  s.replay_events = causal_cut(call.past, alt.past, call.actual.recv_rank, call.call_event);
  s.rank = call.actual.recv_rank;
  s.done_event = call.call_event;
  s.base_source = call.actual.send_rank;
  s.source = alt.send_rank;
  s.tag = alt.tag;
  s.completion = true;
  s.alternative_call = call.alternative_calls.at(alternative);
  return s;
}

namespace {

struct Candidate {
  std::size_t base = 0;  // index into the level's bases
  std::size_t wildcard = 0;  // into its wildcards, or its completions
  std::size_t alternative = 0;
  exploration::MatchTuple tuple;
  bool done = false;
  bool completion = false;
  bool other_instance = false;  // the alternative message went to another receive site or round
};

// What one forced run stands for at a depth: from one base, a match tuple
// taken either as a reordering within its exchange or as a message of
// another site or round (AlternativeSend::other_instance). A receive in a
// loop offers the same keys at every instance; forcing each (DAMPI's every
// instance) costs receives x senders runs. A key is forced at its first
// instance, and at its next one only while its last forced run produced a
// match tuple no run had produced (coverage feedback, as a greybox fuzzer
// gives more runs to inputs that found new coverage): a loop whose further
// instances repeat known tuples is explored in a few runs per key.
using CandidateKey = std::tuple<std::size_t, exploration::MatchTuple, bool>;
CandidateKey key_of(const Candidate& c) { return {c.base, c.tuple, c.other_instance}; }

// Whether `base` offers, at or after its frontier, an alternative whose
// tuple no run has produced nor forced.
bool offers_unknown_tuple(const ExploreBase& base, const exploration::MatchCoverage& coverage) {
  for (const auto& w : base.wildcards) {
    const auto rank = static_cast<std::size_t>(w.actual.recv_rank);
    if (rank < base.frontier.size() && w.post_event < base.frontier[rank]) continue;
    for (const auto& a : w.alternatives) {
      const exploration::MatchTuple t = exploration::tuple_of(w.actual, a);
      if (!coverage.seen(t) && !coverage.tried(t)) return true;
    }
  }
  return false;
}

}  // namespace

ExploreResult explore(const std::string& point, const std::vector<ExploreBase>& bases, ScheduleRunner& runner,
                      const ExploreLimits& limits, exploration::MatchCoverage& coverage) {
  ExploreResult result;
  std::vector<ExploreBase> level = bases;
  std::size_t cap = limits.budget;  // lowered by the shrink reserve at the first changed outcome
  bool stop = false;                // limits.stop_at_first_change and the outcome changed
  // Per failing base: the stdout of its control replays (none: not usable).
  constexpr int kControls = 2;  // see exploration::output_change
  std::map<std::string, std::vector<std::vector<std::string>>> controls;
  for (const auto& b : bases) {
    coverage.add_seen(b.run_id, b.matches);
    coverage.add_potential(b.run_id, b.wildcards);
  }
  // Beyond limits.depth, while the budget lasts: from the forced runs that
  // offer a tuple no run has produced nor forced, those tuples only (the
  // configured depth is done; what is left of the budget goes to coverage,
  // not to repeats).
  for (int depth = 1; !level.empty(); ++depth) {
    const bool beyond = depth > limits.depth;
    std::vector<Candidate> candidates;
    for (std::size_t b = 0; b < level.size(); ++b) {
      // A wildcard receive's or a completion call's alternatives, unless the
      // call lies before the base's frontier on its rank (forced already).
      const auto add = [&](std::size_t index, const auto& at, std::size_t event, bool completion) {
        const auto rank = static_cast<std::size_t>(at.actual.recv_rank);
        if (rank < level[b].frontier.size() && event < level[b].frontier[rank]) return;
        for (std::size_t a = 0; a < at.alternatives.size(); ++a)
          candidates.push_back({b, index, a, exploration::tuple_of(at.actual, at.alternatives[a]), false, completion,
                                at.alternatives[a].other_instance});
      };
      for (std::size_t w = 0; w < level[b].wildcards.size(); ++w)
        add(w, level[b].wildcards[w], level[b].wildcards[w].post_event, false);
      for (std::size_t k = 0; k < level[b].completions.size(); ++k)
        add(k, level[b].completions[k], level[b].completions[k].call_event, true);
    }
    // Per key at this depth: whether its last forced run produced a new tuple
    // (absent: not forced yet).
    std::map<CandidateKey, bool> productive;
    if (depth == 1) {
      result.candidates = candidates.size();
      std::set<CandidateKey> keys;
      for (const auto& c : candidates) keys.insert(key_of(c));
      result.distinct_candidates = keys.size();
    }
    std::vector<ExploreBase> next;
    // Next: a tuple no run has produced nor forced; then a key not forced at
    // this depth; then the next instance of a key whose last forced run was
    // productive. Earlier receives first in each class.
    auto pick = [&]() -> Candidate* {
      Candidate* best = nullptr;
      int best_class = 3;
      for (auto& c : candidates) {
        if (c.done) continue;
        const auto p = productive.find(key_of(c));
        const int cls = !coverage.seen(c.tuple) && !coverage.tried(c.tuple) ? 0
                        : p == productive.end()                             ? 1
                        : p->second                                          ? 2
                                                                             : 3;
        if (beyond && cls != 0) continue;
        if (cls < best_class) {
          best = &c;
          best_class = cls;
        }
      }
      return best;
    };
    while (Candidate* c = pick()) {
      if (stop) break;
      if (result.runs >= cap) {
        result.budget_exhausted = true;
        break;
      }
      c->done = true;
      const ExploreBase& base = level[c->base];
      const exploration::ObservedMatch& actual =
          c->completion ? base.completions[c->wildcard].actual : base.wildcards[c->wildcard].actual;
      const exploration::AlternativeSend& a = c->completion ? base.completions[c->wildcard].alternatives[c->alternative]
                                                      : base.wildcards[c->wildcard].alternatives[c->alternative];
      const ForcedSchedule schedule =
          c->completion ? forced_schedule(base, base.completions[c->wildcard], c->alternative)
                        : forced_schedule(base, base.wildcards[c->wildcard], a);
      const std::size_t forced_event = c->completion ? schedule.done_event : base.wildcards[c->wildcard].post_event;
      ForcedRun run = runner.run(schedule, base.run_id + "-x" + std::to_string(result.runs));
      ++result.runs;
      result.depth_reached = depth;
      std::string failure_change;
      if (run.took_forced && base.outcome != "ok" && run.outcome == base.outcome) {
        auto control = controls.find(base.run_id);
        if (control == controls.end()) {
          std::vector<std::vector<std::string>> lines;
          for (int k = 0; k < kControls && result.runs < cap; ++k)
            if (auto c = runner.replay_base(base, base.run_id + "-control" + std::to_string(k))) {
              ++result.runs;
              if (c->outcome != base.outcome) break;  // the replay did not repeat the base: no control
              lines.push_back(std::move(c->as_base.output));
            }
          if (lines.size() < static_cast<std::size_t>(kControls)) lines.clear();
          control = controls.emplace(base.run_id, std::move(lines)).first;
        }
        failure_change = exploration::output_change(base.output, control->second, run.as_base.output);
      }
      const bool changed = run.took_forced && (run.outcome != base.outcome || !failure_change.empty());
      if (changed && cap == limits.budget)
        cap = std::max(result.runs, limits.budget - std::min(limits.shrink_reserve, limits.budget));
      if (changed && limits.stop_at_first_change) stop = true;
      coverage.mark_tried(c->tuple);
      bool new_tuple = false;
      for (const auto& m : run.as_base.matches)
        if (m.wildcard && !coverage.seen(exploration::tuple_of(m))) {
          result.new_matches.push_back({run.run_id, m});
          coverage.add_seen(run.run_id, {m});
          new_tuple = true;
        }
      productive[key_of(*c)] = run.took_forced && new_tuple;
      for (auto& p : coverage.add_potential(run.run_id, run.as_base.wildcards))
        result.new_potential.push_back(std::move(p));
      exploration::ExploredAlternative e;
      e.point = point;
      e.base_run_id = base.run_id;
      e.run_id = run.run_id;
      e.receive = actual;
      e.forced = a;
      if (c->completion) e.completion_call = base.completions[c->wildcard].call;
      e.base_outcome = base.outcome;
      e.outcome = run.outcome;
      e.outcome_detail = run.outcome_detail;
      e.new_usage_errors = run.new_usage_errors;
      e.took_alternative = run.took_forced;
      e.failure_change = failure_change;
      e.replay_argv = run.replay_argv;
      e.root_cause = run.took_forced && base.outcome != "ok" && run.outcome == "ok";
      result.explored.push_back(std::move(e));
      if (run.took_forced) {
        run.as_base.depth = depth;
        run.as_base.frontier = schedule.replay_events;
        const auto forced_rank = static_cast<std::size_t>(schedule.rank);
        if (run.as_base.frontier.size() <= forced_rank) run.as_base.frontier.resize(forced_rank + 1, 0);
        run.as_base.frontier[forced_rank] = forced_event + 1;
        if (depth < limits.depth || offers_unknown_tuple(run.as_base, coverage)) next.push_back(std::move(run.as_base));
      }
    }
    if (result.budget_exhausted || stop) break;
    level = std::move(next);
  }
  return result;
}

}  // namespace scalefuzz::engine
