// §4.4 FC-invariant violations and §4.5 chain-distribution outliers.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "scalefuzz/detectors/dmtracker.hpp"
#include "scalefuzz/detectors/dmtracker_hash.hpp"

namespace scalefuzz::detectors::dmtracker {

// Dynamic programming over suffix pairs, O(|a|·|b|): chain types are short
// (the paper's generalized suffix tree gives O(|a|+|b|); not needed here).
// The weight of a common run is its summed uniqueness (Eq. 6's U(C ∩ P)).
CommonPart longest_common_substring(const ChainGroup& a, const ChainGroup& b) {
  CommonPart best;
  std::size_t n = a.type.size(), m = b.type.size();
  std::vector<double> prev(m + 1, 0.0), cur(m + 1, 0.0);
  std::vector<std::size_t> prev_len(m + 1, 0), cur_len(m + 1, 0);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      if (a.type[i - 1] == b.type[j - 1]) {
        cur[j] = prev[j - 1] + a.op_uniqueness[i - 1];
        cur_len[j] = prev_len[j - 1] + 1;
        if (cur[j] > best.uniqueness) {
          best.uniqueness = cur[j];
          best.length = cur_len[j];
          best.a_pos = i - cur_len[j];
          best.b_pos = j - cur_len[j];
        }
      } else {
        cur[j] = 0;
        cur_len[j] = 0;
      }
    }
    std::swap(prev, cur);
    std::swap(prev_len, cur_len);
  }
  return best;
}

double similarity(const ChainGroup& c, const ChainGroup& p, const CommonPart& common) {
  double uni = c.uniqueness + p.uniqueness - common.uniqueness;
  return uni > 0 ? common.uniqueness / uni : 0.0;
}

double rareness(std::size_t freq_c, std::size_t freq_p) {
  if (freq_p == 0 || freq_c >= freq_p) return 0.0;
  return static_cast<double>(freq_p - freq_c) / static_cast<double>(freq_p);
}

double abnormality(double sim, double rare) {
  if (sim <= 0 || rare <= 0) return 0.0;
  return 2.0 / (1.0 / sim + 1.0 / rare);
}

namespace {

// Movements touching each process, in time order: a movement is "at" a rank
// when it reads or writes there.
struct Timeline {
  std::map<int, std::vector<std::pair<std::uint64_t, std::size_t>>> at;  // rank -> (t, move)
  explicit Timeline(const std::vector<Movement>& moves) {
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const Movement& m = moves[i];
      if (m.src.rank >= 0) at[m.src.rank].push_back({m.t_read, i});
      if (m.dst.rank >= 0 && m.dst.rank != m.src.rank) at[m.dst.rank].push_back({m.t_write, i});
    }
    for (auto& [r, v] : at) std::sort(v.begin(), v.end());
  }
};

bool same_operation(const Movement& m, const Symbol& s) { return m.kind == s.kind && m.site == s.site; }

// The nearest of the `window` movements of `rank` before time t (after it,
// when `after`), other than `self`, that performs `want`; SIZE_MAX if none.
std::size_t search_near(const std::vector<Movement>& moves, const Timeline& tl, int rank, std::uint64_t t,
                        bool after, std::size_t self, const Symbol& want, std::size_t window) {
  auto it = tl.at.find(rank);
  if (it == tl.at.end()) return SIZE_MAX;
  const auto& v = it->second;
  auto pos = after ? std::upper_bound(v.begin(), v.end(), std::make_pair(t, SIZE_MAX))
                   : std::lower_bound(v.begin(), v.end(), std::make_pair(t, std::size_t{0}));
  for (std::size_t n = 0; n < window; ++n) {
    if (after ? pos == v.end() : pos == v.begin()) break;
    auto here = after ? pos++ : --pos;
    if (here->second != self && same_operation(moves[here->second], want)) return here->second;
  }
  return SIZE_MAX;
}

// §4.4.2: does a movement of the same process just before (after) the chain
// instance perform P's unmatched part next to the common part? Compared at
// the level of the DM-operation (kind and call site), not the buffers: a
// broken chain is the same operation done on another buffer.
std::size_t context_match(const std::vector<Movement>& moves, const Timeline& tl, const Chain& c,
                          const ChainGroup& cg, const ChainGroup& pg, const CommonPart& common,
                          std::size_t window) {
  // Missing before: the chain starts where the common part starts, P has more
  // before it; searched before the first movement's read (its write if none).
  if (common.a_pos == 0 && common.b_pos > 0) {
    const Movement& first = moves[c.moves.front()];
    const bool reads = first.src.rank >= 0;
    std::size_t m = search_near(moves, tl, reads ? first.src.rank : first.dst.rank, reads ? first.t_read : first.t_write,
                                false, c.moves.front(), pg.type[common.b_pos - 1], window);
    if (m != SIZE_MAX) return m;
  }
  // Missing after: the chain ends where the common part ends, P goes on;
  // searched after the last movement's write (its read if none).
  if (common.a_pos + common.length == cg.type.size() && common.b_pos + common.length < pg.type.size()) {
    const Movement& last = moves[c.moves.back()];
    const bool writes = last.dst.rank >= 0;
    return search_near(moves, tl, writes ? last.dst.rank : last.src.rank, writes ? last.t_write : last.t_read, true,
                       c.moves.back(), pg.type[common.b_pos + common.length], window);
  }
  return SIZE_MAX;
}

}  // namespace

std::vector<Violation> fc_violations(const std::vector<Movement>& moves, const std::vector<Chain>& chains,
                                     const Grouping& g, const std::vector<std::size_t>& invariants,
                                     const Parameters& p, const std::vector<bool>& known_normal) {
  std::vector<Violation> out;
  Timeline tl(moves);
  for (std::size_t pi : invariants) {
    const ChainGroup& pg = g.groups[pi];
    for (std::size_t ci = 0; ci < g.groups.size(); ++ci) {
      const ChainGroup& cg = g.groups[ci];
      if (ci == pi || cg.frequency() >= pg.frequency()) continue;
      if (ci < known_normal.size() && known_normal[ci]) continue;  // known-good runs had it too
      CommonPart common = longest_common_substring(cg, pg);
      if (common.length == 0) continue;
      Violation v;
      v.group = ci;
      v.invariant = pi;
      v.common = common;
      v.similarity = similarity(cg, pg, common);
      v.rareness = rareness(cg.frequency(), pg.frequency());
      v.abnormality = abnormality(v.similarity, v.rareness);
      if (v.abnormality <= p.abnormality_threshold) continue;
      v.instances = cg.frequency();
      v.example_chain = cg.chains.front();
      for (std::size_t c : cg.chains) {
        std::size_t m = context_match(moves, tl, chains[c], cg, pg, common, p.context_window);
        if (m == SIZE_MAX) continue;
        if (v.context_matches++ == 0) {
          v.example_chain = c;
          v.example_context_move = m;
        }
      }
      out.push_back(v);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) {
    bool ca = a.context_matches > 0, cb = b.context_matches > 0;
    return ca != cb ? ca : a.abnormality > b.abnormality;
  });
  return out;
}

// ---- chain distributions ----------------------------------------------------

std::vector<std::vector<double>> chain_distributions(const std::vector<Chain>& chains, const Grouping& g,
                                                     const std::vector<int>& ranks, std::uint64_t t_from) {
  std::map<int, std::size_t> row;
  for (std::size_t i = 0; i < ranks.size(); ++i) row[ranks[i]] = i;
  std::vector<std::vector<double>> cd(ranks.size(), std::vector<double>(g.groups.size(), 0.0));
  std::vector<double> total(ranks.size(), 0.0);
  for (std::size_t c = 0; c < chains.size(); ++c) {
    if (chains[c].t_start < t_from) continue;
    auto it = row.find(chains[c].start_rank);
    if (it == row.end()) continue;
    cd[it->second][g.group_of[c]] += 1.0;
    total[it->second] += 1.0;
  }
  for (std::size_t i = 0; i < cd.size(); ++i)
    if (total[i] > 0)
      for (double& x : cd[i]) x /= total[i];
  return cd;
}

double manhattan(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d += std::fabs(a[i] - b[i]);
  return d;
}

std::vector<double> distance_k(const std::vector<std::vector<double>>& cd, std::size_t k) {
  std::size_t n = cd.size();
  std::vector<double> out(n, 0.0);
  if (n < 2) return out;
  k = std::clamp<std::size_t>(k, 1, n - 1);
  std::vector<double> d;
  for (std::size_t i = 0; i < n; ++i) {
    d.clear();
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) d.push_back(manhattan(cd[i], cd[j]));
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k - 1), d.end());
    out[i] = d[k - 1];
  }
  return out;
}

namespace {

// The k-th nearest other rank of row i and the group contributing most to
// that distance (§4.5's diagnosis information).
std::pair<std::size_t, std::size_t> kth_neighbour(const std::vector<std::vector<double>>& cd, std::size_t i,
                                                  std::size_t k) {
  std::vector<std::pair<double, std::size_t>> d;
  for (std::size_t j = 0; j < cd.size(); ++j)
    if (j != i) d.push_back({manhattan(cd[i], cd[j]), j});
  std::sort(d.begin(), d.end());
  std::size_t j = d[std::clamp<std::size_t>(k, 1, d.size()) - 1].second;
  // What the process does more of than its neighbour; if nothing, what it
  // does less of (a process that stopped starting chains).
  std::size_t top_more = SIZE_MAX, top_any = 0;
  double more = 0, any = -1;
  for (std::size_t gi = 0; gi < cd[i].size(); ++gi) {
    double diff = cd[i][gi] - cd[j][gi];
    if (diff > more) {
      more = diff;
      top_more = gi;
    }
    if (std::fabs(diff) > any) {
      any = std::fabs(diff);
      top_any = gi;
    }
  }
  return {j, top_more != SIZE_MAX ? top_more : top_any};
}

}  // namespace

CdResult cd_outliers(const std::vector<Chain>& chains, const Grouping& g, std::vector<int> ranks,
                     const Parameters& p, const std::vector<double>& good_distance_k) {
  CdResult res;
  if (ranks.empty()) {
    for (const Chain& c : chains) ranks.push_back(c.start_rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  }
  res.ranks = ranks;
  res.distance_k.assign(ranks.size(), 0.0);
  if (ranks.size() < 3) return res;  // no peers to compare with
  res.k = std::max<std::size_t>(1, static_cast<std::size_t>(p.k_fraction * static_cast<double>(ranks.size())));
  std::uint64_t t_lo = UINT64_MAX, t_hi = 0;
  for (const Chain& c : chains) {
    t_lo = std::min(t_lo, c.t_start);
    t_hi = std::max(t_hi, c.t_start);
  }
  std::vector<std::vector<double>> whole;
  for (int round = 0; round <= std::max(0, p.halving_rounds); ++round) {
    std::uint64_t t_from = round == 0 ? 0 : t_hi - ((t_hi - t_lo) >> round);
    auto cd = chain_distributions(chains, g, ranks, t_from);
    if (round == 0) whole = cd;
    auto dk = distance_k(cd, res.k);
    double avg = std::accumulate(dk.begin(), dk.end(), 0.0) / static_cast<double>(dk.size());
    if (round == 0) {
      res.distance_k = dk;
      res.average = avg;
    }
    for (std::size_t i = 0; i < dk.size(); ++i) {
      if (!(dk[i] > p.outlier_factor * avg) || avg <= 0) continue;
      const auto rank_index = static_cast<std::size_t>(ranks[i]);
      if (rank_index < good_distance_k.size() && !(dk[i] > p.outlier_factor * good_distance_k[rank_index])) continue;
      auto [j, top] = kth_neighbour(cd, i, res.k);
      // A process whose most different group no other process starts (over
      // the whole run) plays another role (a root, a master): the paper's
      // subset of processes, found from the data. An outlier does what its
      // peers do, in other proportions (the paper's case 2: the
      // connection-setup send).
      bool shared = false;
      for (std::size_t o = 0; o < whole.size() && !shared; ++o) shared = o != i && whole[o][top] > 0;
      if (!shared) continue;
      res.outliers.push_back(Outlier{ranks[i], dk[i], avg, top, ranks[j], round});
    }
    if (!res.outliers.empty()) break;
  }
  return res;
}

// ---- invariants from known-good runs -------------------------------------------

std::uint64_t type_key(const ChainGroup& g) {
  std::uint64_t h = kTypeKeySeed;
  for (const Symbol& s : g.type) {
    h = hash_word(h, static_cast<std::uint64_t>(s.kind));
    h = hash_word(h, s.site);
    h = hash_word(h, s.src_alloc);
    h = hash_word(h, s.dst_alloc);
  }
  return h;
}

void KnownGood::learn(const Grouping& g, const std::vector<std::size_t>& fc, const CdResult& cd, int nprocs) {
  ++runs;
  for (std::size_t i : fc) invariant_types.insert(type_key(g.groups[i]));
  for (const ChainGroup& grp : g.groups) normal_types.insert(type_key(grp));
  if (nprocs <= 0) return;
  auto& dk = distance_k[nprocs];
  dk.resize(static_cast<std::size_t>(nprocs), 0.0);
  for (std::size_t i = 0; i < cd.ranks.size(); ++i)
    if (cd.ranks[i] >= 0 && cd.ranks[i] < nprocs)
      dk[static_cast<std::size_t>(cd.ranks[i])] = std::max(dk[static_cast<std::size_t>(cd.ranks[i])], cd.distance_k[i]);
}

std::vector<std::size_t> KnownGood::invariants_in(const Grouping& g) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < g.groups.size(); ++i)
    if (invariant_types.count(type_key(g.groups[i]))) out.push_back(i);
  return out;
}

std::vector<bool> KnownGood::normal_in(const Grouping& g) const {
  std::vector<bool> out(g.groups.size(), false);
  for (std::size_t i = 0; i < g.groups.size(); ++i) out[i] = normal_types.count(type_key(g.groups[i])) > 0;
  return out;
}

std::vector<double> KnownGood::distance_k_at(int nprocs) const {
  auto it = distance_k.find(nprocs);
  return it != distance_k.end() ? it->second : std::vector<double>{};
}

}  // namespace scalefuzz::detectors::dmtracker
