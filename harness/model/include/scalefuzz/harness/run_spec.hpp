// The unit of work: one launch of the application at one point of the
// campaign matrix. Produced by campaign expansion, consumed by launchers,
// persisted by the run store.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/common/outcome_kind.hpp"
#include "scalefuzz/noise/spec.hpp"

namespace scalefuzz::harness {

// Noise settings of one run. The modes and knobs are those of the noise spec
// (injectors/noise/spec/scalefuzz/noise/spec.hpp); settings hold each knob's
// checked, normalised value as the injector reads it from its variable.
struct NoiseSpec {
  noise::Mode mode = noise::Mode::None;
  std::map<std::string, std::string> settings;  // knob name -> stored value, e.g. {"scale","1.2"}
  // The one label of run ids, --filter, reports and findings.json, knob
  // values with their units: "none", "random-delay20us-probability0.2".
  std::string label() const;
};

// An injected stall (injectors/stall, AutomaDeD §5.2): which world rank
// stops progressing, at the entry of which of its MPI calls (1-based).
struct StallPoint {
  int rank = 0;
  long call = 1;
  bool operator==(const StallPoint&) const = default;
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
  // The stall injected into this run, if any; the launcher passes it to the
  // injector (SCALEFUZZ_STALL_*), the analysis scores it.
  std::optional<StallPoint> stall;
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

// scalefuzz/common/outcome_kind.hpp: below the harness, read by the detectors too.
using scalefuzz::is_rerunnable;
using scalefuzz::OutcomeKind;
using scalefuzz::outcome_from_string;
using scalefuzz::to_string;

struct RankStack {
  int rank = -1;          // world rank, -1 if unknown
  long pid = 0;
  std::string text;       // eu-stack output for this process
};

struct Outcome {
  OutcomeKind kind = OutcomeKind::Ok;
  int exit_code = 0;      // mpiexec exit code (when it exited)
  int signal = 0;         // signal that killed a rank (Crashed) or 0
  std::optional<int> crashed_rank;  // world rank the signal killed, when known (Crashed)
  std::string detail;     // one line a person can read: "rank 2 SIGSEGV", "timeout after 10s"
  double wall_seconds = 0;
  std::vector<RankStack> stacks;  // captured at a timeout
};

// The layout of one run directory (OUT/runs/<run id>/ or exec's --out):
// every harness-side file name is spelled here. The ranks/ files belong to
// the trace format (trace/), ninja/ and the stall marker to the injector.
class RunDir {
 public:
  RunDir() = default;
  explicit RunDir(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& path() const { return root_; }

  std::filesystem::path spec_file() const { return root_ / "spec.json"; }
  std::filesystem::path outcome_file() const { return root_ / "outcome.json"; }
  std::filesystem::path stdout_file() const { return root_ / "stdout.txt"; }
  std::filesystem::path stderr_file() const { return root_ / "stderr.txt"; }
  std::filesystem::path ranks_dir() const { return root_ / "ranks"; }     // trace files, one set per rank
  std::filesystem::path ninja_dir() const { return root_ / "ninja"; }     // NINJA system-centric analysis
  std::filesystem::path ninja_analysis_file(int rank) const {
    return ninja_dir() / (std::to_string(rank) + ".analysis");
  }
  std::filesystem::path stall_marker() const { return root_ / "stall"; }  // written when the stall fired

  bool has_traces() const;
  bool has_outcome() const;
  bool stall_fired() const;
  // Every rank of an `nprocs` run wrote its NINJA analysis.
  bool has_ninja_analysis(int nprocs) const;

 private:
  std::filesystem::path root_;
};

}  // namespace scalefuzz::harness
