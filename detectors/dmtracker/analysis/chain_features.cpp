#include "chain_features.hpp"

#include "movements.hpp"
#include "scalefuzz/detectors/dmtracker_hash.hpp"

namespace scalefuzz::detectors::dmtracker {

std::uint64_t chain_feature_key(std::uint64_t type_key) {
  return hash_bytes(hash_word(kTypeKeySeed, type_key), "dmtracker-chain-type");
}

std::map<int, std::map<std::uint64_t, double>> chain_volumes(const trace::RunTrace& run,
                                                             const std::filesystem::path& run_dir) {
  RunMovements rm = run_movements(run, run_dir);
  Parameters p;
  auto chains = build_chains(rm.moves);
  auto groups = group_chains(rm.moves, chains, p);
  std::vector<std::uint64_t> keys;
  keys.reserve(groups.groups.size());
  for (const ChainGroup& g : groups.groups) keys.push_back(chain_feature_key(type_key(g)));
  std::map<int, std::map<std::uint64_t, double>> out;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    const Movement& first = rm.moves[chains[c].moves.front()];
    const std::uint64_t bytes = first.src.rank >= 0 ? first.src.len : first.dst.len;
    out[chains[c].start_rank][keys[groups.group_of[c]]] += static_cast<double>(bytes);
  }
  return out;
}

}  // namespace scalefuzz::detectors::dmtracker
