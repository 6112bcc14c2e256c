// Every scalefuzz command's workflow, each taking its typed options: the CLI
// (harness/cli) parses the command line into these and calls one. They print
// to stdout/stderr as the commands do, return an exit code (errors.hpp) and
// throw UsageError / InfraError.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/workflows/diff.hpp"
#include "scalefuzz/workflows/reproduce_plan.hpp"

namespace scalefuzz::workflows {

// `scalefuzz run` (local_run.cpp): plan, launch on the local pool, store,
// analyse, report; with a baseline, the diff's verdict.
struct LocalRunOptions {
  std::filesystem::path campaign_file;
  std::optional<std::filesystem::path> out;        // default out/<campaign name>
  std::optional<std::filesystem::path> build_dir;  // default: default_build_dir()
  std::optional<std::string> filter;
  std::optional<int> jobs;  // default: scheduler.jobs
  bool dry_run = false;
  std::optional<std::filesystem::path> baseline;
  BaselineOptions baseline_options;
  std::string command_line;  // stored with the results
};
int run_campaign(const LocalRunOptions& options);

// `scalefuzz exec` (exec.cpp): one command under the injector into a run directory.
struct ExecOptions {
  std::vector<std::string> command;  // mpiexec ... -n N app args
  std::string launcher = "auto";
  std::string noise = "none";
  std::vector<std::string> noise_settings;  // KEY=VAL
  std::optional<std::string> check;         // KIND=REGEX or exit-code
  std::optional<std::uint64_t> seed;        // default: a fresh one
  std::chrono::milliseconds timeout{300000};
  std::string oversubscribe = "auto";
  std::string mpi = "auto";
  std::optional<std::string> stall;  // RANK:CALL
  bool record = true;
  std::filesystem::path out = "out/exec";
};
int exec_command(const ExecOptions& options);

// `scalefuzz reproduce` (reproduce.cpp): one point under escalating noise.
struct ReproduceOptions {
  std::filesystem::path campaign_file;
  ReproduceTarget target = ReproduceTarget::Any;
  int max_runs = 12;
  std::optional<std::filesystem::path> out;  // default out/<campaign name>-reproduce
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::string> filter;
  std::string command_line;
};
int reproduce(const ReproduceOptions& options);

// `scalefuzz explore` (explore_run.cpp).
struct ExploreOptions {
  std::filesystem::path run_dir;
  int depth = 1;
  std::size_t budget = 100;
  std::optional<std::filesystem::path> out;  // default out/<run id>-explore
};
int explore_recorded_run(const ExploreOptions& options);

// `scalefuzz replay` (replay_recorded.cpp), here or as a SLURM job (slurm_campaign.cpp).
struct ReplayOptions {
  std::filesystem::path run_dir;
  int times = 1;
  bool with_noise = false;  // default: none, the log decides the matches
  bool submit = false;      // as one SLURM batch job
};
int replay(const ReplayOptions& options);
int replay_recorded_run(const std::filesystem::path& run_dir, int times, bool with_noise);
int submit_replay(const std::filesystem::path& run_dir, int times, bool with_noise);

// `scalefuzz analyze` / `report` (stored_results.cpp).
int analyze_results(const std::filesystem::path& dir);
int report_results(const std::filesystem::path& dir);

// `scalefuzz kcca-eval`: a technique's model evaluation command
// (model_evaluation.cpp); `command` finds the technique in the registry.
struct ModelEvaluationRequest {
  std::string command;
  std::filesystem::path dir;
  int folds = 5;
  bool sensitivity = false;
};
int evaluate_model(const ModelEvaluationRequest& request);

// `scalefuzz trace` (trace_print.cpp).
struct TraceOptions {
  std::filesystem::path run_dir;
  std::optional<int> rank;  // default: every rank
  bool symbols = true;
};
int print_trace(const TraceOptions& options);

// SLURM campaigns (slurm_campaign.cpp; libslurm and the array plans in harness/slurm).
struct SubmitOptions {
  std::filesystem::path campaign_file;
  std::optional<std::filesystem::path> out;
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::string> filter;
  bool dry_run = false;
};
int submit_campaign(const SubmitOptions& options);
// Resubmits the runs of `out` without a result or with a rerunnable one.
int resubmit_campaign(const std::filesystem::path& out, bool dry_run);
// One array task: run `index` (as given on the command line) of `out`.
int run_task(const std::filesystem::path& out, const std::string& index);
int show_status(const std::filesystem::path& out);
struct CollectOptions {
  std::filesystem::path out;
  bool wait = false;
  std::chrono::milliseconds poll{2000};
  std::string command_line;
};
int collect(const CollectOptions& options);

}  // namespace scalefuzz::workflows
