// Module maps (ranks/N.modules) and helpers for presenting symbolized frames.
// symbolize() itself is declared in model.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

// One line of ranks/N.modules (see format.hpp): [begin, end) in the rank's
// address space; `offset` is the module-relative address of `begin`.
struct ModuleSegment {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t offset = 0;
  std::string path;
};

// Parses a modules file; malformed lines are skipped and counted in
// *bad_lines if given. Throws TraceError if the file cannot be opened.
std::vector<ModuleSegment> read_modules(const std::filesystem::path& file,
                                        std::size_t* bad_lines = nullptr);

// Writes segments in the modules-file format (for tests and tools).
void write_modules(const std::filesystem::path& file, const std::vector<ModuleSegment>& segments);

// The calling process's loaded segments (dl_iterate_phdr, PT_LOAD only; the
// main program under its /proc/self/exe path), in the modules-file format.
std::vector<ModuleSegment> current_process_modules();

// Symbolizes raw return addresses against `segments` (return address - 1 is
// looked up, in the module's DWARF). Frames outside every segment keep an
// empty module. Appends problems (a module file unreadable) to *warnings if
// given.
std::vector<Frame> symbolize_addresses(const std::vector<std::uint64_t>& addresses,
                                       const std::vector<ModuleSegment>& segments,
                                       std::vector<std::string>* warnings = nullptr);

// symbolize() for many ranks and runs: each module file is opened once per
// Symbolizer (a campaign's analysis holds one) and each address looked up
// once per build (GNU build id; the file's path, size and time without one),
// so the ranks of a run and the runs of a campaign share the work. DWARF is
// read in-process with elfutils' libdw. Thread-safe.
class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // Fills CallSiteInfo::symbolized of every site of `rank`, like symbolize().
  void symbolize(const std::filesystem::path& run_dir, RankTrace& rank);
  // symbolize_addresses() through the cache.
  std::vector<Frame> symbolize_addresses(const std::vector<std::uint64_t>& addresses,
                                         const std::vector<ModuleSegment>& segments,
                                         std::vector<std::string>* warnings = nullptr);
  // Module files opened and addresses looked up in DWARF so far (benches, tests).
  std::size_t modules() const;
  std::size_t lookups() const;

 private:
  struct Module;
  Module& module(const std::string& path);
  mutable std::mutex mutex_;
  std::map<std::string, Module> modules_;                           // by path, size and time
  std::map<std::string, std::map<std::uint64_t, Frame>> frames_;  // by build
  std::size_t lookups_ = 0;
};

// "func (file:line)"; unknown parts degrade to "module+0xoff" / "0xaddr".
std::string format_frame(const Frame& frame);

// True if the frame lies in the MPI library, the scalefuzz injector, libc or
// the dynamic loader (i.e. not application code).
bool is_runtime_frame(const Frame& frame);

// The innermost symbolized frame of `site` that is not a runtime frame, or
// nullptr if the site is not symbolized or has none.
const Frame* application_frame(const CallSiteInfo& site);

}  // namespace scalefuzz::trace
