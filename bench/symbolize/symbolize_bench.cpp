// Symbolization of hung runs, side by side (issue 13): the former way — one
// `addr2line -C -f -i` process per module per rank — against the in-process
// trace::Symbolizer (libdw), fresh for each run and warm across the runs of
// a campaign (the analysis holds one per campaign). Also compares function,
// file and line of every frame; exit 1 when an application frame differs
// (libc's inlined start-up frames are attributed to different files).
// Usage: symbolize_bench RUN_DIR...   (run directories with ranks/)
#include <boost/process.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace bp = boost::process;
namespace fs = std::filesystem;
using namespace scalefuzz::trace;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The former trace::symbolize: per module of the rank, addr2line on the
// module-relative addresses (return address - 1); the first (innermost)
// function/location pair of each address.
std::vector<Frame> addr2line_rank(const std::vector<std::uint64_t>& addresses, const std::vector<ModuleSegment>& segs) {
  std::vector<Frame> frames(addresses.size());
  std::map<std::string, std::vector<std::uint64_t>> lookups;
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    Frame& f = frames[i];
    f.address = addresses[i];
    for (const auto& s : segs)
      if (f.address >= s.begin && f.address < s.end) {
        f.module = s.path;
        f.offset = f.address - s.begin + s.offset;
        lookups[s.path].push_back(f.offset > 0 ? f.offset - 1 : 0);
        break;
      }
  }
  for (auto& [module, offs] : lookups) {
    std::sort(offs.begin(), offs.end());
    offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
    std::vector<std::string> args{"-C", "-f", "-i", "-a", "-e", module};
    for (auto o : offs) args.push_back(hex(o));
    bp::ipstream out;
    bp::child c(bp::search_path("addr2line"), bp::args = args, bp::std_out > out, bp::std_err > bp::null);
    std::map<std::uint64_t, Frame> found;
    std::string line, location;
    std::uint64_t current = 0;
    bool have_addr = false, have_pair = false;
    while (std::getline(out, line)) {
      if (line.rfind("0x", 0) == 0) {
        current = std::stoull(line, nullptr, 16);
        have_addr = true;
        have_pair = false;
        continue;
      }
      if (!have_addr || have_pair || !std::getline(out, location)) continue;
      Frame& f = found[current];
      if (line != "??") f.function = line;
      if (auto p = location.find(" (discriminator"); p != std::string::npos) location.resize(p);
      const auto colon = location.rfind(':');
      if (colon != std::string::npos) {
        if (location.substr(0, colon) != "??") f.file = location.substr(0, colon);
        f.line = std::atoi(location.c_str() + colon + 1);
      }
      have_pair = true;
    }
    c.wait();
    for (auto& f : frames)
      if (f.module == module)
        if (auto it = found.find(f.offset > 0 ? f.offset - 1 : 0); it != found.end()) {
          f.function = it->second.function;
          f.file = it->second.file;
          f.line = it->second.line;
        }
  }
  return frames;
}

struct RankInput {
  std::vector<std::uint64_t> addresses;
  std::vector<ModuleSegment> segments;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: symbolize_bench RUN_DIR...\n";
    return 2;
  }
  std::vector<std::vector<RankInput>> runs;
  std::size_t ranks = 0, frames = 0;
  for (int i = 1; i < argc; ++i) {
    RunTrace run = read_run(argv[i]);
    std::vector<RankInput> in;
    for (const auto& r : run.ranks) {
      if (r.rank < 0) continue;
      RankInput ri;
      for (const auto& s : r.sites) ri.addresses.insert(ri.addresses.end(), s.frames.begin(), s.frames.end());
      ri.segments = read_modules(fs::path(argv[i]) / "ranks" / (std::to_string(r.rank) + ".modules"));
      frames += ri.addresses.size();
      in.push_back(std::move(ri));
    }
    ranks += in.size();
    runs.push_back(std::move(in));
  }

  std::vector<std::vector<std::vector<Frame>>> before(runs.size()), fresh(runs.size()), warm(runs.size());
  auto t = Clock::now();
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& r : runs[i]) before[i].push_back(addr2line_rank(r.addresses, r.segments));
  const double t_before = seconds_since(t);

  t = Clock::now();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Symbolizer per_run;
    for (const auto& r : runs[i]) fresh[i].push_back(per_run.symbolize_addresses(r.addresses, r.segments));
  }
  const double t_fresh = seconds_since(t);

  Symbolizer campaign;
  t = Clock::now();
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& r : runs[i]) warm[i].push_back(campaign.symbolize_addresses(r.addresses, r.segments));
  const double t_campaign = seconds_since(t);

  std::size_t differ = 0, differ_app = 0, named = 0;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t r = 0; r < before[i].size(); ++r)
      for (std::size_t k = 0; k < before[i][r].size(); ++k) {
        const Frame &a = before[i][r][k], &b = fresh[i][r][k], &c = warm[i][r][k];
        named += !b.function.empty();
        if (a.function != b.function || a.file != b.file || a.line != b.line || b.function != c.function ||
            b.file != c.file || b.line != c.line) {
          if (!is_runtime_frame(b)) ++differ_app;
          if (differ++ < 3)
            std::cerr << "differs: " << a.module << "+" << hex(a.offset) << ": addr2line '" << a.function << "' "
                      << a.file << ":" << a.line << " / libdw '" << b.function << "' " << b.file << ":" << b.line
                      << "\n";
        }
      }
  const double n = static_cast<double>(runs.size());
  std::printf("symbolization of %zu runs (%zu ranks, %zu frames, %zu named), seconds per run:\n", runs.size(), ranks,
              frames, named);
  std::printf("  %-52s %8.3f  1.00x\n", "before: addr2line per module per rank", t_before / n);
  std::printf("  %-52s %8.3f  %.2fx faster\n", "after: in-process libdw, one Symbolizer per run", t_fresh / n,
              t_before / t_fresh);
  std::printf("  %-52s %8.3f  %.2fx faster\n", "after: in-process libdw, one Symbolizer per campaign", t_campaign / n,
              t_before / t_campaign);
  std::printf("  frames that differ between addr2line and libdw: %zu of %zu (%zu outside MPI, libc and the injector)\n",
              differ, frames, differ_app);
  std::printf("  target: <= 0.5 s per hung 16-rank run\n");
  return differ_app == 0 ? 0 : 1;
}
