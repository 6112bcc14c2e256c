// `scalefuzz replay RUN_DIR [--times N]`: reruns a recorded run's command
// with its decision logs enforced (injectors/replay; trace/README.md,
// "Decision logs and replay") into new run directories
// RUN_DIR/replays/<k>/ (never overwriting an earlier replay), and compares
// each replay's outcome, bug fingerprints and match order with the original.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/trace/decision_log.hpp"

namespace scalefuzz::engine {

// The run cannot be replayed (no decision log, logs of another binary or
// rank count, not a run directory): the CLI exits 2, nothing was run.
class ReplayRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReplayRequest {
  std::filesystem::path run_dir;      // the recorded run (OUT/runs/<id>, an exec --out, nights/<date>/runs/<id>)
  int times = 1;
  bool keep_noise = false;            // false: the replay runs without noise (forcing needs none)
  std::filesystem::path injector;     // the injector library to preload
};

// What one rank's ranks/N.replay says (the injector's note).
struct RankReplayNote {
  int rank = -1;
  std::string kind;       // "complete", "diverged", "log-ended", "free", "refused", "" (no note)
  std::string text;       // the line, and for a divergence the call site symbolized
};

struct ReplayAttempt {
  std::filesystem::path dir;
  harness::Outcome outcome;
  std::vector<std::string> fingerprints;   // sorted bug fingerprints of its findings
  std::uint64_t order_hash = 0;            // trace::Matching::order_hash
  std::vector<RankReplayNote> notes;
  bool same_outcome = false, same_bugs = false, same_order = false;
  bool diverged = false;
  bool reproduced() const { return same_outcome && same_bugs && !diverged; }
};

struct ReplayResult {
  harness::RunSpec spec;
  harness::Outcome original;
  std::vector<std::string> original_fingerprints;
  std::uint64_t original_order_hash = 0;
  std::vector<std::string> warnings;       // e.g. a cut log (a killed rank)
  std::vector<ReplayAttempt> attempts;
  int reproduced() const;
};

// Checks the run and its logs (throws ReplayRefused before anything runs),
// then runs the replays one after another, writing progress to `log`.
ReplayResult replay_run(const ReplayRequest& request, std::ostream& log);

// The checks replay_run makes before anything runs (a run directory with a
// spec, decision logs of its rank count and binary): its spec and logs, or
// ReplayRefused. `scalefuzz replay --submit` makes them before submitting.
struct ReplayableRun {
  harness::RunSpec spec;
  std::vector<trace::DecisionLog> logs;
};
ReplayableRun check_replayable(const std::filesystem::path& run_dir);

// One run of `spec` with the decision logs in `logs_dir` (N.decisions per
// rank: a run's ranks/, or logs written by trace::write_decision_log)
// enforced, into options.run_dir (SCALEFUZZ_REPLAY_DIR; see
// trace/README.md). What replay_run launches, and what schedule exploration
// launches its forced schedules with.
harness::Outcome launch_with_logs(const harness::RunSpec& spec, harness::LaunchOptions options,
                                  const std::filesystem::path& logs_dir);

// {PROGRAM, "replay", DIR}: the command that replays a run, or {} when the
// run has no decision log (the seed-and-noise command is then the only
// replay). Words, for the caller to quote: a directory may hold spaces.
std::vector<std::string> replay_argv(const std::filesystem::path& program, const std::filesystem::path& run_dir);

// How a run was started (RUN_DIR/launch.json, written by launch_run): the
// launcher words, its plug-in and the application's MPI, so that replay and
// explore start it the same way from the run directory alone. Files written
// before the plug-in and the MPI were recorded: the plug-in read off the
// words, the MPI off the binary. ReplayRefused for an unreadable file.
struct RecordedLaunch {
  std::vector<std::string> mpiexec;
  const harness::MpiLauncher* launcher = nullptr;
  std::optional<harness::MpiImplementation> mpi;
};
RecordedLaunch recorded_launch(const std::filesystem::path& run_dir);
void write_launcher_file(const std::filesystem::path& run_dir, const harness::RunSpec& run,
                         const harness::LaunchOptions& options);

}  // namespace scalefuzz::engine
