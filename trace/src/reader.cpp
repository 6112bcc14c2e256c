// Readers for the per-rank files (format.hpp). Every file is validated with
// header_problem(); a partially written tail is accepted with a warning.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "file_io.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/packed.hpp"

namespace scalefuzz::trace {

namespace {

namespace fs = std::filesystem;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

bool all_zero(const unsigned char* p, std::size_t n) {
  return std::all_of(p, p + n, [](unsigned char c) { return c == 0; });
}

// Throws TraceError naming the file and the reason when `h` is not a valid
// header of `kind` for `rank`.
void check_header(const fs::path& file, const FileHeader& h, FileKind kind, int rank) {
  const char* problem = header_problem(h, kind);
  if (problem == nullptr) {
    if (h.rank != rank)
      throw TraceError(file.string() + ": header is for rank " + std::to_string(h.rank) +
                       ", expected rank " + std::to_string(rank));
    return;
  }
  std::string detail;
  if ((h.version < kOldestReadableVersion || h.version > kFormatVersion) &&
      std::memcmp(h.magic, kMagic, sizeof kMagic) == 0)
    detail = " (file version " + std::to_string(h.version) + ", this reader reads versions " +
             std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + ")";
  else if (h.kind != static_cast<std::uint32_t>(kind))
    detail = " (file kind " + std::to_string(h.kind) + ", expected " +
             std::to_string(static_cast<std::uint32_t>(kind)) + " = " + file_kind_name(kind) + ")";
  else if (h.record_size != record_size_of(kind))
    detail = " (" + std::to_string(h.record_size) + " bytes per record, expected " +
             std::to_string(record_size_of(kind)) + ")";
  throw TraceError(file.string() + ": " + problem + detail);
}

// A validated file: header plus the whole records that follow it.
struct RecordFile {
  FileHeader header{};
  std::vector<unsigned char> bytes;
  std::size_t nrecords = 0;
  bool present = false;  // false: missing or never initialized (empty data)

  template <class T>
  T record(std::size_t i) const {
    T r;
    std::memcpy(&r, bytes.data() + sizeof(FileHeader) + i * sizeof(T), sizeof(T));
    return r;
  }
};

// Loads and validates run_dir/ranks/<rank>.<ext>. A missing file is an error
// only when `required`; otherwise it yields an absent RecordFile and a warning.
// With `header_only` (the events file, which read_events() streams) only the
// header is kept in `bytes`; nrecords still counts the whole file.
RecordFile load(const fs::path& run_dir, int rank, FileKind kind, bool required,
                std::vector<std::string>& warnings, bool header_only = false) {
  const char* name = file_kind_name(kind);
  fs::path file = detail::rank_file(run_dir, rank, name);
  RecordFile out;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    if (required) throw TraceError(file.string() + ": missing (rank " + std::to_string(rank) + " has other files)");
    warnings.push_back(std::string(name) + ": file missing, no data");
    return out;
  }
  std::uintmax_t file_size = 0;
  if (header_only) {
    out.bytes = detail::read_file_prefix(file, sizeof(FileHeader), file_size);
  } else {
    out.bytes = detail::read_file_bytes(file);
    file_size = out.bytes.size();
  }
  if (out.bytes.size() < sizeof(FileHeader)) {
    // Killed between creating the file and storing the header.
    if (!all_zero(out.bytes.data(), out.bytes.size()))
      throw TraceError(file.string() + ": truncated header (" + std::to_string(out.bytes.size()) + " bytes)");
    warnings.push_back(std::string(name) + ": file shorter than its header, no data");
    return out;
  }
  std::memcpy(&out.header, out.bytes.data(), sizeof(FileHeader));
  if (header_unwritten(out.header)) {
    warnings.push_back(std::string(name) + ": header never written, no data");
    return out;
  }
  // ranks/N.events is raw records while the rank runs and packed after MPI_Finalize.
  if (kind == FileKind::Events && out.header.kind == static_cast<std::uint32_t>(FileKind::PackedEvents) &&
      out.header.version >= 3)
    kind = FileKind::PackedEvents;
  check_header(file, out.header, kind, rank);
  if (kind == FileKind::PackedEvents) {
    out.present = true;
    return out;
  }
  std::size_t payload = static_cast<std::size_t>(file_size) - sizeof(FileHeader);
  std::size_t rec = record_size_of(kind);
  out.nrecords = payload / rec;
  std::size_t tail = payload % rec;
  // Preallocation in page-sized chunks leaves zero tails; only nonzero partial
  // bytes mean a record was cut (the streamed events file checks its tail there).
  if (!header_only && tail != 0 && !all_zero(out.bytes.data() + out.bytes.size() - tail, tail))
    warnings.push_back(std::string(name) + ": " + std::to_string(tail) + " trailing bytes ignored");
  out.present = true;
  return out;
}

void read_capped_note(const fs::path& run_dir, RankTrace& rt);
void mark_last_call(RankTrace& rt);

// Streams a packed events file block by block (packed.hpp): memory is the
// events kept plus one block. A malformed block ends the trace with a warning.
void read_packed_events(const fs::path& file, RankTrace& rt) {
  detail::RecordStream in(file, sizeof(FileHeader), 1);
  std::vector<unsigned char> payload;
  packed::ContextTable context;
  for (std::size_t block = 0;; ++block) {
    packed::BlockHeader h{};
    std::size_t got = in.read(&h, sizeof h);
    if (got == 0) break;
    std::string problem;
    if (got < sizeof h)
      problem = "block header cut after " + std::to_string(got) + " bytes";
    else if (h.magic != packed::kBlockMagic)
      problem = "bad block magic";
    else if (h.nevents == 0 || h.nevents > packed::kMaxBlockEvents)
      problem = "block of " + std::to_string(h.nevents) + " records";
    else if (h.payload_bytes > std::size_t{h.nevents} * packed::kMaxRecordBytes)
      problem = "block payload of " + std::to_string(h.payload_bytes) + " bytes for " + std::to_string(h.nevents) +
                " records";
    if (problem.empty()) {
      payload.resize(h.payload_bytes);
      if (in.read(payload.data(), payload.size()) != payload.size())
        problem = "block payload cut";
      else if (packed::fnv1a(payload.data(), payload.size()) != h.checksum)
        problem = "block checksum mismatch";
      else if (const char* why = packed::decode_block(payload.data(), payload.size(), h.nevents,
                                                      rt.events.size() + 1, rt.events, context))
        problem = why;
    }
    if (!problem.empty()) {
      rt.warnings.push_back("events: packed block " + std::to_string(block) + " (after record " +
                            std::to_string(rt.events.size()) + ") is malformed: " + problem + "; trace cut there");
      break;
    }
  }
}

// Streams the events file in blocks: memory is the events kept, not twice
// the file.
void read_events(const fs::path& run_dir, const RecordFile& f, RankTrace& rt) {
  fs::path file = detail::rank_file(run_dir, rt.rank, "events");
  if (f.header.kind == static_cast<std::uint32_t>(FileKind::PackedEvents)) {
    read_packed_events(file, rt);
    read_capped_note(run_dir, rt);
    mark_last_call(rt);
    return;
  }
  detail::RecordStream in(file, sizeof(FileHeader), sizeof(Event));
  rt.events.reserve(f.nrecords);
  constexpr std::size_t kBlock = 4096;
  std::vector<Event> block(kBlock);
  std::size_t i = 0;
  bool cut = false;
  while (!cut) {
    std::size_t n = in.read(block.data(), kBlock);
    for (std::size_t k = 0; k < n; ++k, ++i) {
      const Event& e = block[k];
      if (e.seq != i + 1) {
        // seq 0: never written or being written (seq is stored last) -> normal end.
        if (e.seq != 0)
          rt.warnings.push_back("events: record " + std::to_string(i) + " has seq " + std::to_string(e.seq) +
                                ", expected " + std::to_string(i + 1) + "; trace cut there");
        cut = true;
        break;
      }
      rt.events.push_back(e);
    }
    if (n < kBlock) break;
  }
  if (!cut && in.partial_tail_nonzero())
    rt.warnings.push_back("events: " + std::to_string(in.tail_bytes()) + " trailing bytes ignored");
  read_capped_note(run_dir, rt);
  mark_last_call(rt);
}

// ranks/N.capped: the trace size cap note.
void read_capped_note(const fs::path& run_dir, RankTrace& rt) {
  std::error_code ec;
  fs::path note = detail::rank_file(run_dir, rt.rank, "capped");
  if (fs::exists(note, ec)) {
    rt.events_capped = true;
    std::uintmax_t size = 0;
    std::vector<unsigned char> bytes = detail::read_file_prefix(note, 512, size);
    std::string text(bytes.begin(), bytes.end());
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
    rt.warnings.push_back(text.empty() ? "events: size cap reached; later calls are not in the trace" : text);
  }
}

// last_event_in_progress, and a warning for unfinished records before the last call.
void mark_last_call(RankTrace& rt) {
  if (rt.events.empty()) return;
  // The final group: the last non-child record and the children that follow it.
  std::size_t group = rt.events.size() - 1;
  while (group > 0 && (rt.events[group].flags & kFlagChild) != 0) --group;
  rt.last_event_in_progress = rt.events.back().t_exit_ns == 0 || rt.events[group].t_exit_ns == 0;
  std::size_t stray = 0;
  for (std::size_t i = 0; i < group; ++i)
    if (rt.events[i].t_exit_ns == 0) ++stray;
  if (stray != 0)  // possible with MPI_THREAD_MULTIPLE, or a writer bug
    rt.warnings.push_back("events: " + std::to_string(stray) +
                          " records before the last call never returned");
}

void read_sites(const RecordFile& f, RankTrace& rt) {
  for (std::size_t i = 0; i < f.nrecords; ++i) {
    CallSite c = f.record<CallSite>(i);
    if (c.nframes == 0 && c.stable_hash == 0) break;  // unwritten slot (see format.hpp)
    if (c.id != i || c.nframes > kMaxFrames) {
      rt.warnings.push_back("sites: slot " + std::to_string(i) + " is corrupt (id " + std::to_string(c.id) +
                            ", " + std::to_string(c.nframes) + " frames); table cut there");
      break;
    }
    CallSiteInfo info;
    info.id = c.id;
    info.stable_hash = c.stable_hash;
    info.op = c.op;
    info.frames.assign(c.frames, c.frames + c.nframes);
    rt.sites.push_back(std::move(info));
  }
}

void read_features(const RecordFile& f, RankTrace& rt, bool sites_known) {
  for (std::size_t i = 0; i < f.nrecords; ++i) rt.features.push_back(f.record<SiteFeature>(i));
  auto is_zero = [](const SiteFeature& s) { return s.calls == 0 && s.bytes_sent == 0 && s.bytes_received == 0; };
  if (sites_known) {
    std::size_t beyond = 0;
    for (std::size_t i = rt.sites.size(); i < rt.features.size(); ++i)
      if (!is_zero(rt.features[i])) ++beyond;
    if (beyond != 0)  // the site record was not stored yet when the rank stopped
      rt.warnings.push_back("features: " + std::to_string(beyond) + " entries beyond the call-site table ignored");
    rt.features.resize(rt.sites.size());
  } else {
    while (!rt.features.empty() && is_zero(rt.features.back())) rt.features.pop_back();
  }
}

void read_markov(const RecordFile& f, RankTrace& rt) {
  for (std::size_t i = 0; i < f.nrecords; ++i) {
    MarkovEdge e = f.record<MarkovEdge>(i);
    if (e.count == 0) continue;  // empty slot
    rt.markov.edges.push_back({e.from, e.to, e.count, e.total_ns});
  }
  std::sort(rt.markov.edges.begin(), rt.markov.edges.end(),
            [](const auto& a, const auto& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
}

// Seqlock read of the live record, straight from a shared mapping so a
// concurrently writing (or frozen) rank is read the way it writes.
void read_live(const fs::path& run_dir, RankTrace& rt) {
  fs::path file = detail::rank_file(run_dir, rt.rank, "live");
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    rt.warnings.push_back("live: file missing, no data");
    return;
  }
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw TraceError(file.string() + ": cannot open: " + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw TraceError(file.string() + ": cannot stat: " + std::strerror(errno));
  }
  constexpr std::size_t kNeeded = sizeof(FileHeader) + sizeof(LiveState);
  if (static_cast<std::size_t>(st.st_size) < kNeeded) {
    ::close(fd);
    rt.warnings.push_back("live: file too short (" + std::to_string(st.st_size) + " bytes), no data");
    return;
  }
  void* map = ::mmap(nullptr, kNeeded, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw TraceError(file.string() + ": mmap failed: " + std::strerror(errno));
  struct Unmap {
    void* p;
    ~Unmap() { ::munmap(p, kNeeded); }
  } unmap{map};
  const auto* base = static_cast<const unsigned char*>(map);
  FileHeader h;
  std::memcpy(&h, base, sizeof h);
  if (header_unwritten(h)) {
    rt.warnings.push_back("live: header never written, no data");
    return;
  }
  check_header(file, h, FileKind::Live, rt.rank);

  const unsigned char* state = base + sizeof(FileHeader);
  const auto* version = reinterpret_cast<const std::uint64_t*>(state);
  LiveState copy;
  // Spin first (an update takes well under a microsecond), then sleep in case
  // the writer was descheduled mid-update; a dead writer with an odd version
  // costs ~20 ms.
  constexpr int kSpins = 4000, kSleeps = 100;
  constexpr std::size_t kFixed = offsetof(LiveState, pending);
  std::uint64_t v1 = 0, v2 = 0;
  for (int attempt = 0; attempt < kSpins + kSleeps; ++attempt) {
    v1 = __atomic_load_n(version, __ATOMIC_ACQUIRE);
    // Copy only the used pending entries: a short copy fits between the
    // updates of a rank that calls MPI in a tight loop.
    std::memcpy(&copy, state, kFixed);
    std::uint32_t n = std::min<std::uint32_t>(copy.npending, kMaxPendingRequests);
    std::memcpy(copy.pending, state + kFixed, n * sizeof(PendingRequest));
    std::atomic_thread_fence(std::memory_order_acquire);
    v2 = __atomic_load_n(version, __ATOMIC_RELAXED);
    if (v1 == v2 && (v1 & 1u) == 0) {
      copy.version = v1;
      break;
    }
    if (attempt < kSpins)
      cpu_relax();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  // Slots beyond npending were not copied: leave them zero.
  std::uint32_t used = std::min<std::uint32_t>(copy.npending, kMaxPendingRequests);
  std::memset(copy.pending + used, 0, (kMaxPendingRequests - used) * sizeof(PendingRequest));
  if (v1 != v2 || (v1 & 1u) != 0)
    rt.warnings.push_back("live: torn read (version " + std::to_string(v1) + "/" + std::to_string(v2) +
                          " odd or changing after retries; writer stopped mid-update?)");
  if (copy.npending > kMaxPendingRequests) {
    rt.warnings.push_back("live: npending " + std::to_string(copy.npending) + " clamped to " +
                          std::to_string(kMaxPendingRequests));
    copy.npending = kMaxPendingRequests;
  }
  rt.live = copy;
}

// ranks/N.types and ranks/N.errors (format 2, text; see format.hpp). A
// malformed line (a torn write at a crash) is skipped with a warning.
void read_usage_files(const fs::path& run_dir, RankTrace& rt) {
  const std::string base = (run_dir / "ranks" / std::to_string(rt.rank)).string();
  std::ifstream types(base + ".types");
  std::string line;
  for (int n = 1; std::getline(types, line); ++n) {
    std::istringstream in(line);
    TypeEntry t;
    int committed = 0, predefined = 0, nruns = 0;
    in >> std::hex >> t.key >> std::dec >> t.size >> t.extent >> t.lb >> committed >> predefined >> t.name >> std::hex >>
        t.signature_hash >> std::dec >> nruns;
    if (!in) {
      rt.warnings.push_back("types: line " + std::to_string(n) + " malformed, skipped");
      continue;
    }
    t.predefined = predefined != 0;
    t.signature_known = nruns >= 0;
    for (int i = 0; i < nruns; ++i) {
      std::string run;
      in >> run;
      auto colon = run.find(':');
      if (!in || colon == std::string::npos) {
        t.signature_known = false;
        break;
      }
      t.runs.emplace_back(static_cast<std::uint32_t>(std::stoul(run.substr(0, colon), nullptr, 16)),
                          std::stoull(run.substr(colon + 1)));
    }
    std::string word;
    int nmap = -1;
    if (in >> word && word == "map" && in >> nmap && nmap >= 0 && nmap <= 64) {
      t.map_known = true;
      for (int i = 0; i < nmap && t.map_known; ++i) {
        std::string entry;
        auto at = std::string::npos;
        if (!(in >> entry) || (at = entry.find('@')) == std::string::npos) {
          t.map_known = false;
          break;
        }
        try {
          t.map.emplace_back(static_cast<std::uint32_t>(std::stoul(entry.substr(0, at), nullptr, 16)),
                             std::stoll(entry.substr(at + 1)));
        } catch (const std::exception&) {
          t.map_known = false;
        }
      }
      if (!t.map_known) t.map.clear();
    }
    rt.types.push_back(std::move(t));
  }
  std::ifstream errors(base + ".errors");
  for (int n = 1; std::getline(errors, line); ++n) {
    std::istringstream in(line);
    RecordedError e;
    in >> e.seq >> e.code >> e.error_class;
    if (!in) {
      rt.warnings.push_back("errors: line " + std::to_string(n) + " malformed, skipped");
      continue;
    }
    std::getline(in >> std::ws, e.message);
    rt.errors.push_back(std::move(e));
  }
  rt.exited_without_finalize = fs::exists(base + ".exit");
  std::ifstream sig(base + ".signal");
  if (std::getline(sig, line)) {
    std::istringstream in(line);
    FatalSignal fs;
    int in_call = 0;
    in >> fs.signal >> fs.seq >> in_call;
    if (in && fs.signal > 0) {
      fs.in_call = in_call != 0;
      std::string hex;
      while (in >> hex) fs.frames.push_back(std::stoull(hex, nullptr, 16));
      rt.fatal_signal = std::move(fs);
    } else {
      rt.warnings.push_back("signal: malformed, ignored");
    }
  }
}

RankTrace read_rank_impl(const fs::path& run_dir, int rank, std::string* run_id) {
  RankTrace rt;
  rt.rank = rank;
  RecordFile ev = load(run_dir, rank, FileKind::Events, true, rt.warnings, true);
  if (ev.present) {
    rt.world_size = ev.header.world_size;
    rt.pid = ev.header.pid;
    rt.start_ns = ev.header.start_ns;
    if (run_id != nullptr) *run_id = std::string(ev.header.run_id, strnlen(ev.header.run_id, sizeof ev.header.run_id));
    read_events(run_dir, ev, rt);
  }
  RecordFile sites = load(run_dir, rank, FileKind::CallSites, false, rt.warnings);
  if (sites.present) read_sites(sites, rt);
  RecordFile feats = load(run_dir, rank, FileKind::Features, false, rt.warnings);
  if (feats.present) read_features(feats, rt, sites.present);
  RecordFile markov = load(run_dir, rank, FileKind::Markov, false, rt.warnings);
  if (markov.present) read_markov(markov, rt);
  read_live(run_dir, rt);
  read_usage_files(run_dir, rt);
  index_types(rt);
  if (rt.world_size == 0) {  // events header unwritten: take it from another file
    for (const RecordFile* f : {&sites, &feats, &markov})
      if (f->present) {
        rt.world_size = f->header.world_size;
        rt.pid = f->header.pid;
        rt.start_ns = f->header.start_ns;
        break;
      }
  }
  return rt;
}

}  // namespace

RankTrace read_rank(const fs::path& run_dir, int rank) { return read_rank_impl(run_dir, rank, nullptr); }

void index_types(RankTrace& rank) {
  rank.type_index.clear();
  rank.type_index.reserve(rank.types.size());
  for (std::size_t i = 0; i < rank.types.size(); ++i) rank.type_index[rank.types[i].key] = i;  // later lines win
  rank.types_indexed = rank.types.size();
}

const TypeEntry* find_type(const RankTrace& rank, std::uint32_t key) {
  if (rank.types_indexed == rank.types.size() && !rank.types.empty()) {
    const auto it = rank.type_index.find(key);
    return it == rank.type_index.end() ? nullptr : &rank.types[it->second];
  }
  // Later lines win: a predefined key is described once, derived keys are unique.
  for (auto it = rank.types.rbegin(); it != rank.types.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

RunTrace read_run(const fs::path& run_dir) {
  fs::path dir = run_dir / "ranks";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw TraceError(dir.string() + ": not a directory (no per-rank trace files)");
  std::vector<int> found;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    int rank = -1;
    auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), rank);
    if (err != std::errc() || end == name.data() || *end != '.' || rank < 0) continue;
    std::string ext = name.substr(static_cast<std::size_t>(end - name.data()) + 1);
    if (ext == "events" || ext == "sites" || ext == "features" || ext == "markov" || ext == "live" || ext == "modules")
      found.push_back(rank);
  }
  if (ec) throw TraceError(dir.string() + ": cannot list: " + ec.message());
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());

  RunTrace run;
  std::vector<RankTrace> loaded;
  int world = 0;
  for (int r : found) {
    std::string id;
    loaded.push_back(read_rank_impl(run_dir, r, &id));
    if (run.run_id.empty()) run.run_id = id;
    world = std::max({world, loaded.back().world_size, r + 1});
  }
  run.ranks.resize(static_cast<std::size_t>(world));  // unlisted ranks keep rank == -1
  for (auto& rt : loaded) {
    std::size_t r = static_cast<std::size_t>(rt.rank);
    run.ranks[r] = std::move(rt);
  }
  return run;
}

}  // namespace scalefuzz::trace
