// The campaign file: its in-memory model, the validating YAML loader and the
// matrix expansion into RunSpecs. The schema is documented in
// docs/campaign-file.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/detectors/api/settings.hpp"
#include "scalefuzz/harness/mpi_launcher.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// Any problem with a campaign file. what() is "FILE:LINE:COLUMN: message"
// (1-based) or "FILE: message" when no position applies (unreadable file).
// The CLI maps it to exit code 2. The settings API's error
// (detectors/api settings.hpp): a technique's section reader fails with it too.
using CampaignError = settings::SettingsError;

struct LoadOptions {
  // Substituted for {build}; made absolute. A campaign that uses {build}
  // while this is empty is a load error.
  std::filesystem::path build_dir;
  // The detectors a campaign may name (analysis::detector_names(): the
  // registry of harness/analysis); also the default when it names none.
  std::vector<std::string> detectors;
};

// How a clean exit (code 0) is judged.
// Longest regular expression a check takes: libstdc++'s std::regex compiles
// recursively, one level per term, and a long pattern overflows the stack
// (found by tests/fuzz's campaign fuzzer).
inline constexpr std::size_t kMaxCheckRegexBytes = 1024;

struct ResultCheck {
  enum class Kind {
    ExitCode,         // exit code only
    StdoutRegex,      // wrong result if `pattern` is found in stdout
    StdoutMustMatch,  // wrong result if `pattern` is NOT found in stdout
  };
  // Which output the pattern is searched in: stdout-*, stderr-* or output-* (both).
  enum class Stream { Stdout, Stderr, Both };
  Kind kind = Kind::ExitCode;
  Stream stream = Stream::Stdout;
  std::string pattern;  // std::regex ECMAScript, searched in each line of the stream(s)
};

struct ScaleSet {
  std::vector<int> train;  // process counts the models learn from
  std::vector<int> test;   // process counts that are checked
};

struct Parameter {
  std::string name;                 // identifier, usable as {name}
  std::vector<std::string> values;  // scalars as written in the file
};

struct SchedulerSpec {
  std::string type = "local";  // "local" or "slurm"
  std::string type_origin;     // "FILE:LINE:COLUMN" of scheduler.type, for messages
  int jobs = 1;                // local: runs at once
  // slurm (`scalefuzz submit`, harness/slurm/):
  std::string partition;
  std::string time;     // "MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS"
  std::string account;
  std::string qos;
  int max_parallel = 0;      // array tasks running at once ("%N"); 0 = no limit
  int nodes = 1;             // nodes per run (one array task)
  // Further sbatch options, each "--name" or "--name=value"; only those in
  // supported_sbatch_options() are accepted (they are set through libslurm).
  std::vector<std::string> extra_args;
};

// The sbatch options scheduler.extra_args may hold, as "--name" (a switch)
// or "--name=" (takes a value). harness/slurm maps each onto the job request.
const std::vector<std::string>& supported_sbatch_options();

enum class Oversubscribe { Auto, On, Off };
const char* to_string(Oversubscribe mode);

// Stall fault injection (AutomaDeD §5.2): in every run one rank, drawn from
// the run's seed, stops progressing at the entry of its K-th MPI call, K
// drawn uniformly from 1..calls. The run hangs; the analysis checks whether
// the progress-dependence graph names that rank as least progressed.
struct StallSpec {
  bool enabled = false;
  int calls = 50;  // K is drawn from 1..calls; keep it below the calls a rank makes
};

// Deterministic from the run seed: rank uniform in [0, nprocs), call uniform
// in [1, calls].
StallPoint stall_point(std::uint64_t run_seed, int nprocs, int calls);

// Schedule exploration (`explore:`; docs/campaign-file.md, harness/engine
// explore_runs.hpp): after a point's runs, its wildcard receives are forced
// to their alternative senders from a base run's decision log.
struct ExploreSpec {
  bool enabled = false;       // the key is present
  int depth = 1;              // alternatives forced together
  std::size_t budget = 100;   // forced runs per point at most, shrinking included
};

inline constexpr std::uint64_t kDefaultCampaignSeed = 0x5ca1ef0225eedULL;

struct Campaign {
  std::string name;                    // [A-Za-z0-9_.-]+
  std::filesystem::path file;          // as given to the loader
  std::filesystem::path campaign_dir;  // absolute directory of the file: {campaign_dir}
  std::filesystem::path build_dir;     // absolute: {build}
  // Templates: placeholders are validated at load and substituted per run.
  std::vector<std::string> command;
  std::vector<std::pair<std::string, std::string>> env;  // name -> value, file order
  ResultCheck check;
  ScaleSet scales;
  std::vector<Parameter> parameters;  // file order
  // Default: a single {mode: none}. Settings are normalised: numbers in
  // shortest fixed notation, durations as integer nanoseconds, bandwidth as
  // bytes per second (see docs/campaign-file.md).
  std::vector<NoiseSpec> noise;
  int repetitions = 1;
  std::chrono::milliseconds timeout{60000};
  std::uint64_t seed = kDefaultCampaignSeed;
  std::vector<std::string> detectors;  // default: LoadOptions::detectors (every registered one)
  SchedulerSpec scheduler;
  Oversubscribe oversubscribe = Oversubscribe::Auto;
  std::vector<std::string> mpiexec{"mpiexec"};  // launcher prefix, already interpolated
  // The launcher plug-in (scalefuzz/harness/mpi_launcher.hpp) that starts
  // the ranks: the `launcher:` key, or detected from mpiexec's program
  // (`launcher: auto`, the default; then launcher_detected). Set by the loader.
  const MpiLauncher* launcher = nullptr;
  bool launcher_detected = true;
  // The MPI the application is built against: the `mpi:` key (mpich,
  // openmpi); nullopt for `auto` (the default: read off the application
  // binary's DT_NEEDED when the runs start). It picks the injector where the
  // binary cannot tell (a wrapper script) and must agree with the binary and
  // the launcher (the CLI refuses a mismatch before the first run).
  std::optional<MpiImplementation> mpi;
  StallSpec stall;
  // Each technique's campaign section (its key, e.g. `kcca:`), read by the
  // technique's reader (detectors/<name>/settings/) into its own type, by
  // technique name; a section not in the file is absent (settings_of gives
  // the technique's defaults).
  settings::TechniqueSettings settings;
  ExploreSpec explore;
};

// Reads and validates a campaign file. Throws CampaignError.
Campaign load_campaign(const std::filesystem::path& file, const LoadOptions& options = {});

// Same from text; `origin` names the source in messages and its parent
// directory is {campaign_dir}.
Campaign parse_campaign(const std::string& yaml_text, const std::filesystem::path& origin,
                        const LoadOptions& options = {});

// scales (train, then test) x parameters (cartesian, file order, last one
// fastest) x noise x repetitions, with interpolated argv/env, deterministic
// unique run ids and seeds.
std::vector<RunSpec> expand_campaign(const Campaign& campaign);

// Seed of one run: splitmix64(campaign_seed XOR FNV-1a-64(run_id)).
std::uint64_t derive_run_seed(std::uint64_t campaign_seed, const std::string& run_id);

const std::vector<std::string>& known_noise_modes();  // none, random, system, application, local

// The stored form of `text` as a value of `knob` (durations in ns, bandwidth
// in bytes/s, numbers shortest), exactly as a campaign file's value is
// checked; throws std::invalid_argument naming `what` and the problem.
std::string normalise_noise_knob(const noise::KnobSpec& knob, const std::string& text, const std::string& what);

// `scalefuzz exec --noise-set KNOB=VALUE`: the knob must be one of `mode`'s
// and its value valid with its unit; returns {knob, stored value}. Throws
// std::invalid_argument with a one-line message.
std::pair<std::string, std::string> parse_noise_setting(noise::Mode mode, const std::string& assignment);

// A duration on the command line (exec --timeout, collect --poll), in the
// campaign file's grammar: "30s", "2m", "500ms", "1.5h"; a bare number has no
// unit and is refused. Throws std::invalid_argument with a one-line message
// naming `what`.
std::chrono::nanoseconds parse_duration(const std::string& text, const std::string& what);

// "unknown launcher 'x' (did you mean 'y'?); known: auto, hydra, srun"
std::string unknown_launcher_message(const std::string& name);
// "unknown noise mode 'x' (did you mean 'y'?); known modes: ..."
std::string unknown_noise_mode_message(const std::string& name);
// "mode m has no knob 'k' (did you mean ...?); its knobs: ..."
std::string unknown_noise_knob_message(noise::Mode mode, const std::string& knob);

}  // namespace scalefuzz::harness
