// scalefuzz submit / task / status / collect: a campaign as SLURM job arrays.
// The planning, the job-array bookkeeping and the libslurm calls live in
// harness/slurm; this file is the workflow (submission, resubmit policy, the
// task's launch, collecting into the store, reports).
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/finish.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/engine/ninja_dependency.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/engine/scheduler.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/workflows/run_command.hpp"
#include "scalefuzz/workflows/slurm_campaign.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_filter.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/slurm/client.hpp"
#include "scalefuzz/slurm/submission.hpp"
#include "scalefuzz/injector/env.hpp"

extern char** environ;

namespace scalefuzz::workflows {

namespace fs = std::filesystem;
using slurm::Submission;
using slurm::TaskState;
using slurm::TaskStatus;
using TaskKey = std::pair<std::uint32_t, long>;

namespace {

fs::path self_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw InfraError("cannot find this scalefuzz executable (/proc/self/exe): " + ec.message());
  return exe;
}

// SLURM expands % and \ in output paths; a newline cannot be in a path SLURM keeps.
fs::path checked_out_dir(const fs::path& out) {
  const std::string s = out.string();
  if (s.find_first_of("%\\\n\r") != std::string::npos)
    throw UsageError("--out '" + s + "': SLURM output paths cannot contain %, \\ or line breaks");
  return fs::absolute(out).lexically_normal();
}

Submission read_submission_or_usage(const fs::path& out) {
  try {
    return slurm::read_submission(out);
  } catch (const slurm::SubmissionError& e) {
    throw UsageError(e.what());
  }
}

std::vector<harness::RunSpec> read_runs_or_usage(const fs::path& out) {
  try {
    return slurm::read_runs(out);
  } catch (const slurm::SubmissionError& e) {
    throw UsageError(e.what());
  }
}

// The campaign file as submit stored it, parsed as if still in its own
// directory ({campaign_dir} and relative paths mean what they meant).
harness::Campaign submitted_campaign(const fs::path& out, const Submission& submission) {
  const fs::path file = slurm::slurm_dir(out) / "campaign.yaml";
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    harness::LoadOptions options;
    options.build_dir = submission.build_dir;
    options.detectors = analysis::detector_names();
    return harness::parse_campaign(text.str(), submission.campaign_dir / "campaign.yaml", options);
  } catch (const harness::CampaignError& e) {
    throw UsageError(file.string() + " (stored by submit): " + e.what());
  }
}

std::vector<std::string> submit_environment() {
  std::vector<std::string> env;
  bool has_conf = false;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    // A submission from inside another job must not pass that job's identity on.
    if (entry.rfind("SLURM_", 0) == 0 && entry.rfind("SLURM_CONF=", 0) != 0) continue;
    has_conf = has_conf || entry.rfind("SLURM_CONF=", 0) == 0;
    env.push_back(entry);
  }
  if (!has_conf) env.push_back("SLURM_CONF=" + slurm::slurm_config_file().string());
  return env;
}

}  // namespace

// The run indices a resubmission takes: not active in SLURM, and without a
// result or with a rerunnable one (cancelled, infrastructure).
std::vector<long> runs_to_resubmit(const fs::path& out, const std::vector<harness::RunSpec>& runs,
                                   const Submission& submission,
                                   const std::map<TaskKey, TaskStatus>& states) {
  const auto latest = submission.latest_tasks();
  std::vector<long> todo;
  for (long i = 0; i < static_cast<long>(runs.size()); ++i) {
    if (auto it = latest.find(i); it != latest.end() && !submission.dry_run) {
      auto st = states.find(it->second);
      if (st != states.end() && slurm::is_active(st->second.state)) continue;
    }
    std::optional<harness::Outcome> outcome;
    try {
      outcome = harness::read_outcome(out / "runs" / runs[static_cast<std::size_t>(i)].run_id);
    } catch (const std::exception&) {
      // unreadable: rerun
    }
    if (!outcome || harness::is_rerunnable(outcome->kind)) todo.push_back(i);
  }
  return todo;
}

void submit_arrays(const fs::path& out, Submission& submission, const std::vector<harness::RunSpec>& runs,
                   const std::vector<long>& selected, const harness::SchedulerSpec& settings,
                   engine::BatchScheduler* scheduler) {
  const bool dry_run = scheduler == nullptr;
  const int attempt = submission.attempts();
  auto arrays = slurm::plan_arrays(runs, selected, submission.max_array_size);
  const fs::path scripts = slurm::slurm_dir(out) / "scripts";
  const fs::path logs = slurm::slurm_dir(out) / "logs";
  fs::create_directories(scripts);
  fs::create_directories(logs);
  std::vector<std::uint32_t> first_phase_jobs;
  std::vector<std::string> env;
  if (!dry_run) env = submit_environment();
  for (const auto& plan : arrays) {
    slurm::ArrayRecord record;
    record.attempt = attempt;
    record.plan = plan;
    record.array_inx = plan.array_inx(settings.max_parallel);
    if (plan.phase == slurm::Phase::Application && !first_phase_jobs.empty()) {
      record.dependency = "afterany";
      for (auto id : first_phase_jobs) record.dependency += ":" + std::to_string(id);
    }
    const std::string script = slurm::batch_script(submission.campaign, submission.scalefuzz, out, plan);
    record.script = scripts / ("attempt" + std::to_string(attempt) + "-array" + std::to_string(&plan - arrays.data()) + ".sh");
    harness::write_file_atomic(record.script, script);
    record.submitted_at = harness::utc_timestamp_now();
    if (!dry_run) {
      slurm::JobRequest request;
      request.name = "scalefuzz-" + submission.campaign;
      request.script = script;
      request.work_dir = out;
      request.std_out = (logs / "%A_%a.out").string();
      request.array_inx = record.array_inx;
      request.dependency = record.dependency;
      request.partition = settings.partition;
      request.account = settings.account;
      request.qos = settings.qos;
      request.time_minutes = slurm::time_limit_minutes(settings.time);
      request.nodes = settings.nodes;
      request.num_tasks = plan.nprocs;
      request.extra_args = settings.extra_args;
      request.environment = env;
      record.job_id = scheduler->submit(request);
      if (plan.phase == slurm::Phase::First) first_phase_jobs.push_back(record.job_id);
    }
    const auto indices = plan.run_indices();
    std::cout << (dry_run ? "would submit" : "submitted job array " + std::to_string(record.job_id)) << ": "
              << plan.task_ids.size() << " runs at " << plan.nprocs << " ranks (runs " << indices.front() << "…"
              << indices.back() << ", --array=" << record.array_inx
              << (record.dependency.empty() ? "" : ", --dependency=" + record.dependency) << ") script "
              << record.script.string() << "\n";
    submission.arrays.push_back(std::move(record));
    slurm::write_submission(out, submission);
  }
}

namespace {

void remove_stale_outcomes(const fs::path& out, const std::vector<harness::RunSpec>& runs,
                           const std::vector<long>& selected) {
  for (long i : selected) {
    std::error_code ec;
    fs::remove(harness::RunDir(out / "runs" / runs[static_cast<std::size_t>(i)].run_id).outcome_file(), ec);
  }
}

std::map<TaskKey, TaskStatus> task_states(engine::BatchScheduler& scheduler, const Submission& s) {
  std::set<std::uint32_t> ids;
  for (const auto& a : s.arrays)
    if (a.job_id != 0) ids.insert(a.job_id);
  return scheduler.task_states(ids);
}

// The batch scheduler of `scheduler: {type: slurm}` (the only batch type the
// campaign schema accepts). Throws slurm::SlurmError when SLURM is not configured.
std::unique_ptr<engine::BatchScheduler> batch_scheduler() { return std::make_unique<slurm::SlurmClient>(); }

int submit_resume(const fs::path& out_arg, bool dry_run) {
  const fs::path out = checked_out_dir(out_arg);
  Submission submission = read_submission_or_usage(out);
  const auto runs = read_runs_or_usage(out);
  const harness::Campaign campaign = submitted_campaign(out, submission);
  std::unique_ptr<engine::BatchScheduler> scheduler;
  std::map<TaskKey, TaskStatus> states;
  if (!dry_run) {
    scheduler = batch_scheduler();
    states = task_states(*scheduler, submission);
    submission.max_array_size = scheduler->max_array_size();
  }
  submission.dry_run = dry_run;
  const auto todo = runs_to_resubmit(out, runs, submission, states);
  if (todo.empty()) {
    std::cout << "nothing to resubmit: every run of " << out.string() << " has a result or is still queued\n";
    return kExitOk;
  }
  std::cout << "resubmitting " << todo.size() << " of " << runs.size() << " runs:";
  for (long i : todo) std::cout << " " << runs[static_cast<std::size_t>(i)].run_id;
  std::cout << "\n";
  if (!dry_run) remove_stale_outcomes(out, runs, todo);
  submit_arrays(out, submission, runs, todo, campaign.scheduler, scheduler.get());
  return kExitOk;
}

}  // namespace

int resubmit_campaign(const fs::path& out, bool dry_run) {
  try {
    return submit_resume(out, dry_run);
  } catch (const slurm::SlurmError& e) {
    throw InfraError(e.what());
  } catch (const slurm::SubmissionError& e) {
    throw UsageError(e.what());
  }
}

int submit_campaign(const SubmitOptions& options) {
  const bool dry_run = options.dry_run;
  try {
    const fs::path campaign_file = options.campaign_file;
    const fs::path build_dir = options.build_dir.value_or(default_build_dir());
    harness::Campaign campaign = load_campaign_file(campaign_file, build_dir);
    if (campaign.scheduler.type != "slurm")
      throw UsageError(campaign_file.string() + ": scheduler type is '" + campaign.scheduler.type +
                       "'; 'scalefuzz submit' needs scheduler: {type: slurm, ...} (use 'scalefuzz run' to run locally)");
    check_detectors(campaign);
    auto runs = selected_runs(campaign, options.filter);
    if (runs.empty()) throw UsageError("no run matches --filter");
    slurm::order_for_submission(runs);
    const fs::path out = checked_out_dir(options.out.value_or(fs::path("out") / campaign.name));
    if (slurm::has_submission(out) && !slurm::read_submission(out).dry_run)
      throw UsageError(out.string() + " already holds a submitted campaign; use 'scalefuzz submit --resume " +
                       out.string() + "' or another --out");

    Submission submission;
    submission.campaign = campaign.name;
    submission.campaign_dir = campaign.campaign_dir;
    submission.build_dir = fs::absolute(build_dir);
    submission.scalefuzz = self_executable();
    try {
      submission.injector = campaign_injector(campaign, runs);
    } catch (const InfraError&) {
      if (!dry_run) throw;
      submission.injector = "libscalefuzz_inject.so";
    }
    submission.launcher = std::string(campaign.launcher->name());
    submission.mpiexec = campaign.mpiexec;
    submission.oversubscribe = harness::to_string(campaign.oversubscribe);
    submission.nodes = campaign.scheduler.nodes;
    submission.dry_run = dry_run;
    std::unique_ptr<engine::BatchScheduler> scheduler;
    if (!dry_run) {
      scheduler = batch_scheduler();
      submission.max_array_size = scheduler->max_array_size();
    }
    const auto limit = slurm::time_limit_minutes(campaign.scheduler.time);
    if (limit > 0 && campaign.timeout >= std::chrono::minutes(limit))
      std::cerr << "warning: the campaign's timeout (" << campaign.timeout.count() / 1000
                << " s) is not below scheduler.time (" << limit
                << " min): SLURM will kill hung runs before the harness watchdog takes their stacks\n";

    fs::create_directories(slurm::slurm_dir(out));
    {
      std::ifstream in(campaign_file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      harness::write_file_atomic(slurm::slurm_dir(out) / "campaign.yaml", text.str());
    }
    slurm::write_runs(out, runs);
    slurm::write_submission(out, submission);
    std::vector<long> all(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) all[i] = static_cast<long>(i);
    submit_arrays(out, submission, runs, all, campaign.scheduler, scheduler.get());
    if (dry_run) {
      std::cout << "# " << runs.size() << " runs; scripts written to " << (slurm::slurm_dir(out) / "scripts").string()
                << ", nothing was submitted (--dry-run)\n";
    } else {
      std::cout << runs.size() << " runs submitted; follow them with: scalefuzz status " << out.string()
                << "\nthen: scalefuzz collect " << out.string() << " --wait\n";
    }
    return kExitOk;
  } catch (const slurm::SlurmError& e) {
    throw InfraError(e.what());
  } catch (const slurm::SubmissionError& e) {
    throw UsageError(e.what());
  }
}

// One array task: one run, launched as a local run inside the allocation;
// it writes only OUT/runs/<run id>/.
int run_task(const fs::path& out_arg, const std::string& index_text) {
  const fs::path out = fs::absolute(out_arg);
  long index = -1;
  try {
    std::size_t used = 0;
    index = std::stol(index_text, &used);
    if (used != index_text.size()) index = -1;
  } catch (const std::exception&) {
  }
  const Submission submission = read_submission_or_usage(out);
  const auto runs = read_runs_or_usage(out);
  if (index < 0 || index >= static_cast<long>(runs.size()))
    throw UsageError("run index '" + index_text + "' is not in 0.." + std::to_string(runs.size() - 1));
  const harness::RunSpec& run = runs[static_cast<std::size_t>(index)];
  const fs::path dir = out / "runs" / run.run_id;

  std::error_code ec;
  fs::remove_all(dir, ec);  // an earlier attempt's leftovers belong to no result
  fs::create_directories(dir, ec);
  if (ec) throw InfraError(dir.string() + ": cannot create the run directory: " + ec.message());
  harness::write_file_atomic(harness::RunDir(dir).spec_file(), harness::dump_json(nlohmann::json(run)) + "\n");

  harness::LaunchOptions options;
  options.run_dir = dir;
  options.injector_lib = submission.injector;
  options.env[injector::env_name(injector::Env::Oversubscribe)] = submission.oversubscribe;
  options.mpiexec = submission.mpiexec;
  options.launcher = harness::find_mpi_launcher(submission.launcher);
  if (!options.launcher)
    throw UsageError((slurm::slurm_dir(out) / "submission.json").string() + ": " +
                     harness::unknown_launcher_message(submission.launcher));
  for (const auto& [k, v] : options.launcher->allocation_environment(submission.nodes)) options.env[k] = v;
  std::optional<fs::path> analysis;  // an application-centric run's system-centric run
  if (run.noise.mode == noise::Mode::Application) {
    std::vector<harness::RunRecord> records;
    for (const auto& r : runs) {
      harness::RunRecord rec;
      rec.spec = r;
      rec.dir = out / "runs" / r.run_id;
      try {
        rec.outcome = harness::read_outcome(rec.dir);
      } catch (const std::exception&) {
      }
      records.push_back(std::move(rec));
    }
    analysis = engine::ninja_analysis_for(run, records);
    if (!analysis) {
      harness::Outcome outcome;
      outcome.kind = harness::OutcomeKind::LaunchError;
      outcome.exit_code = -1;
      outcome.detail = engine::missing_analysis_message(run);
      harness::write_outcome(dir, outcome);
      std::cerr << "scalefuzz task: " << outcome.detail << "\n";
      return kExitOk;
    }
  }
  harness::become_subreaper();
  const harness::Outcome outcome = engine::launch_run(run, options, analysis);
  std::cout << run.run_id << ": " << harness::to_string(outcome.kind)
            << (outcome.detail.empty() ? "" : " (" + outcome.detail + ")") << "\n";
  return kExitOk;  // the run's outcome is in its directory; SLURM's state says whether the task itself worked
}

namespace {

struct RunView {
  long index = 0;
  std::optional<TaskKey> task;
  std::optional<TaskStatus> status;
  std::optional<harness::Outcome> outcome;  // from outcome.json
};

std::vector<RunView> view_runs(const fs::path& out, const std::vector<harness::RunSpec>& runs,
                               const Submission& submission, const std::map<TaskKey, TaskStatus>& states) {
  const auto latest = submission.latest_tasks();
  std::vector<RunView> views;
  for (long i = 0; i < static_cast<long>(runs.size()); ++i) {
    RunView v;
    v.index = i;
    if (auto it = latest.find(i); it != latest.end() && it->second.first != 0) {
      v.task = it->second;
      if (auto st = states.find(it->second); st != states.end()) v.status = st->second;
    }
    try {
      v.outcome = harness::read_outcome(out / "runs" / runs[static_cast<std::size_t>(i)].run_id);
    } catch (const std::exception&) {
    }
    views.push_back(std::move(v));
  }
  return views;
}

bool active(const RunView& v) { return v.status && slurm::is_active(v.status->state); }

}  // namespace

int show_status(const fs::path& out_arg) {
  const fs::path out = fs::absolute(out_arg);
  const Submission submission = read_submission_or_usage(out);
  const auto runs = read_runs_or_usage(out);
  std::map<TaskKey, TaskStatus> states;
  std::string slurm_problem;
  try {
    states = task_states(*batch_scheduler(), submission);
  } catch (const slurm::SlurmError& e) {
    slurm_problem = e.what();
  }
  std::map<std::string, int> by_state;
  bool bad_outcome = false, rerunnable = false;
  std::cout << "run                                      task          SLURM state    outcome\n";
  for (const auto& v : view_runs(out, runs, submission, states)) {
    const auto& run = runs[static_cast<std::size_t>(v.index)];
    std::string task = v.task ? slurm::task_name(v.task->first, v.task->second) : "-";
    std::string state = v.status ? slurm::to_string(v.status->state) : (v.task ? "(not known)" : "(not submitted)");
    if (v.status && v.status->state == TaskState::Pending && !v.status->reason.empty() && v.status->reason != "None")
      state += " (" + v.status->reason + ")";
    std::string outcome = "-";
    if (v.outcome && !active(v)) {
      outcome = harness::to_string(v.outcome->kind);
      if (!v.outcome->detail.empty()) outcome += ": " + v.outcome->detail;
      bad_outcome = bad_outcome || (v.outcome->kind != harness::OutcomeKind::Ok && v.outcome->kind != harness::OutcomeKind::Skipped &&
                                    !harness::is_rerunnable(v.outcome->kind));
      rerunnable = rerunnable || harness::is_rerunnable(v.outcome->kind);
    } else if (v.status && !active(v)) {
      if (auto o = slurm::outcome_without_result(*v.status)) {
        outcome = std::string(harness::to_string(o->kind)) + " (not collected)";
        rerunnable = rerunnable || harness::is_rerunnable(o->kind);
        bad_outcome = bad_outcome || !harness::is_rerunnable(o->kind);
      }
    }
    ++by_state[v.status ? slurm::to_string(v.status->state) : "unknown"];
    std::string id = run.run_id;
    if (id.size() < 40) id.resize(40, ' ');
    if (task.size() < 13) task.resize(13, ' ');
    std::string st = state;
    if (st.size() < 14) st.resize(14, ' ');
    std::cout << id << " " << task << " " << st << " " << outcome << "\n";
  }
  std::cout << runs.size() << " runs:";
  for (const auto& [state, n] : by_state) std::cout << " " << n << " " << state;
  std::cout << "\n";
  if (!slurm_problem.empty()) {
    std::cerr << "scalefuzz status: SLURM not reachable: " << slurm_problem << "\n";
    return kExitInfra;
  }
  if (rerunnable)
    std::cout << "cancelled or infrastructure-failed runs: scalefuzz submit --resume " << out.string() << "\n";
  // As collect: what the runs found first, then what kept runs from finishing.
  if (bad_outcome) return kExitFindings;
  return rerunnable ? kExitInfra : kExitOk;
}

int collect(const CollectOptions& options) {
  const fs::path out = fs::absolute(options.out);
  const std::chrono::milliseconds poll = options.poll;
  const Submission submission = read_submission_or_usage(out);
  if (submission.dry_run) throw UsageError(out.string() + " holds a dry run: nothing was submitted");
  const auto runs = read_runs_or_usage(out);

  std::unique_ptr<engine::BatchScheduler> scheduler;
  std::map<TaskKey, TaskStatus> states;
  try {
    scheduler = batch_scheduler();
    states = task_states(*scheduler, submission);
    if (options.wait) {
      std::string last;
      for (;;) {
        std::size_t running = 0, pending = 0, ended = 0;
        for (const auto& v : view_runs(out, runs, submission, states)) {
          if (v.status && v.status->state == TaskState::Pending) ++pending;
          else if (active(v)) ++running;
          else ++ended;
        }
        std::ostringstream line;
        line << "collect: " << ended << "/" << runs.size() << " tasks ended, " << running << " running, " << pending
             << " pending";
        if (line.str() != last) std::cerr << line.str() << "\n";
        last = line.str();
        if (running + pending == 0) break;
        std::this_thread::sleep_for(poll);
        states = task_states(*scheduler, submission);
      }
    }
  } catch (const slurm::SlurmError& e) {
    // Results already in run directories can still be collected.
    std::cerr << "scalefuzz collect: SLURM not reachable (" << e.what() << "); collecting what the tasks wrote\n";
    scheduler.reset();
    if (options.wait) throw InfraError(std::string("cannot wait: ") + e.what());
  }

  // Only collect writes the store.
  const fs::path stored = slurm::slurm_dir(out) / "campaign.yaml";
  const harness::Campaign campaign = submitted_campaign(out, submission);
  harness::RunStore store = open_campaign_store(out, campaign, stored, submission.build_dir, options.command_line);

  std::size_t collected = 0, unchanged = 0, waiting = 0, rerunnable = 0;
  for (const auto& v : view_runs(out, runs, submission, states)) {
    const auto& run = runs[static_cast<std::size_t>(v.index)];
    if (!v.task || active(v)) {
      ++waiting;
      continue;
    }
    const std::string task = slurm::task_name(v.task->first, v.task->second);
    const std::string key = "slurm_task:" + run.run_id;
    std::optional<harness::Outcome> outcome = v.outcome;
    if (!outcome && v.status) outcome = slurm::outcome_without_result(*v.status);
    if (!outcome && scheduler) {
      // Neither a result nor a task SLURM still knows (purged after MinJobAge, or a lost controller state).
      harness::Outcome lost;
      lost.kind = harness::OutcomeKind::Infrastructure;
      lost.exit_code = -1;
      lost.detail = "SLURM task " + task + " is unknown to the controller and wrote no result";
      outcome = lost;
    }
    if (!outcome) {
      ++waiting;
      continue;
    }
    if (harness::is_rerunnable(outcome->kind)) ++rerunnable;
    // replay.txt as `scalefuzz run` leaves it (the exact `scalefuzz replay`
    // first); also for runs an older scalefuzz collected without it.
    const auto write_replay = [&] {
      write_stored_run_replay(store, run, submission.mpiexec, submission.oversubscribe,
                              harness::find_mpi_launcher(submission.launcher));
    };
    if (store.is_finished(run.run_id) && store.meta(key) == task) {
      if (!fs::exists(store.run_dir(run.run_id) / "replay.txt")) write_replay();
      ++unchanged;
      continue;
    }
    store.record_finished(run, *outcome);
    store.set_meta(key, task);
    write_replay();
    ++collected;
  }
  std::cout << "collected " << collected << " runs (" << unchanged << " already collected, " << waiting
            << " not ended or not submitted)\n";
  if (waiting == 0 && (collected > 0 || !store.meta("finished_at"))) store.set_meta("finished_at", harness::utc_timestamp_now());
  int code = analyze_and_report(store, detector_set(campaign), campaign.settings);
  if (rerunnable > 0) {
    std::cout << rerunnable << " runs were cancelled or lost to the infrastructure; resubmit them with: scalefuzz submit --resume "
              << out.string() << "\n";
    if (code == kExitOk) code = kExitInfra;
  }
  return code;
}

int submit_replay(const fs::path& run_dir_arg, int times, bool with_noise) {
  const fs::path run_dir = fs::absolute(run_dir_arg);
  harness::RunSpec spec;
  try {  // refused here, as `replay` would refuse it in the job, before anything is submitted
    spec = engine::check_replayable(run_dir).spec;
  } catch (const engine::ReplayRefused& e) {
    throw UsageError(e.what());
  }
  std::vector<std::string> argv = {self_executable().string(), "replay", run_dir.string(), "--times",
                                   std::to_string(times)};
  if (with_noise) argv.push_back("--with-noise");
  const fs::path replays = run_dir / "replays";
  fs::create_directories(replays);
  slurm::JobRequest request;
  request.name = "scalefuzz-replay-" + spec.run_id;
  // Every word quoted: the run directory is the user's path.
  request.script = "#!/bin/sh\n# scalefuzz replay through SLURM: the replays run in this job's allocation\nexec " +
                   joined_for_shell(argv) + "\n";
  request.work_dir = run_dir;
  request.std_out = (replays / "slurm-%j.out").string();
  request.num_tasks = spec.nprocs;
  try {
    request.environment = submit_environment();
    const std::uint32_t job = batch_scheduler()->submit(request);
    std::cout << "submitted replay job " << job << " (" << times << " replay" << (times == 1 ? "" : "s") << " of "
              << spec.run_id << "); its verdict ('reproduced K/" << times << "') will be in "
              << (replays / ("slurm-" + std::to_string(job) + ".out")).string() << "\n";
  } catch (const slurm::SlurmError& e) {
    throw InfraError(e.what());
  }
  return kExitOk;
}

}  // namespace scalefuzz::workflows
