#include "movements.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "scalefuzz/detectors/dmtracker_hash.hpp"
#include "scalefuzz/trace/allocs.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::dmtracker {

namespace {

namespace fs = std::filesystem;
using trace::Event;
using trace::OpClass;

// Two keys as one (a message's send and receive call sites).
std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return hash_word(hash_word(kTypeKeySeed, a), b); }

// Contiguous pieces of `count` elements of a datatype (Eq. 2's n). The
// trace keeps a type's size, extent and primitive signature, not its
// displacements: a type without holes (size == extent) is one piece for the
// whole buffer; a type with holes is counted as one piece per primitive,
// exact for the usual halo and field-selection types (blocks of one
// primitive) and an upper bound otherwise (Eq. 2 caps it at N anyway).
int pack_segments(const trace::RankTrace& r, const Event& e) {
  const trace::TypeEntry* t = trace::find_type(r, e.dtype);
  if (t == nullptr || t->predefined || t->size <= 0 || t->size == t->extent || e.count <= 0) return 1;
  std::uint64_t primitives = 0;
  for (const auto& run : t->runs) primitives += run.second;
  if (!t->signature_known || primitives == 0) primitives = 2;  // holes mean at least two pieces
  std::uint64_t pieces = primitives * static_cast<std::uint64_t>(e.count);
  return static_cast<int>(std::min<std::uint64_t>(pieces, 1u << 20));
}

// The bytes `count` elements of the event's datatype span from `addr`: for
// a type with holes count x extent from the type's lower bound (at least
// `bytes`), strided (BufferRange::stride); otherwise `bytes` from `addr`.
BufferRange typed_range(const trace::RankTrace& r, std::uint32_t dtype, std::int64_t count, std::uint64_t addr,
                        std::uint64_t bytes) {
  BufferRange out{r.rank, addr, bytes, 0};
  const trace::TypeEntry* t = trace::find_type(r, dtype);
  if (t == nullptr || t->predefined || t->size <= 0 || t->size >= t->extent || count <= 0) return out;
  out.addr += static_cast<std::uint64_t>(t->lb);
  out.len = std::max<std::uint64_t>(bytes, static_cast<std::uint64_t>(t->extent) * static_cast<std::uint64_t>(count));
  out.stride = static_cast<std::uint64_t>(t->extent);
  return out;
}

// Allocation-site keys equal across ranks and runs of one binary: the
// allocating frame as (module, offset), like call sites' stable hashes.
class AllocSiteKeys {
 public:
  explicit AllocSiteKeys(const std::vector<trace::ModuleSegment>& segments) : segments_(segments) {}
  std::uint64_t key(std::uint64_t address) const {
    for (const auto& s : segments_)
      if (address >= s.begin && address < s.end)
        return hash_word(hash_bytes(kTypeKeySeed, s.path), address - s.begin + s.offset) | 1;
    return mix(0xA110C, address) | 1;  // outside every module: per-run key
  }

 private:
  using Segments = std::vector<trace::ModuleSegment>;
  const Segments& segments_;
};

struct Query {
  std::uint64_t t;
  int rank;
  std::uint64_t addr;
  BufferRange* range;  // where the allocation-site key and block go
};

std::uint64_t site_hash(const trace::RankTrace& r, const Event& e) {
  return e.callsite < r.sites.size() ? r.sites[e.callsite].stable_hash : mix(0x5173, e.callsite);
}

// Appends the movement `movement_of(rank, event)` makes of each event of
// every rank (nullopt: none) with its site, times and reference; it has no
// receive side.
template <typename MovementOf>
void add_local_moves(const trace::RunTrace& run, RunMovements& out, MovementOf movement_of) {
  for (const trace::RankTrace& r : run.ranks) {
    if (r.rank < 0) continue;
    for (std::size_t i = 0; i < r.events.size(); ++i) {
      const Event& e = r.events[i];
      std::optional<Movement> mv = movement_of(r, e);
      if (!mv) continue;
      mv->site = site_hash(r, e);
      mv->t_read = e.t_enter_ns;
      mv->t_write = e.t_exit_ns != 0 ? e.t_exit_ns : e.t_enter_ns;
      mv->ref = make_ref(r.rank, i);
      out.moves.push_back(std::move(*mv));
      out.recv_refs.push_back(SIZE_MAX);
    }
  }
}

}  // namespace

RunMovements run_movements(const trace::RunTrace& run, const fs::path& run_dir) {
  RunMovements out;
  trace::Matching matching = trace::match_messages(run);
  std::vector<Query> queries;
  auto& moves = out.moves;
  moves.reserve(matching.messages.size() + matching.unmatched_sends.size());

  for (const trace::MatchedMessage& m : matching.messages) {
    const trace::RankTrace& sr = run.ranks[m.send.rank];
    const trace::RankTrace& rr = run.ranks[m.recv_post.rank];
    const Event& s = sr.events[m.send.index];
    const Event& rp = rr.events[m.recv_post.index];
    const Event& rd = rr.events[m.recv_done.index];
    Movement mv;
    mv.kind = OpKind::Net;
    mv.site = mix(site_hash(sr, s), site_hash(rr, rp));
    std::uint64_t len = static_cast<std::uint64_t>(std::max<std::int64_t>(m.bytes, 0));
    mv.src = typed_range(sr, s.dtype, s.count, s.buffer, std::max<std::uint64_t>(len, 1));
    std::uint64_t got = rd.status_bytes > 0 ? static_cast<std::uint64_t>(rd.status_bytes) : len;
    // A derived receive type's span is the whole posted count's (how many
    // elements arrived is not recorded per element).
    mv.dst = typed_range(rr, rp.dtype, rp.count, rp.buffer, std::max<std::uint64_t>(got, 1));
    mv.t_read = s.t_enter_ns;
    mv.t_write = rd.t_exit_ns != 0 ? rd.t_exit_ns : rd.t_enter_ns;
    mv.ref = make_ref(m.send.rank, m.send.index);
    moves.push_back(mv);
    out.recv_refs.push_back(make_ref(m.recv_post.rank, m.recv_post.index));
  }
  for (const trace::EventRef& ref : matching.unmatched_sends) {
    const trace::RankTrace& sr = run.ranks[ref.rank];
    const Event& s = sr.events[ref.index];
    if (s.peer < 0) continue;  // PROC_NULL: no data moves
    Movement mv;
    mv.kind = OpKind::Net;
    mv.site = mix(site_hash(sr, s), 0);
    mv.src = BufferRange{ref.rank, s.buffer, static_cast<std::uint64_t>(std::max<std::int64_t>(s.bytes, 1)), 0};
    mv.t_read = s.t_enter_ns;
    mv.ref = make_ref(ref.rank, ref.index);
    moves.push_back(mv);
    out.recv_refs.push_back(SIZE_MAX);
  }
  // Collectives: this rank's contribution leaves its send buffer and the
  // result lands in its receive buffer (format 2's rbuffer; the same buffer
  // for MPI_IN_PLACE). Without a receive side a chain ends there.
  add_local_moves(run, out, [](const trace::RankTrace& r, const Event& e) -> std::optional<Movement> {
    auto cls = static_cast<OpClass>(e.op_class);
    if ((cls != OpClass::Collective && cls != OpClass::Icollective) || e.error != 0) return std::nullopt;
    if ((e.flags & trace::kFlagChild) != 0) return std::nullopt;
    Movement mv;
    mv.kind = OpKind::Coll;
    if (e.buffer != 0 && e.bytes > 0) mv.src = BufferRange{r.rank, e.buffer, static_cast<std::uint64_t>(e.bytes), 0};
    std::uint64_t rbuf = (e.flags & trace::kFlagInPlace) != 0 ? e.buffer : e.rbuffer;
    std::int64_t rbytes = 0;
    if (const trace::TypeEntry* t = trace::find_type(r, e.rdtype); t != nullptr && e.rcount_arg > 0)
      rbytes = t->size * e.rcount_arg;
    if (rbuf != 0 && rbytes > 0) mv.dst = BufferRange{r.rank, rbuf, static_cast<std::uint64_t>(rbytes), 0};
    if (mv.src.rank < 0 && mv.dst.rank < 0) return std::nullopt;
    return mv;
  });

  // MPI_Pack / MPI_Unpack: buffer is what was read, rbuffer what was written
  // (the packed side at the position the call started from). The typed side
  // is typed_range's.
  add_local_moves(run, out, [](const trace::RankTrace& r, const Event& e) -> std::optional<Movement> {
    auto cls = static_cast<OpClass>(e.op_class);
    if ((cls != OpClass::Pack && cls != OpClass::Unpack) || e.error != 0 || e.t_exit_ns == 0 || e.bytes <= 0)
      return std::nullopt;
    const bool packing = cls == OpClass::Pack;
    BufferRange typed = typed_range(r, e.dtype, e.count, packing ? e.buffer : e.rbuffer, static_cast<std::uint64_t>(e.bytes));
    BufferRange packed{r.rank, packing ? e.rbuffer : e.buffer, static_cast<std::uint64_t>(e.bytes), 0};
    Movement mv;
    mv.kind = packing ? OpKind::Pack : OpKind::Unpack;
    mv.src = packing ? typed : packed;
    mv.dst = packing ? packed : typed;
    mv.segments = pack_segments(r, e);
    return mv;
  });

  // Allocation sites: one sweep per rank over its heap-block log.
  for (Movement& mv : moves) {
    if (mv.src.rank >= 0) queries.push_back({mv.t_read, mv.src.rank, mv.src.addr, &mv.src});
    if (mv.dst.rank >= 0) queries.push_back({mv.t_write, mv.dst.rank, mv.dst.addr, &mv.dst});
  }
  std::stable_sort(queries.begin(), queries.end(), [](const Query& a, const Query& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.t < b.t;
  });
  std::map<std::uint64_t, RunMovements::AllocSite> seen;
  std::size_t q = 0;
  while (q < queries.size()) {
    int rank = queries[q].rank;
    std::vector<trace::AllocRecord> log;
    std::vector<trace::ModuleSegment> segments;
    try {
      log = trace::read_allocs(run_dir, rank, &out.warnings);
      std::error_code ec;
      fs::path mods = run_dir / "ranks" / (std::to_string(rank) + ".modules");
      if (fs::exists(mods, ec)) segments = trace::read_modules(mods);
    } catch (const std::exception& e) {
      out.warnings.push_back(e.what());
    }
    out.heap_blocks += log.size();
    trace::HeapSweep sweep(std::move(log));
    AllocSiteKeys keys(segments);
    for (; q < queries.size() && queries[q].rank == rank; ++q) {
      trace::HeapSweep::Block b = sweep.at(queries[q].addr, queries[q].t);
      if (b.site == 0) continue;  // stack, globals or not a recorded block
      std::uint64_t key = keys.key(b.site);
      queries[q].range->alloc_site = key;
      queries[q].range->block = b.serial;
      seen.emplace(key, RunMovements::AllocSite{rank, b.site});
    }
  }
  out.alloc_sites.assign(seen.begin(), seen.end());
  return out;
}

}  // namespace scalefuzz::detectors::dmtracker
