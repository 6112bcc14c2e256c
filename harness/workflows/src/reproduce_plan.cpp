#include "scalefuzz/workflows/reproduce_plan.hpp"

#include <cmath>
#include <sstream>

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz::workflows {

using harness::OutcomeKind;

constexpr EnumName<ReproduceTarget> kTargetNames[] = {{ReproduceTarget::Race, "race"},
                                                       {ReproduceTarget::Hang, "hang"},
                                                       {ReproduceTarget::Crash, "crash"},
                                                       {ReproduceTarget::Any, "any"}};

std::optional<ReproduceTarget> parse_reproduce_target(const std::string& text) {
  return value_named(kTargetNames, text);
}

const char* to_string(ReproduceTarget target) { return name_of(kTargetNames, target); }

bool manifests(ReproduceTarget target, OutcomeKind outcome, bool race_finding) {
  // A failed check or an MPI_Abort (a program that checks its matches and
  // aborts, even with code 0) is the race showing, as a race finding is.
  const bool race = race_finding || outcome == OutcomeKind::WrongResult || outcome == OutcomeKind::MpiAbort;
  const bool hang = outcome == OutcomeKind::Hang;
  const bool crash = outcome == OutcomeKind::Crashed || outcome == OutcomeKind::MpiAbort || outcome == OutcomeKind::Failed;
  switch (target) {
    case ReproduceTarget::Race: return race;
    case ReproduceTarget::Hang: return hang;
    case ReproduceTarget::Crash: return crash;
    case ReproduceTarget::Any: return race || hang || crash;
  }
  return false;
}

namespace {

std::string shortest(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

}  // namespace

harness::NoiseSpec escalation_profile(int attempt, const std::vector<harness::NoiseSpec>& campaign_noise) {
  harness::NoiseSpec spec;
  if (attempt <= 0) return spec;  // mode none: the quiet baseline
  const bool system = attempt % 2 == 1;
  const int level = (attempt - 1) / 2;  // 0, 0, 1, 1, 2, 2, ...
  spec.mode = system ? noise::Mode::System : noise::Mode::Application;
  for (const auto& p : campaign_noise) {
    if (p.mode != spec.mode) continue;
    spec.settings = p.settings;
    break;
  }
  const double factor = std::ldexp(1.0, level);  // 1, 2, 4, ...
  // Scale 1, 2, 4, ... times the mode's default S_p or S_a (the noise spec).
  spec.settings["scale"] = shortest(factor * noise::find_knob(spec.mode, "scale")->default_value);
  return spec;
}

std::uint64_t attempt_seed(std::uint64_t campaign_seed, int attempt) {
  return harness::derive_run_seed(campaign_seed, "reproduce-attempt-" + std::to_string(attempt));
}

std::vector<std::string> replay_exec_argv(const std::string& scalefuzz, const harness::RunSpec& spec,
                                          const std::vector<std::string>& mpiexec,
                                          const std::string& oversubscribe, const std::string& analysis_dir,
                                          const std::string& out_dir, const harness::MpiLauncher* launcher,
                                          std::optional<harness::MpiImplementation> mpi) {
  const harness::MpiLauncher& detected = harness::detect_mpi_launcher(mpiexec);
  if (!launcher) launcher = &detected;
  std::vector<std::string> argv;
  std::vector<std::string> app_env;  // the campaign's app.env: exec has no flag for it
  for (const auto& [k, v] : spec.env) app_env.push_back(k + "=" + v);
  if (!app_env.empty()) {
    argv.push_back("env");
    argv.insert(argv.end(), app_env.begin(), app_env.end());
  }
  argv.insert(argv.end(), {scalefuzz, "exec", "--noise", std::string(noise::to_string(spec.noise.mode))});
  if (spec.stall)
    argv.insert(argv.end(), {"--stall", std::to_string(spec.stall->rank) + ":" + std::to_string(spec.stall->call)});
  for (const auto& [k, v] : spec.noise.settings) {
    argv.push_back("--noise-set");
    argv.push_back(k + "=" + v);
  }
  if (!analysis_dir.empty()) {
    argv.push_back("--noise-set");
    argv.push_back(std::string(noise::kAnalysisKnob) + "=" + analysis_dir);
  }
  if (spec.check != "exit-code") {
    const auto& pattern = spec.wrong_result_regex ? spec.wrong_result_regex : spec.expected_stdout_regex;
    if (pattern) argv.insert(argv.end(), {"--check", spec.check + "=" + *pattern});
  }
  const auto ms = spec.timeout.count();
  argv.insert(argv.end(), {"--seed", std::to_string(spec.seed), "--timeout",
                           ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms",
                           "--oversubscribe", oversubscribe, "--out", out_dir});
  if (launcher != &detected) argv.insert(argv.end(), {"--launcher", std::string(launcher->name())});
  if (mpi) argv.insert(argv.end(), {"--mpi", std::string(harness::key_word(*mpi))});
  argv.push_back("--");
  argv.insert(argv.end(), mpiexec.begin(), mpiexec.end());
  const auto count = launcher->process_count_args(spec.nprocs);
  argv.insert(argv.end(), count.begin(), count.end());
  argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
  return argv;
}

}  // namespace scalefuzz::workflows
