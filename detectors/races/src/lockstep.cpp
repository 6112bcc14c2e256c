#include <algorithm>
#include <map>
#include <tuple>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

namespace {

// A sender is in lock-step at a receive site when at least this many of its
// messages there, and at least this share of them, sit at its usual offset.
constexpr std::size_t kLockstepMinMessages = 8;
constexpr double kLockstepShare = 0.75;

struct Taken {
  std::size_t match;       // index into the run's matches
  std::int64_t offset;     // round ordinal at the receive site minus the message's number from its sender there
  std::int64_t ordinal;    // which active round of the receive site took it
};

}  // namespace

std::vector<LockstepDivergence> lockstep_divergences(const std::vector<ObservedMatch>& matches) {
  // Receive site (rank, site, communicator) -> sender (rank, send site) -> its messages there.
  using SiteKey = std::tuple<int, std::uint64_t, std::uint32_t>;
  using SenderKey = std::pair<int, std::uint64_t>;
  std::map<SiteKey, std::map<SenderKey, std::vector<std::size_t>>> sites;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const auto& m = matches[i];
    if (m.wildcard && m.recv_rank >= 0 && m.send_rank >= 0)
      sites[{m.recv_rank, m.recv_site_hash, m.comm}][{m.send_rank, m.send_site_hash}].push_back(i);
  }
  std::vector<LockstepDivergence> out;
  for (auto& [site, senders] : sites) {
    // The rounds in which this site's receives were posted, numbered 0, 1, ...
    std::vector<std::uint64_t> rounds;
    for (const auto& [sender, idx] : senders)
      for (std::size_t i : idx) rounds.push_back(matches[i].recv_round);
    std::sort(rounds.begin(), rounds.end());
    rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
    auto ordinal_of = [&](std::uint64_t round) {
      return static_cast<std::int64_t>(std::lower_bound(rounds.begin(), rounds.end(), round) - rounds.begin());
    };
    // Per lock-step sender: its usual offset; per round: the adjusted numbers it took.
    std::map<std::int64_t, std::vector<std::pair<Taken, std::int64_t>>> by_round;  // ordinal -> (message, usual offset)
    std::map<SenderKey, std::pair<std::size_t, std::size_t>> support;               // sender -> (at usual offset, all)
    for (auto& [sender, idx] : senders) {
      if (idx.size() < kLockstepMinMessages) continue;
      std::sort(idx.begin(), idx.end(),
                [&](std::size_t a, std::size_t b) { return matches[a].send_instance < matches[b].send_instance; });
      std::vector<Taken> taken;
      std::map<std::int64_t, std::size_t> offsets;
      for (std::size_t j = 0; j < idx.size(); ++j) {
        const std::int64_t ordinal = ordinal_of(matches[idx[j]].recv_round);
        taken.push_back({idx[j], ordinal - static_cast<std::int64_t>(j), ordinal});
        ++offsets[taken.back().offset];
      }
      auto usual = std::max_element(offsets.begin(), offsets.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
      if (static_cast<double>(usual->second) < kLockstepShare * static_cast<double>(idx.size())) continue;
      support[sender] = {usual->second, idx.size()};
      for (const Taken& t : taken) by_round[t.ordinal].push_back({t, usual->first});
    }
    if (support.size() < 2) continue;
    // A round whose receives took messages of different lock-step rounds: the
    // ones off their sender's usual offset belong to another round.
    for (const auto& [ordinal, in_round] : by_round) {
      bool mixed = std::any_of(in_round.begin(), in_round.end(),
                               [&](const auto& x) { return x.first.offset != in_round.front().first.offset -
                                                                                 in_round.front().second + x.second; });
      if (!mixed) continue;
      for (const auto& [t, usual] : in_round) {
        if (t.offset == usual) continue;
        const auto& m = matches[t.match];
        const auto& s = support[{m.send_rank, m.send_site_hash}];
        out.push_back({m, t.offset - usual, s.first, s.second});
      }
    }
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
