#include <algorithm>
#include <map>
#include <tuple>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

namespace {

// A sender is in lock-step at a receive site when, over at least this many
// rounds of the site, at least this share of them took its usual number of
// messages (at least one).
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

Grouped group(const std::vector<ObservedMatch>& matches) {
  Grouped g;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const auto& m = matches[i];
    if (!m.wildcard || m.recv_rank < 0 || m.send_rank < 0) continue;
    const SiteKey site{m.recv_rank, m.recv_site_hash, m.comm};
    g.sites[site][{m.send_rank, m.send_site_hash}][m.recv_round].push_back(i);
    g.rounds[site].push_back(m.recv_round);
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

// The lock-step senders of a site and their usual number per round.
std::map<SenderKey, Usual> lockstep_senders(const RoundCounts::Site& h) {
  std::map<SenderKey, Usual> usual;
  if (h.rounds < kLockstepMinRounds) return usual;
  for (const auto& [sender, counts] : h.senders) {
    auto best = std::max_element(counts.begin(), counts.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    if (best == counts.end() || best->first == 0 ||
        static_cast<double>(best->second) < kLockstepShare * static_cast<double>(h.rounds))
      continue;
    usual[sender] = {best->first, best->second};
  }
  return usual;
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

std::vector<LockstepDivergence> lockstep_divergences(const std::vector<ObservedMatch>& matches,
                                                     const RoundCounts* pooled) {
  Grouped g = group(matches);
  std::vector<LockstepDivergence> out;
  std::vector<bool> reported(matches.size(), false);
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
      if (it != pooled->sites.end()) {
        usual = lockstep_senders(it->second);
        usual_site_rounds = it->second.rounds;
        from_pool = true;
      }
    }
    if (usual.size() < 2) continue;
    // A round that took more than usual from one lock-step sender and fewer
    // than usual from another took a message of another iteration.
    for (std::uint64_t r : rounds) {
      int short_rank = -1;
      for (const auto& [sender, u] : usual) {
        auto it = senders.find(sender);
        std::size_t n = 0;
        if (it != senders.end())
          if (auto in_round = it->second.find(r); in_round != it->second.end()) n = in_round->second.size();
        if (n < u.per_round) short_rank = sender.first;
      }
      if (short_rank < 0) continue;
      for (const auto& [sender, u] : usual) {
        auto it = senders.find(sender);
        if (it == senders.end()) continue;
        auto in_round = it->second.find(r);
        if (in_round == it->second.end() || in_round->second.size() <= u.per_round) continue;
        std::vector<std::size_t> idx = in_round->second;
        std::sort(idx.begin(), idx.end(),
                  [&](std::size_t a, std::size_t b) { return matches[a].send_instance < matches[b].send_instance; });
        // The latest instances beyond the usual count are the ones of another iteration.
        for (std::size_t k = u.per_round; k < idx.size(); ++k) {
          if (reported[idx[k]]) continue;
          reported[idx[k]] = true;
          LockstepDivergence d{matches[idx[k]], false, idx.size(), u.per_round, u.rounds, usual_site_rounds,
                               short_rank};
          d.from_quiet_runs = from_pool;
          out.push_back(d);
        }
      }
    }
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
