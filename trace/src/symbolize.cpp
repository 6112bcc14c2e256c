// Symbolization of call-site frames: module map lookup, then each module's
// DWARF read in-process with elfutils' libdw (dwarf_module.cpp); a Symbolizer
// opens each module once and looks each address up once.
#include "scalefuzz/trace/symbolize.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <link.h>
#include <map>
#include <sstream>

#include "dwarf_module.hpp"
#include "file_io.hpp"

namespace scalefuzz::trace {

namespace {

namespace fs = std::filesystem;

bool parse_hex(std::string_view s, std::uint64_t& out) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return false;
  auto [end, err] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return err == std::errc() && end == s.data() + s.size();
}

std::string hex(std::uint64_t v) {
  char buf[24];
  auto [end, err] = std::to_chars(buf, buf + sizeof buf, v, 16);
  (void)err;
  return "0x" + std::string(buf, end);
}

}  // namespace

std::vector<ModuleSegment> read_modules(const fs::path& file, std::size_t* bad_lines) {
  std::ifstream in(file);
  if (!in) throw TraceError(file.string() + ": cannot open modules file");
  std::vector<ModuleSegment> segs;
  std::size_t bad = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream ls(line);
    std::string b, e, o;
    ModuleSegment s;
    if (!(ls >> b >> e >> o) || !parse_hex(b, s.begin) || !parse_hex(e, s.end) || !parse_hex(o, s.offset) ||
        s.end <= s.begin) {
      ++bad;
      continue;
    }
    std::getline(ls >> std::ws, s.path);  // the path may contain spaces
    if (s.path.empty()) {
      ++bad;
      continue;
    }
    segs.push_back(std::move(s));
  }
  if (bad_lines) *bad_lines = bad;
  return segs;
}

void write_modules(const fs::path& file, const std::vector<ModuleSegment>& segments) {
  std::string text;
  for (const auto& s : segments) text += hex(s.begin) + " " + hex(s.end) + " " + hex(s.offset) + " " + s.path + "\n";
  detail::write_file_bytes(file, text.data(), text.size());
}

std::vector<ModuleSegment> current_process_modules() {
  std::vector<ModuleSegment> segs;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto& out = *static_cast<std::vector<ModuleSegment>*>(data);
        std::string path = info->dlpi_name ? info->dlpi_name : "";
        if (path.empty()) {
          std::error_code ec;
          path = fs::read_symlink("/proc/self/exe", ec).string();
        }
        if (path.empty() || path[0] != '/') return 0;  // vdso and the like have no file
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          std::uint64_t begin = info->dlpi_addr + ph.p_vaddr;
          out.push_back({begin, begin + ph.p_memsz, ph.p_vaddr, path});
        }
        return 0;
      },
      &segs);
  return segs;
}

namespace {

// Where a frame's address lies: its module and the module-relative address
// that is looked up (a return address points after the call instruction;
// the call itself is looked up).
std::uint64_t place_frame(Frame& f, const std::vector<ModuleSegment>& segments) {
  for (const auto& s : segments) {
    if (f.address >= s.begin && f.address < s.end) {
      f.module = s.path;
      f.offset = f.address - s.begin + s.offset;
      return f.offset > 0 ? f.offset - 1 : 0;
    }
  }
  return 0;
}

void copy_location(Frame& f, const Frame& found) {
  f.function = found.function;
  f.file = found.file;
  f.line = found.line;
}

// A module file as it is now: the same path rebuilt is another module.
std::string module_identity(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + "\n" + std::to_string(ec ? 0 : size) + "\n" + std::to_string(ec ? 0 : mtime);
}

// Frames for `rank`'s sites from one flat list (site after site).
void assign_frames(RankTrace& rank, const std::vector<Frame>& frames) {
  std::size_t k = 0;
  for (auto& s : rank.sites) {
    s.symbolized.assign(frames.begin() + static_cast<std::ptrdiff_t>(k),
                        frames.begin() + static_cast<std::ptrdiff_t>(k + s.frames.size()));
    k += s.frames.size();
  }
}

std::vector<ModuleSegment> rank_modules(const fs::path& run_dir, RankTrace& rank) {
  fs::path file = detail::rank_file(run_dir, rank.rank, "modules");
  std::vector<ModuleSegment> segs;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    rank.warnings.push_back("modules: file missing, frames not symbolized");
  } else {
    std::size_t bad = 0;
    segs = read_modules(file, &bad);
    if (bad != 0) rank.warnings.push_back("modules: " + std::to_string(bad) + " malformed lines ignored");
  }
  return segs;
}

std::vector<std::uint64_t> rank_addresses(const RankTrace& rank) {
  std::vector<std::uint64_t> all;
  for (const auto& s : rank.sites) all.insert(all.end(), s.frames.begin(), s.frames.end());
  return all;
}

}  // namespace

std::vector<Frame> symbolize_addresses(const std::vector<std::uint64_t>& addresses,
                                       const std::vector<ModuleSegment>& segments,
                                       std::vector<std::string>* warnings) {
  Symbolizer symbols;
  return symbols.symbolize_addresses(addresses, segments, warnings);
}

struct Symbolizer::Module {
  std::unique_ptr<detail::DwarfModule> dwarf;  // null: the file could not be read
  std::string error;
  std::map<std::uint64_t, Frame>* frames = nullptr;  // this build's lookups (shared by equal build ids)
};

Symbolizer::Symbolizer() = default;
Symbolizer::~Symbolizer() = default;

Symbolizer::Module& Symbolizer::module(const std::string& path) {
  const std::string key = module_identity(path);
  auto it = modules_.find(key);
  if (it != modules_.end()) return it->second;
  Module m;
  try {
    m.dwarf = std::make_unique<detail::DwarfModule>(path);
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  // The same build under another path (or copied) shares its lookups.
  const std::string build = m.dwarf && !m.dwarf->build_id().empty() ? "build-id " + m.dwarf->build_id() : key;
  m.frames = &frames_[build];
  return modules_.emplace(key, std::move(m)).first->second;
}

std::vector<Frame> Symbolizer::symbolize_addresses(const std::vector<std::uint64_t>& addresses,
                                                   const std::vector<ModuleSegment>& segments,
                                                   std::vector<std::string>* warnings) {
  std::vector<Frame> frames(addresses.size());
  std::lock_guard lock(mutex_);
  std::map<std::string, Module*> used;  // module path -> its entry, for this call
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    Frame& f = frames[i];
    f.address = addresses[i];
    const std::uint64_t at = place_frame(f, segments);
    if (f.module.empty()) continue;
    auto u = used.find(f.module);
    if (u == used.end()) {
      u = used.emplace(f.module, &module(f.module)).first;
      if (!u->second->dwarf && warnings) warnings->push_back("symbolize: " + u->second->error);
    }
    Module& m = *u->second;
    if (!m.dwarf) continue;
    auto hit = m.frames->find(at);
    if (hit == m.frames->end()) {
      hit = m.frames->emplace(at, m.dwarf->lookup(at)).first;
      ++lookups_;
    }
    copy_location(f, hit->second);
  }
  return frames;
}

void Symbolizer::symbolize(const fs::path& run_dir, RankTrace& rank) {
  const auto segs = rank_modules(run_dir, rank);
  assign_frames(rank, symbolize_addresses(rank_addresses(rank), segs, &rank.warnings));
}

std::size_t Symbolizer::modules() const {
  std::lock_guard lock(mutex_);
  return modules_.size();
}

std::size_t Symbolizer::lookups() const {
  std::lock_guard lock(mutex_);
  return lookups_;
}

void symbolize(const fs::path& run_dir, RankTrace& rank) {
  Symbolizer symbols;
  symbols.symbolize(run_dir, rank);
}

std::string format_frame(const Frame& f) {
  std::string where;
  if (!f.file.empty())
    where = f.file + ":" + std::to_string(f.line);
  else if (!f.module.empty())
    where = fs::path(f.module).filename().string() + "+" + hex(f.offset);
  if (f.function.empty()) return where.empty() ? hex(f.address) : where;
  return where.empty() ? f.function : f.function + " (" + where + ")";
}

bool is_runtime_frame(const Frame& f) {
  if (f.module.empty()) return false;
  std::string base = fs::path(f.module).filename().string();
  static const char* const kRuntime[] = {"libmpi",   "libpmpi", "libmpich", "libmpl",     "libscalefuzz_inject",
                                         "libc.so",  "libc-",   "ld-linux", "libpthread", "libunwind"};
  for (const char* p : kRuntime)
    if (base.rfind(p, 0) == 0) return true;
  return false;
}

const Frame* application_frame(const CallSiteInfo& site) {
  for (const auto& f : site.symbolized)
    if (!is_runtime_frame(f)) return &f;
  return nullptr;
}

}  // namespace scalefuzz::trace
