#include "scalefuzz/detectors/api/site_names.hpp"

namespace scalefuzz::analysis {

const trace::RankTrace* SiteNames::load(const std::filesystem::path& run_dir, int rank) {
  auto key = std::make_pair(run_dir.string(), rank);
  auto it = ranks_.find(key);
  if (it == ranks_.end()) {
    trace::RankTrace r;
    try {
      r = trace::read_rank(run_dir, rank);
      symbols_.symbolize(run_dir, r);
      r.events.clear();  // only the sites are needed here
      r.events.shrink_to_fit();
    } catch (const std::exception&) {
      r.rank = -1;
    }
    it = ranks_.emplace(key, std::move(r)).first;
  }
  return it->second.rank < 0 ? nullptr : &it->second;
}

std::string SiteNames::name(const std::filesystem::path& run_dir, int rank, std::uint32_t site) {
  std::lock_guard lock(mutex_);
  const trace::RankTrace* r = load(run_dir, rank);
  if (!r || site >= r->sites.size()) return "site " + std::to_string(site);
  const auto& info = r->sites[site];
  if (const trace::Frame* f = trace::application_frame(info)) return trace::format_frame(*f);
  if (!info.symbolized.empty()) return trace::format_frame(info.symbolized.front());
  return std::string(trace::op_name(info.op)) + " at site " + std::to_string(site);
}

std::string SiteNames::stack(const std::filesystem::path& run_dir, int rank, std::uint32_t site) {
  std::lock_guard lock(mutex_);
  const trace::RankTrace* r = load(run_dir, rank);
  if (!r || site >= r->sites.size()) return {};
  std::string out;
  for (const auto& f : r->sites[site].symbolized) out += trace::format_frame(f) + "\n";
  return out;
}

}  // namespace scalefuzz::analysis
