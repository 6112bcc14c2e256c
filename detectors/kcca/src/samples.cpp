#include "scalefuzz/detectors/kcca/samples.hpp"

#include <filesystem>
#include <string_view>

#include "scalefuzz/detectors/kcca/localize.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::kcca {

namespace {
std::uint64_t fnv1a(std::uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;  // FNV-1a 64 prime (Fowler/Noll/Vo)
  return h;
}
}  // namespace

std::optional<LibraryEntry> library_entry(const trace::CallSiteInfo& site, const std::string& application_module) {
  const auto& frames = site.symbolized;
  std::size_t inner = 0;  // innermost frame that is neither MPI, the injector nor libc
  while (inner < frames.size() && trace::is_runtime_frame(frames[inner])) ++inner;
  if (inner >= frames.size()) return std::nullopt;
  LocalizeOptions where;
  where.application_module = application_module;
  if (frame_origin(frames[inner], where) != "library") return std::nullopt;
  std::size_t app = inner;
  while (app < frames.size() && frame_origin(frames[app], where) != "application") ++app;
  if (app >= frames.size()) return std::nullopt;
  LibraryEntry e;
  e.library = std::filesystem::path(frames[app - 1].module).filename().string();
  e.application_frame = app;
  // Same ingredients as the injector's stable hash (module basename, offset
  // per frame), from the application's call into the library outwards, with
  // the library's name and the MPI op class left out: which MPI calls the
  // library makes is its own business.
  std::uint64_t h = fnv1a(14695981039346656037ull, "library-entry:" + e.library);
  for (std::size_t i = app; i < frames.size(); ++i) {
    h = fnv1a(h, std::filesystem::path(frames[i].module).filename().string());
    const std::uint64_t off = frames[i].offset;
    h = fnv1a(h, std::string_view(reinterpret_cast<const char*>(&off), sizeof off));
  }
  e.key = h == 0 ? 1 : h;
  return e;
}

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
                                         VolumeFeature volume, const SiteKeying& keying) {
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
      std::uint64_t key = r.sites[id].stable_hash;
      if (keying.library_entry)
        if (auto entry = library_entry(r.sites[id], keying.application_module)) key = entry->key;
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
