// scalefuzz exec [options] -- mpiexec -n N ./app args: one ad-hoc run under
// the injector, with the same timeout handling and outcome classes as a
// campaign run, recorded into a run directory.
#include <filesystem>
#include <iostream>
#include <algorithm>
#include <map>
#include <random>
#include <regex>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/workflows/run_command.hpp"
#include "scalefuzz/workflows/stop_signals.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/injector/env.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

namespace {

// --check KIND=REGEX (or exit-code) into the spec; UsageError when bad.
void apply_check_option(const std::string& text, harness::RunSpec& spec) {
  static const std::vector<std::string> kinds = {"stdout-regex",      "stderr-regex",      "output-regex",
                                                 "stdout-must-match", "stderr-must-match", "output-must-match"};
  if (text == "exit-code") {
    spec.check = "exit-code";
    return;
  }
  const auto eq = text.find('=');
  const std::string kind = text.substr(0, eq);
  if (eq == std::string::npos || std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw UsageError("--check: expected exit-code or KIND=REGEX with KIND one of stdout-regex, stderr-regex, "
                     "output-regex, stdout-must-match, stderr-must-match, output-must-match; got '" + text + "'");
  const std::string pattern = text.substr(eq + 1);
  if (pattern.size() > harness::kMaxCheckRegexBytes)
    throw UsageError("--check: a regular expression of " + std::to_string(pattern.size()) + " bytes is longer than the " +
                     std::to_string(harness::kMaxCheckRegexBytes) + " allowed");
  try {
    std::regex compiled(pattern);
  } catch (const std::regex_error& e) {
    throw UsageError("--check: invalid regular expression '" + pattern + "': " + e.what());
  }
  spec.check = kind;
  (kind.ends_with("-regex") ? spec.wrong_result_regex : spec.expected_stdout_regex) = pattern;
}

// Splits "mpiexec [opts] -n N app args" into launcher prefix, N and app
// argv, where the launcher plug-in spells the process count.
void split_mpiexec_command(const std::vector<std::string>& tail, const harness::MpiLauncher& launcher,
                           harness::RunSpec& spec, std::vector<std::string>& prefix) {
  const auto span = launcher.find_process_count(tail);
  if (!span) {
    // The launcher's own spelling, e.g. "-n 4", as the example.
    std::string example;
    for (const auto& word : launcher.process_count_args(4)) example += " " + word;
    throw UsageError("expected '-- " + tail.front() + example + " ./app [args]' after the options (" +
                     std::string(launcher.name()) + " launcher)");
  }
  std::string count_text;
  for (std::size_t k = 0; k < span->words; ++k) count_text += (k ? " " : "") + tail[span->index + k];
  if (span->nprocs < 0) throw UsageError("'" + count_text + "': expected a number of processes");
  if (span->nprocs < 1) throw UsageError("the number of processes must be at least 1");
  spec.nprocs = span->nprocs;
  prefix.assign(tail.begin(), tail.begin() + static_cast<long>(span->index));
  spec.argv.assign(tail.begin() + static_cast<long>(span->index + span->words), tail.end());
  if (spec.argv.empty()) throw UsageError("no application after '" + count_text + "'");
}

}  // namespace

int exec_command(const ExecOptions& exec) {
  if (exec.command.empty()) throw UsageError("expected '-- mpiexec -n N ./app [args]'");

  harness::RunSpec spec;
  harness::LaunchOptions options;
  const std::string& launcher_name = exec.launcher;
  if (launcher_name != "auto") {
    options.launcher = harness::find_mpi_launcher(launcher_name);
    if (!options.launcher) throw UsageError("--launcher: " + harness::unknown_launcher_message(launcher_name));
  }
  split_mpiexec_command(exec.command, options.launcher ? *options.launcher : harness::detect_mpi_launcher(exec.command), spec,
                        options.mpiexec);
  spec.campaign = "exec";
  const std::string& mode_name = exec.noise;
  const auto mode = noise::mode_from_string(mode_name);
  if (!mode) throw UsageError("--noise: " + harness::unknown_noise_mode_message(mode_name));
  spec.noise.mode = *mode;
  std::optional<fs::path> analysis;  // application mode: the system-centric run it reads
  for (const auto& kv : exec.noise_settings) {
    if (kv.rfind(std::string(noise::kAnalysisKnob) + "=", 0) == 0 && *mode == noise::Mode::Application) {
      analysis = fs::absolute(kv.substr(noise::kAnalysisKnob.size() + 1));
      continue;
    }
    try {
      spec.noise.settings.insert(harness::parse_noise_setting(*mode, kv));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--noise-set " + kv + ": " + e.what());
    }
  }
  if (*mode == noise::Mode::Application) {
    // SCALEFUZZ_NOISE_ANALYSIS: a system-centric run's directory (injectors/noise/README.md).
    if (!analysis)
      throw UsageError("--noise application needs --noise-set analysis=RUN_DIR, the --out of an earlier "
                       "'scalefuzz exec --noise system' run of the same command");
    if (!fs::is_directory(harness::RunDir(*analysis).ninja_dir()))
      throw UsageError("--noise-set analysis=" + analysis->string() +
                       ": no ninja/ analysis there (not a finished system-centric run)");
    options.env[std::string(noise::kAnalysisEnv)] = analysis->string();  // shown in the replay line
  }
  if (exec.seed) {
    spec.seed = *exec.seed;
  } else {
    // A fresh seed every time (printed below, so the run can be replayed).
    std::random_device device;
    spec.seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  if (exec.check) apply_check_option(*exec.check, spec);
  if (const auto& stall = exec.stall) {  // injectors/stall
    const auto colon = stall->find(':');
    long rank = -1, call = 0;
    try {
      if (colon == std::string::npos) throw std::invalid_argument("no colon");
      std::size_t used_rank = 0, used_call = 0;
      rank = std::stol(stall->substr(0, colon), &used_rank);
      call = std::stol(stall->substr(colon + 1), &used_call);
      if (used_rank != colon || used_call != stall->size() - colon - 1) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      rank = -1;
    }
    if (rank < 0 || rank >= spec.nprocs || call < 1)
      throw UsageError("--stall: expected RANK:CALL with 0 <= RANK < " + std::to_string(spec.nprocs) +
                       " and CALL >= 1, got '" + *stall + "'");
    spec.stall = harness::StallPoint{static_cast<int>(rank), call};
  }
  spec.timeout = exec.timeout;
  spec.run_id = "exec-np" + std::to_string(spec.nprocs) + "-" + std::string(noise::to_string(spec.noise.mode));
  const std::string& oversubscribe = exec.oversubscribe;
  if (oversubscribe != "auto" && oversubscribe != "on" && oversubscribe != "off")
    throw UsageError("--oversubscribe: expected auto, on or off");
  options.env[injector::env_name(injector::Env::Oversubscribe)] = oversubscribe;
  // The injector built for the application's MPI (--mpi where the binary
  // cannot tell); a launcher of the other MPI is refused here.
  std::optional<harness::MpiImplementation> mpi;
  if (const auto word = std::optional<std::string>(exec.mpi); *word != "auto") {
    mpi = harness::mpi_named(*word);
    if (!mpi) throw UsageError("--mpi: expected auto, mpich or openmpi, got '" + *word + "'");
  }
  const fs::path injector = injector_for(spec.argv.front(), harness::launcher_of(options), mpi, options.mpiexec);
  if (exec.record) options.injector_lib = injector;
  options.mpi = mpi;
  options.run_dir = fs::absolute(exec.out);
  if (analysis && *analysis == options.run_dir)
    throw UsageError("--out must differ from --noise-set analysis=DIR (the system run's files would be replaced)");
  const harness::RunDir run_dir(options.run_dir);
  if (fs::exists(run_dir.ranks_dir())) fs::remove_all(run_dir.ranks_dir());  // a fresh recording
  if (fs::exists(run_dir.ninja_dir())) fs::remove_all(run_dir.ninja_dir());
  std::error_code ec;
  fs::create_directories(options.run_dir, ec);
  if (ec) throw InfraError(options.run_dir.string() + ": cannot create the run directory: " + ec.message());

  harness::become_subreaper();
  // Ctrl-C or SIGTERM: the run's processes are killed at once (options.cancel)
  // and exec says so and exits 130, as run and reproduce do.
  options.cancel = &stop_requested();
  stop_on_signals();
  // The launch step of `scalefuzz run` (an application run also gets the
  // system run's potential races); exec has no store and no analysis: its
  // --out is the run directory, read later by `scalefuzz analyze/trace`.
  harness::Outcome outcome;
  try {
    outcome = engine::launch_run(spec, options, analysis);
  } catch (const harness::LaunchCancelled& e) {
    std::cerr << "interrupted: " << terminal_safe(e.what()) << "; its processes were killed\n";
    return kExitInterrupted;
  }
  default_signals();

  std::cout << "outcome: " << harness::to_string(outcome.kind);
  if (!outcome.detail.empty()) std::cout << " (" << terminal_safe(outcome.detail) << ")";
  std::cout << ", " << outcome.wall_seconds << " s\n";
  if (exec.record) {
    try {
      trace::RunTrace run = trace::read_run(options.run_dir);
      for (const auto& r : run.ranks) {
        if (r.rank < 0) continue;
        std::cout << "  rank " << r.rank << ": " << r.events.size() << " events, " << r.sites.size()
                  << " call sites" << (r.last_event_in_progress ? ", last call never returned" : "") << "\n";
      }
      trace::Matching m = trace::match_messages(run);
      std::cout << "  " << m.messages.size() << " messages matched, " << m.unmatched_sends.size()
                << " sends and " << m.unmatched_recvs.size() << " receives unmatched\n";
    } catch (const std::exception& e) {
      std::cout << "  trace unreadable: " << e.what() << "\n";
    }
    std::cout << "recorded in " << options.run_dir.string() << " (scalefuzz trace " << options.run_dir.string()
              << ", scalefuzz analyze " << options.run_dir.string() << ")\n";
  }
  if (spec.stall)
    std::cout << "stall: rank " << spec.stall->rank << " at its MPI call " << spec.stall->call
              << (run_dir.stall_fired() ? ": fired" : ": never reached (the rank made fewer calls)")
              << "\n";
  std::cout << "seed: " << spec.seed << " (--seed " << spec.seed << " replays this run's noise decisions)\n";
  const std::string exact = joined_for_shell(engine::replay_argv(this_program(), options.run_dir));
  if (!exact.empty()) std::cout << "replay (the recorded matches forced): " << terminal_safe(exact) << "\n";
  std::cout << (exact.empty() ? "replay: " : "or with its seed and noise: ") << terminal_safe(display_command(spec, options))
            << "\n";
  switch (outcome.kind) {
    case harness::OutcomeKind::Ok: return kExitOk;
    case harness::OutcomeKind::LaunchError: throw InfraError(outcome.detail);
    default: return kExitFindings;
  }
}

}  // namespace scalefuzz::workflows
