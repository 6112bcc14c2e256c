// Symbolization of call-site frames: module map lookup, then one addr2line
// process per module (argv vector via posix_spawn, never a shell).
#include "scalefuzz/trace/symbolize.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <link.h>
#include <map>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "file_io.hpp"

extern char** environ;

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

// Runs argv[0] (looked up in PATH) with `args`, returning its stdout.
// Returns false with `error` set if it cannot be started or fails.
bool run_capture(const std::vector<std::string>& args, std::string& out, std::string& error) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    error = args[0] + ": cannot start: " + std::strerror(rc);
    return false;
  }
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = args[0] + " failed (status " + std::to_string(status) + ")";
    return false;
  }
  return true;
}

// "file:line", "file:line (discriminator 2)", "??:0", "??:?".
void parse_location(const std::string& loc, Frame& f) {
  std::string s = loc;
  if (auto p = s.find(" (discriminator"); p != std::string::npos) s.resize(p);
  auto colon = s.rfind(':');
  if (colon == std::string::npos) return;
  std::string file = s.substr(0, colon);
  if (file != "??") f.file = file;
  int line = 0;
  std::from_chars(s.data() + colon + 1, s.data() + s.size(), line);
  f.line = line;
}

// One addr2line run per chunk: -a echoes each address, then -i prints one
// (function, location) pair per inlining level, innermost first; we keep the
// innermost, i.e. the exact source line of the call.
void addr2line_module(const std::string& module, const std::vector<std::uint64_t>& lookups,
                      std::map<std::uint64_t, Frame>& results, std::vector<std::string>* warnings) {
  constexpr std::size_t kChunk = 256;
  for (std::size_t start = 0; start < lookups.size(); start += kChunk) {
    std::vector<std::string> args{"addr2line", "-C", "-f", "-i", "-a", "-e", module};
    std::size_t stop = std::min(lookups.size(), start + kChunk);
    for (std::size_t i = start; i < stop; ++i) args.push_back(hex(lookups[i]));
    std::string out, error;
    if (!run_capture(args, out, error)) {
      if (warnings) warnings->push_back("symbolize: " + module + ": " + error);
      return;
    }
    std::istringstream in(out);
    std::string line;
    std::uint64_t current = 0;
    bool have_addr = false, have_pair = false;
    while (std::getline(in, line)) {
      std::uint64_t a = 0;
      if (line.rfind("0x", 0) == 0 && parse_hex(line, a)) {
        current = a;
        have_addr = true;
        have_pair = false;
        continue;
      }
      if (!have_addr || have_pair) continue;  // outer inlining levels
      std::string location;
      if (!std::getline(in, location)) break;
      Frame& f = results[current];
      if (line != "??") f.function = line;
      parse_location(location, f);
      have_pair = true;
    }
  }
}

}  // namespace

std::vector<ModuleSegment> read_modules(const fs::path& file, std::size_t* bad_lines, bool* truncated) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw TraceError(file.string() + ": cannot open modules file");
  // Bounded: a modules file that never ends (a link to /dev/zero) must not
  // fill memory. Real ones hold one short line per mapped segment.
  std::string text;
  char chunk[65536];
  while (text.size() <= kMaxModulesFileBytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  const bool cut = text.size() > kMaxModulesFileBytes;
  if (cut) text.resize(kMaxModulesFileBytes);
  if (truncated) *truncated = cut;
  std::vector<ModuleSegment> segs;
  std::size_t bad = 0;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line.size() > kMaxModulesLineBytes || line.find('\0') != std::string::npos) {
      ++bad;
      continue;
    }
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

std::vector<Frame> symbolize_addresses(const std::vector<std::uint64_t>& addresses,
                                       const std::vector<ModuleSegment>& segments,
                                       std::vector<std::string>* warnings) {
  std::vector<Frame> frames(addresses.size());
  std::map<std::string, std::vector<std::uint64_t>> lookups;  // module -> relative addresses
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    Frame& f = frames[i];
    f.address = addresses[i];
    for (const auto& s : segments) {
      if (f.address >= s.begin && f.address < s.end) {
        f.module = s.path;
        f.offset = f.address - s.begin + s.offset;
        // A return address points after the call instruction; look up the call.
        lookups[s.path].push_back(f.offset > 0 ? f.offset - 1 : 0);
        break;
      }
    }
  }
  for (auto& [module, offs] : lookups) {
    std::sort(offs.begin(), offs.end());
    offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
    std::map<std::uint64_t, Frame> found;
    addr2line_module(module, offs, found, warnings);
    for (auto& f : frames) {
      if (f.module != module) continue;
      auto it = found.find(f.offset > 0 ? f.offset - 1 : 0);
      if (it == found.end()) continue;
      f.function = it->second.function;
      f.file = it->second.file;
      f.line = it->second.line;
    }
  }
  return frames;
}

void symbolize(const fs::path& run_dir, RankTrace& rank) {
  fs::path file = detail::rank_file(run_dir, rank.rank, "modules");
  std::vector<ModuleSegment> segs;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    rank.warnings.push_back("modules: file missing, frames not symbolized");
  } else {
    std::size_t bad = 0;
    bool truncated = false;
    segs = read_modules(file, &bad, &truncated);
    if (bad != 0) rank.warnings.push_back("modules: " + std::to_string(bad) + " malformed lines ignored");
    if (truncated)
      rank.warnings.push_back("modules: file larger than " + std::to_string(kMaxModulesFileBytes >> 20) +
                              " MiB, only its beginning read; frames in modules beyond it not symbolized");
  }
  std::vector<std::uint64_t> all;
  for (const auto& s : rank.sites) all.insert(all.end(), s.frames.begin(), s.frames.end());
  std::vector<Frame> frames = symbolize_addresses(all, segs, &rank.warnings);
  std::size_t k = 0;
  for (auto& s : rank.sites) {
    s.symbolized.assign(frames.begin() + static_cast<std::ptrdiff_t>(k),
                        frames.begin() + static_cast<std::ptrdiff_t>(k + s.frames.size()));
    k += s.frames.size();
  }
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
