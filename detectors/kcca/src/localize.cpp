#include "scalefuzz/detectors/kcca/localize.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace scalefuzz::detectors::kcca {

namespace {

double site_volume(const trace::SiteFeature& f, VolumeFeature v) {
  const double sent = static_cast<double>(f.bytes_sent);
  return v == VolumeFeature::Sent ? sent : sent + static_cast<double>(f.bytes_received);
}

std::vector<trace::Frame> frames_of(const trace::CallSiteInfo& site) {
  if (!site.symbolized.empty()) return site.symbolized;
  std::vector<trace::Frame> out;
  for (const auto a : site.frames) {
    trace::Frame f;
    f.address = a;
    out.push_back(f);
  }
  return out;
}

void finish(VolumeProfile& p) {
  double total = 0;
  for (const auto& s : p.sites) total += s.volume;
  for (auto& s : p.sites) s.share = total > 0 ? s.volume / total : 0.0;
  std::stable_sort(p.sites.begin(), p.sites.end(), [](const SiteProfile& a, const SiteProfile& b) {
    return a.share != b.share ? a.share > b.share : a.stable_hash < b.stable_hash;
  });
}

bool same_frame(const trace::Frame& a, const trace::Frame& b) {
  if (!a.module.empty() && !b.module.empty()) return a.module == b.module && a.offset == b.offset;
  return a.address == b.address;
}

// Frames shared at the outer end of both stacks (main, __libc_start_main, ...).
std::size_t common_outer(const std::vector<trace::Frame>& a, const std::vector<trace::Frame>& b) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && same_frame(a[a.size() - 1 - k], b[b.size() - 1 - k])) ++k;
  return k;
}

Divergence compare(const SiteProfile& test, const SiteProfile& train, const LocalizeOptions& o) {
  Divergence d;
  d.test_hash = test.stable_hash;
  d.train_hash = train.stable_hash;
  d.test_site_id = test.site_id;
  d.train_site_id = train.site_id;
  d.test_rank = test.rank;
  d.train_rank = train.rank;
  d.op = test.op;
  d.test_share = test.share;
  d.train_share = train.share;
  const auto& a = test.frames;
  const auto& b = train.frames;
  const std::size_t k = common_outer(a, b);
  if (k == a.size() && k == b.size()) {
    d.reason = "same call stack; its share of the volume changed";
    return d;
  }
  // Frames of the test stack inside the common caller part that differ from
  // the training stack, innermost first (aligned at the innermost frame).
  for (std::size_t i = 0; i + k < a.size(); ++i)
    if (i >= b.size() || !same_frame(a[i], b[i])) d.differing_frames.push_back(static_cast<int>(i));
  if (d.differing_frames.empty()) d.differing_frames.push_back(static_cast<int>(a.size() - k - 1));
  d.divergence_frame = a.size() > k ? static_cast<int>(a.size() - k - 1) : -1;
  if (d.divergence_frame >= 0) {
    d.test_frame = a[static_cast<std::size_t>(d.divergence_frame)];
    if (b.size() > k) d.train_frame = b[b.size() - k - 1];
    d.where = frame_origin(*d.test_frame, o);
  }
  d.reason = "call path diverges at frame " + std::to_string(d.divergence_frame) + " of " + std::to_string(a.size()) +
             " (" + std::to_string(k) + " outer frames shared)";
  return d;
}

// Training site whose stack is most like `site`'s: longest shared caller part,
// then most equal frames from the inside, then largest share.
const SiteProfile* most_similar(const SiteProfile& site, const VolumeProfile& train) {
  const SiteProfile* best = nullptr;
  std::tuple<std::size_t, std::size_t, double> best_key{0, 0, -1.0};
  for (const auto& t : train.sites) {
    std::size_t inner = 0;
    while (inner < site.frames.size() && inner < t.frames.size() && same_frame(site.frames[inner], t.frames[inner]))
      ++inner;
    const std::tuple<std::size_t, std::size_t, double> key{common_outer(site.frames, t.frames), inner, t.share};
    if (!best || key > best_key) {
      best = &t;
      best_key = key;
    }
  }
  return best;
}

}  // namespace

VolumeProfile volume_profile(const trace::RunTrace& run, const std::vector<int>& ranks, VolumeFeature volume) {
  const std::set<int> wanted(ranks.begin(), ranks.end());
  std::map<std::uint64_t, SiteProfile> by_hash;
  for (const auto& r : run.ranks) {
    if (r.rank < 0 || (!wanted.empty() && !wanted.count(r.rank))) continue;
    for (std::size_t id = 0; id < r.sites.size(); ++id) {
      const auto& site = r.sites[id];
      auto [it, inserted] = by_hash.try_emplace(site.stable_hash);
      SiteProfile& p = it->second;
      if (inserted) {
        p.stable_hash = site.stable_hash;
        p.op = site.op;
        p.site_id = static_cast<std::uint32_t>(id);
        p.rank = r.rank;
        p.frames = frames_of(site);
      } else if (p.frames.empty() || (p.frames.front().module.empty() && !site.symbolized.empty())) {
        p.frames = frames_of(site);  // prefer a symbolized copy
        p.site_id = static_cast<std::uint32_t>(id);
        p.rank = r.rank;
      }
      if (id < r.features.size()) p.volume += site_volume(r.features[id], volume);
    }
  }
  VolumeProfile out;
  out.runs = 1;
  for (auto& [h, p] : by_hash) out.sites.push_back(std::move(p));
  finish(out);
  return out;
}

VolumeProfile merge_profiles(const std::vector<VolumeProfile>& profiles) {
  std::map<std::uint64_t, SiteProfile> by_hash;
  std::map<std::uint64_t, double> share_sum;
  int runs = 0;
  for (const auto& prof : profiles) {
    runs += std::max(1, prof.runs);
    for (const auto& s : prof.sites) {
      auto [it, inserted] = by_hash.try_emplace(s.stable_hash, s);
      if (!inserted) it->second.volume += s.volume;
      share_sum[s.stable_hash] += s.share * std::max(1, prof.runs);
    }
  }
  VolumeProfile out;
  out.runs = runs;
  for (auto& [h, s] : by_hash) {
    s.volume /= std::max(1, runs);
    out.sites.push_back(std::move(s));
  }
  // Mean share over runs (a site missing from a run counts 0 there): shares,
  // unlike volumes, are comparable between scales.
  for (auto& s : out.sites) s.share = runs > 0 ? share_sum[s.stable_hash] / runs : 0.0;
  std::stable_sort(out.sites.begin(), out.sites.end(), [](const SiteProfile& a, const SiteProfile& b) {
    return a.share != b.share ? a.share > b.share : a.stable_hash < b.stable_hash;
  });
  return out;
}

std::string frame_origin(const trace::Frame& f, const LocalizeOptions& o) {
  if (f.module.empty()) return "unknown";
  if (!o.application_module.empty()) {
    const std::string& app = o.application_module;
    const bool is_app = f.module == app ||
                        (f.module.size() > app.size() && f.module.compare(f.module.size() - app.size(), app.size(), app) == 0 &&
                         (app.front() == '/' || f.module[f.module.size() - app.size() - 1] == '/'));
    return is_app ? "application" : "library";
  }
  return f.module.find(".so") != std::string::npos ? "library" : "application";
}

std::optional<std::uint64_t> crash_site(const trace::RankTrace& rank) {
  std::optional<std::uint32_t> id;
  if (!rank.events.empty()) id = rank.events.back().callsite;
  else if (rank.live) id = rank.live->callsite;
  if (!id || *id >= rank.sites.size()) return std::nullopt;
  return rank.sites[*id].stable_hash;
}

std::vector<Divergence> localize(const VolumeProfile& train, const VolumeProfile& test, const LocalizeOptions& o,
                                 std::optional<std::uint64_t> crash_site_hash) {
  std::vector<Divergence> out;
  if (crash_site_hash) {
    const auto it = std::find_if(test.sites.begin(), test.sites.end(),
                                 [&](const SiteProfile& s) { return s.stable_hash == *crash_site_hash; });
    if (it != test.sites.end()) {
      if (const SiteProfile* t = most_similar(*it, train)) {
        Divergence d = compare(*it, *t, o);
        d.from_crash = true;
        if (d.divergence_frame < 0) d.reason = "crashed at a call site seen in training";
        out.push_back(std::move(d));
      }
    }
  }
  // A site with the same stack on both sides is its own match. The others
  // (new test sites, training sites gone at test time) are matched by share
  // (paper §5.4.1): globally closest shares first, each site used once.
  std::vector<const SiteProfile*> ts, rs;
  std::set<std::uint64_t> test_hashes, train_hashes;
  for (const auto& s : test.sites)
    if (s.volume > 0) test_hashes.insert(s.stable_hash);
  for (const auto& s : train.sites)
    if (s.volume > 0) train_hashes.insert(s.stable_hash);
  for (const auto& s : test.sites)
    if (s.share > o.min_share && s.volume > 0 && !train_hashes.count(s.stable_hash)) ts.push_back(&s);
  for (const auto& s : train.sites)
    if (s.volume > 0 && !test_hashes.count(s.stable_hash)) rs.push_back(&s);
  struct Pair { double cost; std::size_t i, j; };
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < ts.size(); ++i)
    for (std::size_t j = 0; j < rs.size(); ++j) pairs.push_back({std::fabs(ts[i]->share - rs[j]->share), i, j});
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    return a.cost != b.cost ? a.cost < b.cost : (a.i != b.i ? a.i < b.i : a.j < b.j);
  });
  std::vector<int> match(ts.size(), -1);
  std::vector<bool> used(rs.size(), false);
  for (const auto& p : pairs)
    if (match[p.i] < 0 && !used[p.j]) {
      match[p.i] = static_cast<int>(p.j);
      used[p.j] = true;
    }
  // Test sites in order of volume: divergent matches and unmatched new sites.
  for (std::size_t i = 0; i < ts.size() && out.size() < o.max_divergences; ++i) {
    if (crash_site_hash && ts[i]->stable_hash == *crash_site_hash) continue;
    const SiteProfile* partner = match[i] >= 0 ? rs[static_cast<std::size_t>(match[i])] : most_similar(*ts[i], train);
    if (!partner) continue;
    Divergence d = compare(*ts[i], *partner, o);
    if (match[i] < 0) d.reason = "call site unseen in training; " + d.reason;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace scalefuzz::detectors::kcca
