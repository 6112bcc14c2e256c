#include "scalefuzz/detectors/kcca/samples.hpp"

namespace scalefuzz::detectors::kcca {

std::uint64_t received_key(std::uint64_t stable_hash) {
  // splitmix64 finalizer of the hash with a direction tag: a different,
  // well-spread key that cannot be mistaken for the "sent" key of any site.
  std::uint64_t z = stable_hash ^ 0x7265637665642121ull;  // "recved!!"
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::string> control_names(const RunParams& params) {
  std::vector<std::string> names{"rank", "nprocs"};
  for (const auto& [name, value] : params.numeric) names.push_back(name);
  return names;
}

std::vector<RankSample> samples_from_run(const trace::RunTrace& run, const RunParams& params,
                                         VolumeFeature volume) {
  std::vector<RankSample> out;
  const std::string run_id = params.run_id.empty() ? run.run_id : params.run_id;
  int world = 0;
  for (const auto& r : run.ranks) world = std::max(world, r.world_size);
  if (world == 0) world = static_cast<int>(run.ranks.size());
  for (const auto& r : run.ranks) {
    if (r.rank < 0) continue;
    RankSample s;
    s.run_id = run_id;
    s.rank = r.rank;
    s.nprocs = r.world_size > 0 ? r.world_size : world;
    s.control = {static_cast<double>(s.rank), static_cast<double>(s.nprocs)};
    for (const auto& [name, value] : params.numeric) s.control.push_back(value);
    for (std::size_t id = 0; id < r.features.size() && id < r.sites.size(); ++id) {
      const auto& f = r.features[id];
      const std::uint64_t key = r.sites[id].stable_hash;
      const double sent = static_cast<double>(f.bytes_sent);
      const double recv = static_cast<double>(f.bytes_received);
      switch (volume) {
        case VolumeFeature::Total:
          if (sent + recv > 0) s.observation[key] += sent + recv;
          break;
        case VolumeFeature::Sent:
          if (sent > 0) s.observation[key] += sent;
          break;
        case VolumeFeature::SentAndReceived:
          if (sent > 0) s.observation[key] += sent;
          if (recv > 0) s.observation[received_key(key)] += recv;
          break;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace scalefuzz::detectors::kcca
