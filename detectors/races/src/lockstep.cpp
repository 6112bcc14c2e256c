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

}  // namespace

std::vector<LockstepDivergence> lockstep_divergences(const std::vector<ObservedMatch>& matches) {
  // Receive site (rank, site, communicator) -> sender (rank, send site) -> round -> its messages there.
  using SiteKey = std::tuple<int, std::uint64_t, std::uint32_t>;
  using SenderKey = std::pair<int, std::uint64_t>;
  std::map<SiteKey, std::map<SenderKey, std::map<std::uint64_t, std::vector<std::size_t>>>> sites;
  std::map<SiteKey, std::vector<std::uint64_t>> site_rounds;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const auto& m = matches[i];
    if (!m.wildcard || m.recv_rank < 0 || m.send_rank < 0) continue;
    const SiteKey site{m.recv_rank, m.recv_site_hash, m.comm};
    sites[site][{m.send_rank, m.send_site_hash}][m.recv_round].push_back(i);
    site_rounds[site].push_back(m.recv_round);
  }
  std::vector<LockstepDivergence> out;
  std::vector<bool> reported(matches.size(), false);
  for (auto& [site, senders] : sites) {
    auto& rounds = site_rounds[site];
    std::sort(rounds.begin(), rounds.end());
    rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
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
    if (rounds.size() < kLockstepMinRounds) continue;
    struct Usual {
      std::size_t per_round = 0, rounds = 0;
    };
    std::map<SenderKey, Usual> usual;  // lock-step senders only
    for (const auto& [sender, by_round] : senders) {
      std::map<std::size_t, std::size_t> counts;  // messages in a round -> rounds
      for (std::uint64_t r : rounds) {
        auto it = by_round.find(r);
        ++counts[it == by_round.end() ? 0 : it->second.size()];
      }
      auto best = std::max_element(counts.begin(), counts.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
      if (best->first == 0 || static_cast<double>(best->second) < kLockstepShare * static_cast<double>(rounds.size()))
        continue;
      usual[sender] = {best->first, best->second};
    }
    if (usual.size() < 2) continue;
    // A round that took more than usual from one lock-step sender and fewer
    // than usual from another took a message of another iteration.
    for (std::uint64_t r : rounds) {
      int short_rank = -1;
      for (const auto& [sender, u] : usual) {
        auto it = senders[sender].find(r);
        if ((it == senders[sender].end() ? 0 : it->second.size()) < u.per_round) short_rank = sender.first;
      }
      if (short_rank < 0) continue;
      for (const auto& [sender, u] : usual) {
        auto it = senders[sender].find(r);
        if (it == senders[sender].end() || it->second.size() <= u.per_round) continue;
        std::vector<std::size_t> idx = it->second;
        std::sort(idx.begin(), idx.end(),
                  [&](std::size_t a, std::size_t b) { return matches[a].send_instance < matches[b].send_instance; });
        // The latest instances beyond the usual count are the ones of another iteration.
        for (std::size_t k = u.per_round; k < idx.size(); ++k) {
          if (reported[idx[k]]) continue;
          reported[idx[k]] = true;
          out.push_back({matches[idx[k]], false, idx.size(), u.per_round, u.rounds, rounds.size(), short_rank});
        }
      }
    }
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
