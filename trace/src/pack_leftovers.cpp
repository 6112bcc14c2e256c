// Packs what ranks that never returned from MPI_Finalize left raw (see
// writer.hpp): the injector packs its own files only there.
#include <charconv>
#include <cstring>
#include <optional>
#include <system_error>

#include "file_io.hpp"
#include "scalefuzz/trace/decisions.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/packed.hpp"
#include "scalefuzz/trace/writer.hpp"

namespace scalefuzz::trace {

namespace {

namespace fs = std::filesystem;

std::uintmax_t size_of(const fs::path& file) {
  std::error_code ec;
  auto n = fs::file_size(file, ec);
  return ec ? 0 : n;
}

// The header of `file` if it exists and is a valid one of `kind` for `rank`.
std::optional<FileHeader> header_of(const fs::path& file, FileKind kind, int rank) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  std::uintmax_t size = 0;
  auto bytes = detail::read_file_prefix(file, sizeof(FileHeader), size);
  if (bytes.size() < sizeof(FileHeader)) return std::nullopt;
  FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (header_unwritten(h) || header_problem(h, kind) != nullptr || h.rank != rank) return std::nullopt;
  return h;
}

// Reads `in`'s records in blocks and calls `take(record)` on each until it
// returns false. Returns whether `take` stopped it (false: all were read).
template <typename Record, typename Take>
bool read_records_until(detail::RecordStream& in, Take take) {
  constexpr std::size_t kBlock = 4096;
  std::vector<Record> block(kBlock);
  for (;;) {
    const std::size_t n = in.read(block.data(), kBlock);
    for (std::size_t k = 0; k < n; ++k)
      if (!take(block[k])) return true;
    if (n < kBlock) return false;
  }
}

// Raw events -> packed, up to the last complete record (where read_rank
// stops). Returns "" or why the file is left raw.
std::string pack_events(const fs::path& file, const FileHeader& raw_header) {
  FileHeader h = raw_header;
  h.kind = static_cast<std::uint32_t>(FileKind::PackedEvents);
  h.version = kFormatVersion;
  detail::ReplacementFile out(file);
  out.write(&h, sizeof h);
  auto sink = [&](const void* p, std::size_t n) {
    out.write(p, n);
    return true;
  };
  packed::Encoder encoder;
  detail::RecordStream in(file, sizeof(FileHeader), sizeof(Event));
  std::uint64_t next_seq = 1;
  std::string damage;
  const bool stopped = read_records_until<Event>(in, [&](const Event& e) {
    if (e.seq == next_seq) {
      encoder.add(e, sink);
      ++next_seq;
      return true;
    }
    // seq 0: never written, or being written when the rank stopped: the
    // end of the trace. Any other value is damage that read_rank reports.
    if (e.seq != 0) damage = "record " + std::to_string(next_seq - 1) + " is out of sequence (readers report it)";
    return false;
  });
  if (!damage.empty()) return damage;
  if (!stopped && in.partial_tail_nonzero()) return "a record is cut (readers report it)";
  encoder.finish(sink);
  out.commit();
  return "";
}

// The Markov file's open-addressing table -> its used edges (what the
// injector keeps at MPI_Finalize; readers skip empty slots either way).
void compact_markov(const fs::path& file) {
  auto bytes = detail::read_file_bytes(file);
  const std::size_t n = (bytes.size() - sizeof(FileHeader)) / sizeof(MarkovEdge);
  std::vector<unsigned char> kept(bytes.begin(), bytes.begin() + sizeof(FileHeader));
  bool dropped = false;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* r = bytes.data() + sizeof(FileHeader) + i * sizeof(MarkovEdge);
    MarkovEdge e;
    std::memcpy(&e, r, sizeof e);
    if (e.count == 0) {
      dropped = true;
      continue;
    }
    kept.insert(kept.end(), r, r + sizeof e);
  }
  if (dropped || bytes.size() != kept.size()) detail::write_file_bytes(file, kept.data(), kept.size());
}

// Truncates a file to `bytes` when it is longer (ftruncate is atomic).
void cut_to(const fs::path& file, std::uintmax_t bytes) {
  if (size_of(file) <= bytes) return;
  std::error_code ec;
  fs::resize_file(file, bytes, ec);
  if (ec) throw TraceError(file.string() + ": cannot truncate: " + ec.message());
}

// Cuts the preallocated, never written call-site slots (and the feature
// slots past the last site): ftruncate is atomic, and only slots that
// read_rank skips go.
void cut_unwritten_sites(const fs::path& sites_file, const fs::path& features_file, bool features_ok) {
  auto bytes = detail::read_file_bytes(sites_file);
  const std::size_t n = (bytes.size() - sizeof(FileHeader)) / sizeof(CallSite);
  std::size_t used = 0;
  for (; used < n; ++used) {
    CallSite c;
    std::memcpy(&c, bytes.data() + sizeof(FileHeader) + used * sizeof(CallSite), sizeof c);
    if (c.nframes == 0 && c.stable_hash == 0) break;  // first unwritten slot: readers stop here
  }
  cut_to(sites_file, sizeof(FileHeader) + used * sizeof(CallSite));
  if (features_ok) cut_to(features_file, sizeof(FileHeader) + used * sizeof(SiteFeature));
}

// The allocation log (ranks/N.allocs, injectors/alloc): the records up to
// the first never completed one (t_ns == 0, where read_allocs stops); the
// preallocated rest (160 MiB apparent) is cut.
void cut_unwritten_allocs(const fs::path& file) {
  detail::RecordStream in(file, sizeof(FileHeader), sizeof(AllocRecord));
  std::uintmax_t used = 0;
  read_records_until<AllocRecord>(in, [&](const AllocRecord& a) {
    if (a.t_ns == 0) return false;
    ++used;
    return true;
  });
  cut_to(file, sizeof(FileHeader) + used * sizeof(AllocRecord));
}

// The decision log (ranks/N.decisions): its entries up to the first
// unwritten byte (where decode_entry says Done); the preallocated rest
// (16 MiB apparent) is cut. A damaged stream is left for readers to report.
void cut_unwritten_decisions(const fs::path& file) {
  auto bytes = detail::read_file_bytes(file);
  const std::size_t stream = sizeof(FileHeader) + sizeof(DecisionPreamble);
  if (bytes.size() <= stream) return;
  const std::uint8_t* p = bytes.data() + stream;
  const std::uint8_t* end = bytes.data() + bytes.size();
  DecisionCursor cursor;
  RawDecision d;
  DecodeStatus status;
  while ((status = decode_entry(p, end, cursor, d)) == DecodeStatus::Ok) {
  }
  if (status == DecodeStatus::Done) cut_to(file, static_cast<std::uintmax_t>(p - bytes.data()));
}

}  // namespace

LeftoverPacking pack_leftover_files(const fs::path& run_dir) {
  LeftoverPacking result;
  const fs::path ranks = run_dir / "ranks";
  std::error_code ec;
  if (!fs::is_directory(ranks, ec)) return result;
  std::vector<int> raw_ranks;
  for (const auto& entry : fs::directory_iterator(ranks, ec)) {
    const std::string name = entry.path().filename().string();
    const auto dot = name.find('.');
    if (dot == std::string::npos || name.substr(dot) != ".events") continue;
    int rank = -1;
    auto [end, err] = std::from_chars(name.data(), name.data() + dot, rank);
    if (err != std::errc() || end != name.data() + dot || rank < 0) continue;
    raw_ranks.push_back(rank);
  }
  for (int rank : raw_ranks) {
    const fs::path events = detail::rank_file(run_dir, rank, "events");
    try {
      auto h = header_of(events, FileKind::Events, rank);
      if (!h) continue;  // packed already (a rank that finalized), or nothing readable to pack
      const fs::path markov = detail::rank_file(run_dir, rank, "markov");
      const fs::path sites = detail::rank_file(run_dir, rank, "sites");
      const fs::path features = detail::rank_file(run_dir, rank, "features");
      const fs::path allocs = detail::rank_file(run_dir, rank, "allocs");
      const fs::path decisions = detail::rank_file(run_dir, rank, "decisions");
      for (const auto& f : {events, markov, sites, features, allocs, decisions}) result.bytes_before += size_of(f);
      // The events file last: while it is raw, a pass killed half-way is
      // redone whole by the next one.
      if (header_of(sites, FileKind::CallSites, rank))
        cut_unwritten_sites(sites, features, header_of(features, FileKind::Features, rank).has_value());
      if (header_of(markov, FileKind::Markov, rank)) compact_markov(markov);
      if (header_of(allocs, FileKind::Allocs, rank)) cut_unwritten_allocs(allocs);
      if (header_of(decisions, FileKind::Decisions, rank)) cut_unwritten_decisions(decisions);
      if (std::string why = pack_events(events, *h); !why.empty())
        result.kept_raw.push_back(events.filename().string() + ": " + why);
      else
        ++result.ranks_packed;
      for (const auto& f : {events, markov, sites, features, allocs, decisions}) result.bytes_after += size_of(f);
    } catch (const std::exception& e) {
      result.kept_raw.push_back(std::string("rank ") + std::to_string(rank) + ": " + e.what());
    }
  }
  return result;
}

}  // namespace scalefuzz::trace
