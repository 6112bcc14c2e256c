// Exploration with real forced runs: decision logs built from a base run's
// (trace/decision_log.hpp, the replay's contract in trace/README.md), the
// application launched with SCALEFUZZ_REPLAY_DIR naming them, the forced
// run's trace and log read back. `scalefuzz explore RUN_DIR` and the
// campaign key `explore:` both come here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/exploration.hpp"
#include "scalefuzz/engine/explore.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/trace/decision_log.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::engine {

// The registered technique's schedule analysis (analysis::schedule_analysis);
// throws std::runtime_error when no technique analyses schedules.
const exploration::ScheduleAnalysis& schedule_analysis();

// Per rank, per event: the number of the intercepted call that made it
// (1-based; what decision-log entries carry): every record that is not a
// child (trace::kFlagChild) is a call, a folded poll 1 + repeats calls.
std::vector<std::vector<std::uint64_t>> call_numbers(const trace::RunTrace& run);

// The decision logs that enforce `schedule` on the base run's `logs`: the
// forced rank replays its decisions up to the receive (those of receives
// posted after it dropped), the receive takes schedule.source, then Free;
// every other rank replays the decisions its first replay_events[r] events
// made, then Free. `forced_ordinal` gets the receive's ordinal in the log.
// Throws std::runtime_error when the base log has no match for the receive.
std::vector<trace::DecisionLog> forced_logs(const std::vector<trace::DecisionLog>& logs,
                                            const std::vector<std::vector<std::uint64_t>>& calls,
                                            const ForcedSchedule& schedule, std::uint64_t& forced_ordinal);

// A finished run directory as an exploration base (its trace's potential
// matches, its outcome, its stdout).
ExploreBase read_explore_base(const std::filesystem::path& run_dir, const std::string& run_id);

// Forced runs of one base spec: each into forced_run_dir(out_dir, name),
// its schedule in schedule/ there, noise off.
class MpiScheduleRunner : public ScheduleRunner {
 public:
  MpiScheduleRunner(harness::LaunchOptions launch, std::filesystem::path out_dir, std::string scalefuzz_program);
  ForcedRun run(const ForcedSchedule& schedule, const std::string& name) override;
  std::optional<ForcedRun> replay_base(const ExploreBase& base, const std::string& name) override;
  // Which decision of a forced run's log took_forced looks at: `rank`'s
  // Match with log ordinal `ordinal` took source `value`, or (completion)
  // `rank`'s `ordinal`-th Index decision (from 0) returned index `value`.
  // rank -1: none (a control replay).
  struct ForcedCheck {
    int rank = -1;
    bool completion = false;
    std::uint64_t ordinal = 0;
    std::int32_t value = -1;
  };
  // Runs `logs` as they are (shrinking, controls); `check` says which forced
  // decision took_forced looks at.
  ForcedRun run_logs(const std::filesystem::path& base_run_dir, const std::vector<trace::DecisionLog>& logs,
                     const std::string& name, const ForcedCheck& check);

  struct Base {
    harness::RunSpec spec;
    std::vector<trace::DecisionLog> logs;
    std::vector<std::vector<std::uint64_t>> calls;
  };
  const Base& base(const std::filesystem::path& run_dir);  // read once

 private:
  harness::LaunchOptions launch_;
  std::filesystem::path out_dir_;
  std::string scalefuzz_;
  std::map<std::filesystem::path, Base> bases_;
};

struct ExploreRunOptions {
  ExploreLimits limits;
  std::filesystem::path out_dir;      // OUT: explore/<point>.json and explore/runs/ go there
  std::string scalefuzz_program;      // named in replay commands
  harness::LaunchOptions launch;      // the campaign's launcher and injector
  std::size_t shrink_budget = 40;     // forced runs for delta debugging one failing schedule
};

// Explores from `bases` (run directories of one campaign point, the first
// the main base), shrinks the first failing schedule of each receive site
// by ddmin, writes the record to exploration_record_file(out, point) and
// returns it.
exploration::ExplorationRecord explore_point(const std::string& point,
                                                  const std::vector<std::filesystem::path>& base_dirs,
                                                  const ExploreRunOptions& options,
                                                  exploration::MatchCoverage& coverage);

// The campaign key `explore:` after `scalefuzz run`'s runs: per campaign
// point with wildcard receives, its first finished run without noise that
// has decision logs is the base, and each noise run whose wildcard matches
// show a tuple no earlier run of the point had becomes a base too (at most
// kMaxNoiseBases; BaseChooser); the point is explored with the campaign's depth and
// budget into OUT/explore/. A point whose record exists already (a resumed
// campaign) is not explored again. Progress lines go to `log`.
inline constexpr std::size_t kMaxNoiseBases = 3;

// Which of a campaign point's runs exploration starts from, offered in
// order (quiet runs first, then noise runs in store order): the first is
// the main base; the first run that ended ok joins a failing main base; a
// noise run with a match tuple no earlier run had joins (at most
// kMaxNoiseBases). Every offered run's matches are seen in coverage(),
// bases or not, so exploration forces first what no run has produced.
class BaseChooser {
 public:
  bool offer(const ExploreBase& run, bool quiet);  // true: a base
  std::size_t bases() const { return bases_; }
  exploration::MatchCoverage& coverage() { return coverage_; }

 private:
  exploration::MatchCoverage coverage_;
  std::size_t bases_ = 0, noise_bases_ = 0;
  bool main_base_ok_ = false;
};
void explore_campaign(const harness::RunStore& store, const harness::Campaign& campaign,
                      const harness::LaunchOptions& launch, const std::string& scalefuzz_program, std::ostream& log);

}  // namespace scalefuzz::engine
