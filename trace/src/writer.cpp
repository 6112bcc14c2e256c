// Writes a RankTrace in the on-disk format. Used by tests and tools; the
// injector writes the same layout through mmap.
#include "scalefuzz/trace/writer.hpp"

#include <algorithm>
#include <cstring>
#include <system_error>

#include "file_io.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/packed.hpp"

namespace scalefuzz::trace {

namespace {

namespace fs = std::filesystem;

template <class T>
void write_records(const fs::path& run_dir, const RankTrace& rt, const std::string& run_id, FileKind kind,
                   const std::vector<T>& records) {
  FileHeader h = make_header(kind, rt.rank, rt.world_size, sizeof(T), rt.start_ns, rt.pid, run_id.c_str());
  std::vector<unsigned char> bytes(sizeof h + records.size() * sizeof(T));
  std::memcpy(bytes.data(), &h, sizeof h);
  if (!records.empty()) std::memcpy(bytes.data() + sizeof h, records.data(), records.size() * sizeof(T));
  detail::write_file_bytes(detail::rank_file(run_dir, rt.rank, file_kind_name(kind)), bytes.data(), bytes.size());
}

void write_packed_events(const fs::path& run_dir, const RankTrace& rt, const std::string& run_id) {
  FileHeader h = make_header(FileKind::PackedEvents, rt.rank, rt.world_size, sizeof(Event), rt.start_ns, rt.pid,
                             run_id.c_str());
  std::vector<unsigned char> bytes(sizeof h);
  std::memcpy(bytes.data(), &h, sizeof h);
  auto sink = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    bytes.insert(bytes.end(), b, b + n);
    return true;
  };
  packed::Encoder enc;
  for (std::size_t i = 0; i < rt.events.size(); ++i) {
    if (rt.events[i].seq != i + 1)
      throw TraceError("write_rank: packed events must be numbered 1, 2, 3 ...: event " + std::to_string(i) +
                       " has seq " + std::to_string(rt.events[i].seq));
    enc.add(rt.events[i], sink);
  }
  enc.finish(sink);
  detail::write_file_bytes(detail::rank_file(run_dir, rt.rank, "events"), bytes.data(), bytes.size());
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Open-addressing table with linear probing at load <= 1/2, as the injector
// keeps it; readers only rely on "count == 0 is an empty slot".
std::vector<MarkovEdge> markov_table(const MarkovModel& m) {
  std::size_t cap = 8;
  while (cap < 2 * m.edges.size()) cap *= 2;
  std::vector<MarkovEdge> table(cap);
  for (const auto& e : m.edges) {
    if (e.count == 0) continue;  // would read back as an empty slot
    std::size_t i = mix((std::uint64_t{e.from} << 32) | e.to) & (cap - 1);
    while (table[i].count != 0) i = (i + 1) & (cap - 1);
    table[i] = MarkovEdge{e.from, e.to, e.count, e.total_ns};
  }
  return table;
}

}  // namespace

void write_rank(const fs::path& run_dir, const RankTrace& rt, const std::string& run_id, Encoding encoding) {
  if (rt.world_size <= 0 || rt.rank < 0 || rt.rank >= rt.world_size)
    throw TraceError("write_rank: rank " + std::to_string(rt.rank) + " outside world of size " +
                     std::to_string(rt.world_size));
  std::error_code ec;
  fs::create_directories(run_dir / "ranks", ec);
  if (ec) throw TraceError((run_dir / "ranks").string() + ": cannot create: " + ec.message());

  if (encoding == Encoding::Packed)
    write_packed_events(run_dir, rt, run_id);
  else
    write_records(run_dir, rt, run_id, FileKind::Events, rt.events);

  std::vector<CallSite> sites;
  for (const auto& s : rt.sites) {
    CallSite c;
    std::memset(&c, 0, sizeof c);
    c.id = s.id;
    c.nframes = static_cast<std::uint32_t>(std::min(s.frames.size(), kMaxFrames));
    c.stable_hash = s.stable_hash;
    c.op = s.op;
    std::copy_n(s.frames.begin(), c.nframes, c.frames);
    sites.push_back(c);
  }
  write_records(run_dir, rt, run_id, FileKind::CallSites, sites);
  write_records(run_dir, rt, run_id, FileKind::Features, rt.features);
  if (encoding == Encoding::Packed) {
    std::vector<MarkovEdge> dense;
    for (const auto& e : rt.markov.edges)
      if (e.count != 0) dense.push_back(MarkovEdge{e.from, e.to, e.count, e.total_ns});
    write_records(run_dir, rt, run_id, FileKind::Markov, dense);
  } else {
    write_records(run_dir, rt, run_id, FileKind::Markov, markov_table(rt.markov));
  }
  if (rt.live) write_records(run_dir, rt, run_id, FileKind::Live, std::vector<LiveState>{*rt.live});
}

}  // namespace scalefuzz::trace
