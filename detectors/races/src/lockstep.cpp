#include <algorithm>
#include <map>
#include <tuple>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

namespace {

// A sender is in lock-step at a receive site when, over at least this many
// rounds of the site, at least this share of them took its usual number of
// messages (at least one), or its usual number is the most common one and
// its messages there add up to that number per round (races.hpp).
constexpr std::size_t kLockstepMinRounds = 8;
constexpr double kLockstepShare = 0.75;

using SiteKey = RoundCounts::SiteKey;
using SenderKey = RoundCounts::SenderKey;

// One run's wildcard matches by receive site, sender and round, and each
// site's rounds (sorted, distinct).
struct Grouped {
  std::map<SiteKey, std::map<SenderKey, std::map<std::uint64_t, std::vector<std::size_t>>>> sites;
  std::map<SiteKey, std::vector<std::uint64_t>> rounds;
};

// Which of a receive's rounds groups the matches: recv_round or recv_phase.
using RoundOf = std::uint64_t ObservedMatch::*;

Grouped group(const std::vector<ObservedMatch>& matches, RoundOf round_of = &ObservedMatch::recv_round) {
  Grouped g;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const auto& m = matches[i];
    if (!m.wildcard || m.recv_rank < 0 || m.send_rank < 0) continue;
    const SiteKey site{m.recv_rank, m.recv_site_hash, m.comm};
    g.sites[site][{m.send_rank, m.send_site_hash, m.tag}][m.*round_of].push_back(i);
    g.rounds[site].push_back(m.*round_of);
  }
  for (auto& [site, rounds] : g.rounds) {
    std::sort(rounds.begin(), rounds.end());
    rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  }
  return g;
}

// Messages in a round -> rounds, per sender of one site.
RoundCounts::Site histogram(const std::map<SenderKey, std::map<std::uint64_t, std::vector<std::size_t>>>& senders,
                            const std::vector<std::uint64_t>& rounds) {
  RoundCounts::Site h;
  h.rounds = rounds.size();
  for (const auto& [sender, by_round] : senders)
    for (std::uint64_t r : rounds) {
      auto it = by_round.find(r);
      ++h.senders[sender][it == by_round.end() ? 0 : it->second.size()];
    }
  return h;
}

struct Usual {
  std::size_t per_round = 0, rounds = 0;
};

// Whether a sender with these counts (messages in a round -> rounds) over
// `rounds` rounds is in lock-step, and its usual number per round.
bool in_lockstep(const std::map<std::size_t, std::size_t>& counts, std::size_t rounds, Usual& usual) {
  if (rounds < kLockstepMinRounds) return false;
  auto best = std::max_element(counts.begin(), counts.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best == counts.end() || best->first == 0) return false;
  usual = {best->first, best->second};
  if (static_cast<double>(best->second) >= kLockstepShare * static_cast<double>(rounds)) return true;
  // Mode and total: the wrong rounds of a shifted run pair up around u.
  std::size_t total = 0;
  for (const auto& [n, with_n] : counts) {
    if (n != best->first && with_n >= best->second) return false;  // no strict mode
    total += n * with_n;
  }
  const std::size_t expected = usual.per_round * rounds;
  const std::size_t off = total > expected ? total - expected : expected - total;
  return off <= usual.per_round;
}

// The lock-step senders of a site and their usual number per round.
std::map<SenderKey, Usual> lockstep_senders(const RoundCounts::Site& h) {
  std::map<SenderKey, Usual> usual;
  for (const auto& [sender, counts] : h.senders)
    if (Usual u; in_lockstep(counts, h.rounds, u)) usual[sender] = u;
  return usual;
}

// A message of another iteration found by lock-step (counts or windows).
LockstepDivergence broken(const ObservedMatch& m, std::size_t taken, const Usual& u, std::size_t site_rounds,
                          bool from_pool) {
  LockstepDivergence d;
  d.match = m;
  d.taken = taken;
  d.usual = u.per_round;
  d.usual_rounds = u.rounds;
  d.rounds = site_rounds;
  d.from_quiet_runs = from_pool;
  return d;
}

// Whether the messages of one sender at a site are all its messages to this
// rank that were received: their numbers among its sends to this rank are
// 0..n-1 (then round k's window is [u*k, u*k+u)).
bool numbered_from_zero(const std::vector<ObservedMatch>& matches,
                        const std::map<std::uint64_t, std::vector<std::size_t>>& by_round) {
  std::vector<std::uint64_t> numbers;
  for (const auto& [round, idx] : by_round)
    for (std::size_t i : idx) numbers.push_back(matches[i].send_to_instance);
  std::sort(numbers.begin(), numbers.end());
  for (std::size_t k = 0; k < numbers.size(); ++k)
    if (numbers[k] != k) return false;
  return true;
}

}  // namespace

RoundCounts round_counts(const std::vector<ObservedMatch>& matches) {
  RoundCounts out;
  Grouped g = group(matches);
  for (const auto& [site, senders] : g.sites) out.sites[site] = histogram(senders, g.rounds[site]);
  return out;
}

void pool_round_counts(RoundCounts& into, const RoundCounts& from) {
  for (const auto& [site, h] : from.sites) {
    auto& to = into.sites[site];
    to.rounds += h.rounds;
    for (const auto& [sender, counts] : h.senders)
      for (const auto& [n, rounds] : counts) to.senders[sender][n] += rounds;
  }
}

namespace {

// Both signs over the rounds `round_of` names, appending to `out` what
// `reported` does not hold yet.
void judge_rounds(const std::vector<ObservedMatch>& matches, const RoundCounts* pooled, RoundOf round_of,
                  std::vector<bool>& reported, std::vector<LockstepDivergence>& out) {
  Grouped g = group(matches, round_of);
  const bool by_phase = round_of == &ObservedMatch::recv_phase;
  for (auto& [site, senders] : g.sites) {
    const auto& rounds = g.rounds[site];
    // Two generations of one sender's site in one round.
    for (const auto& [sender, by_round] : senders)
      for (const auto& [round, idx] : by_round) {
        if (idx.size() < 2) continue;
        auto first = *std::min_element(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
          return matches[a].send_instance < matches[b].send_instance;
        });
        if (matches[first].after_own_post) continue;
        for (std::size_t i : idx)
          if (matches[i].after_own_post && !reported[i]) {
            reported[i] = true;
            LockstepDivergence d;
            d.match = matches[i];
            d.two_generations = true;
            d.taken = idx.size();
            d.rounds = rounds.size();
            d.by_phase = by_phase;
            out.push_back(d);
          }
      }
    // The site's lock-step senders from this run's rounds; where this run
    // shows fewer than two (e.g. a race that goes wrong in most of its
    // rounds), from the rounds of its campaign point's quiet runs.
    RoundCounts::Site own = histogram(senders, rounds);
    std::map<SenderKey, Usual> usual = lockstep_senders(own);
    std::size_t usual_site_rounds = own.rounds;
    bool from_pool = false;
    if (usual.size() < 2 && pooled) {
      auto it = pooled->sites.find(site);
      if (it != pooled->sites.end())
        if (auto of_pool = lockstep_senders(it->second); of_pool.size() > usual.size()) {
          usual = std::move(of_pool);
          usual_site_rounds = it->second.rounds;
          from_pool = true;
        }
    }
    // Per round, a lock-step sender that came short in it (-1: none).
    std::map<std::uint64_t, int> short_in;
    for (std::uint64_t r : rounds) {
      int& short_rank = short_in[r] = -1;
      for (const auto& [sender, u] : usual) {
        auto it = senders.find(sender);
        std::size_t n = 0;
        if (it != senders.end())
          if (auto in_round = it->second.find(r); in_round != it->second.end()) n = in_round->second.size();
        if (n < u.per_round) short_rank = std::get<0>(sender);
      }
    }
    for (const auto& [sender, u] : usual) {
      auto it = senders.find(sender);
      if (it == senders.end()) continue;
      if (numbered_from_zero(matches, it->second)) {
        // Windows: round k of the site takes this sender's messages to this
        // rank numbered [u*k, u*k+u). One numbered beyond the window belongs
        // to a later iteration when the sender got ahead in a round where
        // another lock-step sender came short (the round's receives were
        // the usual ones: one was stolen). Getting ahead without that (a
        // round that posted an extra receive) or falling behind (a sender
        // that skips a round, joins late) is not judged.
        std::uint64_t taken_before = 0;  // its messages taken by the site's earlier rounds
        bool stolen = false;
        for (std::uint64_t k = 0; k < rounds.size(); ++k) {
          const std::uint64_t r = rounds[k], begin = u.per_round * k;
          auto in_round = it->second.find(r);
          const std::size_t n = in_round == it->second.end() ? 0 : in_round->second.size();
          const bool ahead_after = taken_before + n > begin + u.per_round;
          if (taken_before <= begin && ahead_after) stolen = short_in[r] >= 0;
          if (stolen && n > 0)
            for (std::size_t i : in_round->second) {
              if (matches[i].send_to_instance < begin + u.per_round || reported[i]) continue;
              reported[i] = true;
              LockstepDivergence d = broken(matches[i], n, u, usual_site_rounds, from_pool);
              d.short_rank = short_in[r];
              d.shifted = true;
              d.window_begin = begin;
              d.by_phase = by_phase;
              out.push_back(d);
            }
          taken_before += n;
          if (!ahead_after) stolen = false;
        }
        continue;
      }
      // Counts (its messages here are not numbered 0..n-1): a round that took
      // more than usual from it while another lock-step sender came short
      // took the extra ones, the latest instances.
      if (usual.size() < 2) continue;
      for (const auto& [r, in_round] : it->second) {
        if (in_round.size() <= u.per_round || short_in[r] < 0) continue;
        std::vector<std::size_t> idx = in_round;
        std::sort(idx.begin(), idx.end(),
                  [&](std::size_t a, std::size_t b) { return matches[a].send_instance < matches[b].send_instance; });
        for (std::size_t k = u.per_round; k < idx.size(); ++k) {
          if (reported[idx[k]]) continue;
          reported[idx[k]] = true;
          LockstepDivergence d = broken(matches[idx[k]], idx.size(), u, usual_site_rounds, from_pool);
          d.short_rank = short_in[r];
          d.by_phase = by_phase;
          out.push_back(d);
        }
      }
    }
  }
}

}  // namespace

std::vector<LockstepDivergence> lockstep_divergences(const std::vector<ObservedMatch>& matches,
                                                     const RoundCounts* pooled) {
  std::vector<LockstepDivergence> out;
  std::vector<bool> reported(matches.size(), false);
  judge_rounds(matches, pooled, &ObservedMatch::recv_round, reported, out);
  // Phases, the run's own only (the quiet runs' pooled counts are per round).
  judge_rounds(matches, nullptr, &ObservedMatch::recv_phase, reported, out);
  return out;
}

}  // namespace scalefuzz::detectors::races
