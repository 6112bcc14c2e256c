// `scalefuzz reproduce`: the escalation schedule of noise profiles, the
// targets it stops at, and the replay command it prints. Pure functions,
// unit-tested without MPI (harness/cli/tests/reproduce_plan_test.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::workflows {

enum class ReproduceTarget { Race, Hang, Crash, Any };

// "race", "hang", "crash", "any"; nullopt otherwise.
std::optional<ReproduceTarget> parse_reproduce_target(const std::string& text);
const char* to_string(ReproduceTarget target);

// Whether an outcome (and whether the races detector found an unintended
// match in the run) is a manifestation of `target`:
//   race  = a wrong result or a race finding;  hang = a timeout;
//   crash = a crash, an MPI abort or a failing exit code;  any = any of them.
bool manifests(ReproduceTarget target, harness::OutcomeKind outcome, bool race_finding);

// The noise profile of attempt `attempt` (0-based): none, then alternating
// system-centric (S_p = 1, 2, 4, ...) and application-centric
// (S_a = 1.2, 2.4, 4.8, ...) profiles. Knobs other than `scale` come from
// the campaign's first profile of that mode, if any.
harness::NoiseSpec escalation_profile(int attempt, const std::vector<harness::NoiseSpec>& campaign_noise);

// A fresh campaign seed per attempt, derived from the campaign's.
std::uint64_t attempt_seed(std::uint64_t campaign_seed, int attempt);

// `scalefuzz exec` argv that replays a run: noise mode and settings, seed,
// timeout, oversubscription, output directory, then `-- mpiexec... -n N app`
// with the process count as the launcher spells it. `launcher` is the run's
// launcher plug-in (null: detected from mpiexec); `--launcher NAME` is
// printed only when exec would not detect the same one from mpiexec;
// `--mpi NAME` when the campaign's `mpi:` names one.
// `analysis_dir` is the system-centric run an application run read.
// `scalefuzz` is the path of the scalefuzz binary to name.
std::vector<std::string> replay_exec_argv(const std::string& scalefuzz, const harness::RunSpec& spec,
                                          const std::vector<std::string>& mpiexec,
                                          const std::string& oversubscribe, const std::string& analysis_dir,
                                          const std::string& out_dir, const harness::MpiLauncher* launcher = nullptr,
                                          std::optional<harness::MpiImplementation> mpi = std::nullopt);

}  // namespace scalefuzz::workflows
