// FileHeader construction and validation shared by the writer (injector, test
// writer) and every reader, so both sides agree on what a valid file is.
// Header-only and allocation-free: the injector calls it from MPI_Init.
#pragma once

#include <cstdint>
#include <cstring>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::trace {

// sizeof the record type that follows the header in a file of `kind`; 0 for
// an unknown kind.
constexpr std::uint32_t record_size_of(FileKind kind) {
  switch (kind) {
    case FileKind::Events: return sizeof(Event);
    case FileKind::CallSites: return sizeof(CallSite);
    case FileKind::Features: return sizeof(SiteFeature);
    case FileKind::Markov: return sizeof(MarkovEdge);
    case FileKind::Live: return sizeof(LiveState);
    case FileKind::Allocs: return sizeof(AllocRecord);
    case FileKind::PackedEvents: return sizeof(Event);  // the decoded record
    case FileKind::Decisions: return 1;                 // a byte stream of entries
  }
  return 0;
}

constexpr const char* file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::Events: return "events";
    case FileKind::CallSites: return "sites";
    case FileKind::Features: return "features";
    case FileKind::Markov: return "markov";
    case FileKind::Live: return "live";
    case FileKind::Allocs: return "allocs";
    case FileKind::PackedEvents: return "events";  // same file: packed in place at MPI_Finalize
    case FileKind::Decisions: return "decisions";
  }
  return "unknown";
}

// `run_id` may be null; it is truncated to 63 characters.
inline FileHeader make_header(FileKind kind, std::int32_t rank, std::int32_t world_size,
                              std::uint32_t record_size, std::uint64_t start_ns,
                              std::int64_t pid, const char* run_id) {
  FileHeader h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kMagic, sizeof h.magic);
  h.version = kFormatVersion;
  h.kind = static_cast<std::uint32_t>(kind);
  h.rank = rank;
  h.world_size = world_size;
  h.record_size = record_size;
  h.start_ns = start_ns;
  h.pid = pid;
  if (run_id != nullptr) {
    std::size_t n = std::strlen(run_id);
    if (n > sizeof h.run_id - 1) n = sizeof h.run_id - 1;
    std::memcpy(h.run_id, run_id, n);
  }
  return h;
}

// Why `h` is not a valid header of a `kind` file, or nullptr if it is.
// Checks magic, version, kind and record size (record_size_of(kind)).
inline const char* header_problem(const FileHeader& h, FileKind kind) {
  if (std::memcmp(h.magic, kMagic, sizeof h.magic) != 0) return "bad magic (not a scalefuzz trace file)";
  if (h.version < kOldestReadableVersion || h.version > kFormatVersion) return "unsupported format version";
  if (h.kind != static_cast<std::uint32_t>(kind)) return "wrong file kind";
  if (h.record_size != record_size_of(kind)) return "record size mismatch";
  if (h.world_size <= 0 || h.rank < 0 || h.rank >= h.world_size) return "rank/world size out of range";
  return nullptr;
}

// A header slot that was never written (file created and preallocated, then
// the process was killed before the header store): all bytes zero.
inline bool header_unwritten(const FileHeader& h) {
  const auto* p = reinterpret_cast<const unsigned char*>(&h);
  for (std::size_t i = 0; i < sizeof h; ++i)
    if (p[i] != 0) return false;
  return true;
}

}  // namespace scalefuzz::trace
