#include "rma_detector.hpp"

#include <fstream>
#include <sstream>

#include "scalefuzz/detectors/rma.hpp"
#include "scalefuzz/trace/allocs.hpp"
#include "usage_detector.hpp"

namespace scalefuzz::detectors::rma {

namespace {

// ranks/N.winaccess: "<window-id-hex> <read|write> <last seq> <thread> <fault
// ns> <access ns> <address-hex> <pc+1-hex> <return-address-hex> ..." per access of the rank's own code to
// its window memory (injectors/recorder/receive_guard.cpp); "capped" ends it.
WindowAccesses read_window_accesses(const std::filesystem::path& run_dir, const trace::RunTrace& trace) {
  WindowAccesses out(trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    std::ifstream in(run_dir / "ranks" / (std::to_string(r) + ".winaccess"));
    std::string line;
    for (std::size_t n = 0; n < 20000 && std::getline(in, line); ++n) {
      std::istringstream fields(line);
      WindowAccess a;
      std::string what;
      if (!(fields >> std::hex >> a.window >> what >> std::dec >> a.seq >> a.thread >> a.t_fault_ns >> a.t_access_ns >> std::hex >> a.address) ||
          (what != "read" && what != "write"))
        continue;
      a.write = what == "write";
      for (std::uint64_t frame = 0; a.frames.size() < 32 && fields >> frame;) a.frames.push_back(frame);
      out[r].push_back(std::move(a));
    }
  }
  return out;
}

class RmaDetector : public analysis::Detector {
 public:
  std::vector<Finding> observe(const analysis::RunView& run) override {
    if (!has_rma(run.trace())) return {};
    Options options;
    options.run_completed = usage::run_completed(run.end());
    const auto& dir = run.dir();
    const usage::ModifiedSends modified = usage::read_modified(dir, run.trace()).sends;
    const usage::ReceiveAccesses accessed = usage::read_accessed(dir, run.trace());
    const WindowAccesses windows = read_window_accesses(dir, run.trace());
    options.modified = &modified;
    options.accessed = &accessed;
    options.window_accesses = &windows;
    std::vector<std::vector<trace::AllocRecord>> allocs(run.trace().ranks.size());
    for (std::size_t r = 0; r < allocs.size(); ++r) {
      try {
        allocs[r] = trace::read_allocs(dir, static_cast<int>(r));
      } catch (const std::exception&) {
        // an unreadable log: no window-memory check for that rank
      }
    }
    options.allocs = &allocs;
    auto issues = check_run(run.trace(), options);
    if (issues.empty()) return {};
    auto out = usage::located_findings(run, issues);
    for (auto& f : out) f.detector = "rma";
    return out;
  }
};

}  // namespace

std::unique_ptr<analysis::Detector> make_rma_detector(const analysis::AnalysisContext&) {
  return std::make_unique<RmaDetector>();
}

// Its findings show in the usage detector's "usage" section (detectors/usage/report/).
const analysis::DetectorInfo kDetector{
    "rma",
    "one-sided communication: epoch errors, leaked windows, RMA data races and origin buffers touched early",
    "usage", {analysis::Needs::Runs::All, true}, make_rma_detector};

}  // namespace scalefuzz::detectors::rma
