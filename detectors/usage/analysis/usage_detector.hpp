// The usage checks (detectors/usage) on the plug-in contract
// (detectors/api): every run with traces, plus the rank-recorded fatal
// signals (ranks/N.signal) as findings at the crashing frame.
#pragma once

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/usage.hpp"

namespace scalefuzz::detectors::usage {

// The injector's side files the usage checks read, shared with detectors/rma
// (one-sided operations use the same hashing and guarded pages).
// ranks/N.modified: "<post seq> <completion seq>" per buffer that changed
// (sends), with a third field "recv" for a nonblocking collective's receive
// buffer written while pending (receives).
struct ModifiedBuffers {
  ModifiedSends sends, receives;
};
ModifiedBuffers read_modified(const std::filesystem::path& run_dir, const trace::RunTrace& trace);
// ranks/N.accessed: "<post seq> <read|write> <last seq> <address-hex> <frames...>".
ReceiveAccesses read_accessed(const std::filesystem::path& run_dir, const trace::RunTrace& trace);
// A stack a rank captured itself, symbolized: every frame, the innermost
// application frame (not the injector, not a runtime library) and whether
// MPI library code (not libc) ran below it.
struct PlacedStack {
  nlohmann::json stack = nlohmann::json::array();
  std::string location;  // of the application frame; empty: none
  nlohmann::json code;   // {function, file, line, location}
  bool in_mpi_code = false;
};
PlacedStack place_stack(const std::filesystem::path& run_dir, int rank, const std::vector<std::uint64_t>& addresses);

// Whether the run got past MPI_Finalize on every rank as far as the checks
// care: ok, a wrong result, or a failing exit code without a signal.
bool run_completed(const analysis::RunEnd& end);
// The findings of `issues` (usage's or rma's checks), each placed at its
// call's source line and, where the rank captured one, at its own stack.
std::vector<Finding> located_findings(const analysis::RunView& run, const std::vector<Issue>& issues);

std::unique_ptr<analysis::Detector> make_usage_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(usage)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::usage
