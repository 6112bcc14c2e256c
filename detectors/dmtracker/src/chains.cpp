// §4.2 movement concatenation and §4.3 chain groups.
#include <algorithm>
#include <map>
#include <iterator>
#include <unordered_map>

#include "scalefuzz/detectors/dmtracker.hpp"
#include "scalefuzz/detectors/dmtracker_hash.hpp"

namespace scalefuzz::detectors::dmtracker {

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::Copy: return "copy";
    case OpKind::Net: return "message";
    case OpKind::Coll: return "collective";
    case OpKind::Pack: return "pack";
    case OpKind::Unpack: return "unpack";
  }
  return "?";
}

double uniqueness(const Movement& m, const Parameters& p) {
  switch (m.kind) {
    case OpKind::Copy: return 1.0;
    case OpKind::Net:
    case OpKind::Coll: return p.network_uniqueness;
    case OpKind::Pack:
    case OpKind::Unpack: return static_cast<double>(std::min(p.pack_segments_cap, std::max(1, m.segments)));
  }
  return 1.0;
}

Symbol symbol_of(const Movement& m) { return Symbol{m.kind, m.site, m.src.alloc_site, m.dst.alloc_site}; }

namespace {

// The active chain table of one process: disjoint written ranges, each
// remembering the movement that last wrote it, plus the strided writes
// (BufferRange::stride) laid over them.
class ActiveTable {
 public:
  // The latest writer of any byte of `read` (same heap block), or SIZE_MAX.
  std::size_t latest_writer(const BufferRange& read, const std::vector<Movement>& moves) const {
    const std::uint64_t lo = read.addr, hi = read.addr + read.len;
    std::size_t best = SIZE_MAX;
    std::uint64_t best_t = 0;
    auto consider = [&](std::size_t writer) {
      if (moves[writer].dst.block != read.block) return;
      std::uint64_t t = moves[writer].t_write;
      if (best == SIZE_MAX || t > best_t || (t == best_t && writer > best)) {
        best = writer;
        best_t = t;
      }
    };
    auto it = ranges_.upper_bound(lo);
    if (it != ranges_.begin()) --it;
    for (; it != ranges_.end() && it->first < hi; ++it)
      if (it->second.end > lo) consider(it->second.writer);
    for (auto s = strided_.lower_bound(lo > max_strided_ ? lo - max_strided_ : 0); s != strided_.end() && s->first < hi;
         ++s)
      if (s->second.end > lo && !disjoint_fields(read.addr, read.stride, s->first, s->second.stride))
        consider(s->second.writer);
    return best;
  }
  void write(const BufferRange& w, std::size_t writer) {
    const std::uint64_t lo = w.addr, hi = w.addr + w.len;
    // Strided writes it covers completely are overwritten (by a strided one:
    // when it touches the same fields).
    for (auto s = strided_.lower_bound(lo); s != strided_.end() && s->first < hi;) {
      bool covered = s->second.end <= hi && (w.stride == 0 || (s->second.stride == w.stride && (s->first - lo) % w.stride == 0));
      s = covered ? strided_.erase(s) : std::next(s);
    }
    if (w.stride != 0) {
      strided_.emplace(lo, Strided{hi, w.stride, writer});
      max_strided_ = std::max(max_strided_, w.len);
      return;
    }
    auto it = ranges_.upper_bound(lo);
    if (it != ranges_.begin()) --it;
    while (it != ranges_.end() && it->first < hi) {
      std::uint64_t a = it->first;
      Range r = it->second;
      if (r.end <= lo) {
        ++it;
        continue;
      }
      it = ranges_.erase(it);
      if (a < lo) ranges_.emplace(a, Range{lo, r.writer});
      if (r.end > hi) it = ranges_.emplace(hi, Range{r.end, r.writer}).first;
    }
    ranges_[lo] = Range{hi, writer};
  }

 private:
  // Two strided accesses of the same element extent not a whole number of
  // elements apart touch different bytes.
  static bool disjoint_fields(std::uint64_t a, std::uint64_t a_stride, std::uint64_t b, std::uint64_t b_stride) {
    if (a_stride == 0 || a_stride != b_stride) return false;
    return (a > b ? a - b : b - a) % a_stride != 0;
  }
  struct Range {
    std::uint64_t end;
    std::size_t writer;
  };
  struct Strided {
    std::uint64_t end, stride;
    std::size_t writer;
  };
  std::map<std::uint64_t, Range> ranges_;
  std::multimap<std::uint64_t, Strided> strided_;
  std::uint64_t max_strided_ = 0;
};

struct Access {
  std::uint64_t t;
  bool write;  // reads sort before writes at equal times: an in-place collective reads its old value
  std::size_t move;
};

}  // namespace

std::vector<Chain> build_chains(const std::vector<Movement>& moves) {
  std::map<int, std::vector<Access>> per_rank;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Movement& m = moves[i];
    if (m.src.rank >= 0 && m.src.len > 0) per_rank[m.src.rank].push_back({m.t_read, false, i});
    if (m.dst.rank >= 0 && m.dst.len > 0) per_rank[m.dst.rank].push_back({m.t_write, true, i});
  }
  std::vector<std::size_t> pred(moves.size(), SIZE_MAX);
  std::vector<std::vector<std::size_t>> succ(moves.size());
  for (auto& [rank, acc] : per_rank) {
    std::stable_sort(acc.begin(), acc.end(), [](const Access& a, const Access& b) {
      return a.t != b.t ? a.t < b.t : (a.write != b.write ? !a.write : a.move < b.move);
    });
    ActiveTable table;
    for (const Access& a : acc) {
      const Movement& m = moves[a.move];
      if (!a.write) {
        std::size_t w = table.latest_writer(m.src, moves);
        if (w != SIZE_MAX && w != a.move) {
          pred[a.move] = w;
          succ[w].push_back(a.move);
        }
      } else {
        table.write(m.dst, a.move);
      }
    }
  }
  // Every root-to-leaf path is a chain (iterative DFS: chains can be long).
  std::vector<Chain> chains;
  std::vector<std::size_t> path;
  for (std::size_t root = 0; root < moves.size(); ++root) {
    if (pred[root] != SIZE_MAX) continue;
    const Movement& r = moves[root];
    int start_rank = r.src.rank >= 0 ? r.src.rank : r.dst.rank;
    std::uint64_t t_start = r.src.rank >= 0 ? r.t_read : r.t_write;
    struct Frame {
      std::size_t move, next_child;
    };
    std::vector<Frame> stack{{root, 0}};
    path.assign(1, root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto& kids = succ[f.move];
      if (kids.empty() && f.next_child == 0) {
        chains.push_back(Chain{path, start_rank, t_start});
        f.next_child = 1;
      }
      if (f.next_child < kids.size()) {
        std::size_t k = kids[f.next_child++];
        stack.push_back({k, 0});
        path.push_back(k);
      } else {
        stack.pop_back();
        path.pop_back();
      }
    }
  }
  std::stable_sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) {
    return a.start_rank != b.start_rank ? a.start_rank < b.start_rank : a.t_start < b.t_start;
  });
  return chains;
}

namespace {
struct SymbolHash {
  std::size_t operator()(const Symbol& s) const {
    std::uint64_t h = hash_word(kTypeKeySeed, static_cast<std::uint64_t>(s.kind));
    for (std::uint64_t v : {s.site, s.src_alloc, s.dst_alloc}) h = hash_word(h, v);
    return static_cast<std::size_t>(h);
  }
};
struct TypeHash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const {
    std::uint64_t h = kTypeKeySeed;
    for (std::uint32_t x : v) h = hash_word(h, x);
    return static_cast<std::size_t>(h);
  }
};
}  // namespace

Grouping group_chains(const std::vector<Movement>& moves, const std::vector<Chain>& chains, const Parameters& p) {
  std::unordered_map<Symbol, std::uint32_t, SymbolHash> symbol_ids;
  std::unordered_map<std::vector<std::uint32_t>, std::size_t, TypeHash> type_ids;
  Grouping g;
  g.group_of.resize(chains.size());
  std::vector<std::uint32_t> key;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    key.clear();
    for (std::size_t m : chains[c].moves)
      key.push_back(symbol_ids.emplace(symbol_of(moves[m]), static_cast<std::uint32_t>(symbol_ids.size())).first->second);
    auto [it, fresh] = type_ids.emplace(key, g.groups.size());
    if (fresh) {
      ChainGroup grp;
      for (std::size_t m : chains[c].moves) {
        grp.type.push_back(symbol_of(moves[m]));
        grp.op_uniqueness.push_back(uniqueness(moves[m], p));
        grp.uniqueness += grp.op_uniqueness.back();
      }
      g.groups.push_back(std::move(grp));
    }
    g.groups[it->second].chains.push_back(c);
    g.group_of[c] = it->second;
  }
  return g;
}

std::vector<std::size_t> select_fc_invariants(const Grouping& g, const Parameters& p) {
  std::size_t unique_total = 0;
  for (const ChainGroup& grp : g.groups)
    if (grp.uniqueness >= p.uniqueness_threshold) unique_total += grp.frequency();
  std::vector<std::size_t> fc;
  for (std::size_t i = 0; i < g.groups.size(); ++i) {
    const ChainGroup& grp = g.groups[i];
    if (grp.uniqueness >= p.uniqueness_threshold &&
        static_cast<double>(grp.frequency()) > p.fc_min_share * static_cast<double>(unique_total))
      fc.push_back(i);
  }
  return fc;
}

}  // namespace scalefuzz::detectors::dmtracker
