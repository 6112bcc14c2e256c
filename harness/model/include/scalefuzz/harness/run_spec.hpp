// The unit of work: one launch of the application at one point of the
// campaign matrix. Produced by campaign expansion, consumed by launchers,
// persisted by the run store.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalefuzz::harness {

// Noise settings of one run; `mode` is one of none|random|system|application|local.
// Further knobs are kept as name -> value strings so the campaign schema can
// grow without touching launchers; the injector reads them from SCALEFUZZ_NOISE_*.
struct NoiseSpec {
  std::string mode = "none";
  std::map<std::string, std::string> settings;  // e.g. {"scale","1.2"}
  // Short stable label used in run ids, filters and reports: "none", "system-s1.0".
  std::string label() const;
};

struct RunSpec {
  std::string run_id;            // deterministic: campaign + scale + params + noise + rep
  std::string campaign;
  int nprocs = 0;
  std::string scale_role;        // "train" or "test"
  std::map<std::string, std::string> params;  // parameter name -> value for this run
  NoiseSpec noise;
  int repetition = 0;            // 0-based
  std::uint64_t seed = 0;        // deterministic from run id and campaign seed
  std::vector<std::string> argv; // interpolated application argv (no mpiexec)
  std::map<std::string, std::string> env;  // extra environment for the ranks
  std::chrono::milliseconds timeout{60000};
  // How the outcome of a clean exit is judged: exit code only, or a regex on
  // stdout that marks a wrong result.
  // check is "exit-code", "stdout-regex" (wrong_result_regex set) or
  // "stdout-must-match" (expected_stdout_regex set: wrong result when absent);
  // "stderr-..." and "output-..." (stdout and stderr) search those streams.
  // Both are std::regex ECMAScript patterns, searched in each stdout line.
  std::string check = "exit-code";
  std::optional<std::string> wrong_result_regex;
  std::optional<std::string> expected_stdout_regex;
};

enum class OutcomeKind { Ok, Failed, Crashed, MpiAbort, Hang, WrongResult, LaunchError };
const char* to_string(OutcomeKind k);
std::optional<OutcomeKind> outcome_from_string(const std::string& s);

struct RankStack {
  int rank = -1;          // world rank, -1 if unknown
  long pid = 0;
  std::string text;       // eu-stack output for this process
};

struct Outcome {
  OutcomeKind kind = OutcomeKind::Ok;
  int exit_code = 0;      // mpiexec exit code (when it exited)
  int signal = 0;         // signal that killed a rank (Crashed) or 0
  std::string detail;     // one line a person can read: "rank 2 SIGSEGV", "timeout after 10s"
  double wall_seconds = 0;
  std::vector<RankStack> stacks;  // captured at a timeout
};

}  // namespace scalefuzz::harness
