// launch_local: one run from spawn to a classified, persisted Outcome.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>

#include "scalefuzz/harness/child_process.hpp"
#include "proc_table.hpp"
#include "scalefuzz/trace/format.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "classify.hpp"
#include "scalefuzz/injector/env.hpp"
#include "abort_record.hpp"
#include "outcome_json.hpp"
#include "run_processes.hpp"
#include "run_setup.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "stack_capture.hpp"

namespace scalefuzz::harness {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

long long millis_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

std::string format_seconds(std::chrono::milliseconds ms) {
  std::ostringstream s;
  s << static_cast<double>(ms.count()) / 1000.0 << "s";
  return s.str();
}

std::string join_pids(const std::vector<long>& pids) {
  std::string out;
  for (long p : pids) out += (out.empty() ? "" : " ") + std::to_string(p);
  return out;
}

// Rank -> pid as the injector recorded it in each rank's trace header
// (ranks/N.live): the ranks' own word on which process is which rank.
std::map<int, long> recorded_rank_pids(const std::filesystem::path& run_dir) {
  std::map<int, long> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(RunDir(run_dir).ranks_dir(), ec)) {
    if (entry.path().extension() != ".live") continue;
    trace::FileHeader header{};
    std::ifstream in(entry.path(), std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) continue;
    if (std::memcmp(header.magic, trace::kMagic, sizeof header.magic) != 0 ||
        header.kind != static_cast<std::uint32_t>(trace::FileKind::Live) || header.rank < 0 || header.pid <= 0)
      continue;
    out[header.rank] = static_cast<long>(header.pid);
  }
  return out;
}

// Waits for the run, handles its timeout and classifies it (below).
Outcome supervise(const RunSpec& spec, const LaunchOptions& options, RunProcesses& processes, long root,
                  Clock::time_point started, nlohmann::json& extra,
                  const std::function<Outcome(Outcome)>& finish);

}  // namespace

void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
}

Outcome launch_local(const RunSpec& spec, const LaunchOptions& options) {
  become_subreaper();
  const auto started = Clock::now();
  const auto& run_dir = options.run_dir;
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec) throw std::runtime_error("cannot create run directory " + run_dir.string() + ": " + ec.message());
  const auto stdout_path = RunDir(run_dir).stdout_file();
  const auto stderr_path = RunDir(run_dir).stderr_file();
  std::filesystem::remove_all(run_dir / "stacks", ec);  // left over from an earlier attempt
  std::filesystem::remove(RunDir(run_dir).stall_marker(), ec);       // injectors/stall marker, likewise

  const std::string launch_id = new_launch_id();
  auto env = run_environment(spec, options, launch_id);
  nlohmann::json extra = {{"run_id", spec.run_id}, {"launch_id", launch_id}};

  auto finish = [&](Outcome outcome) -> Outcome {
    outcome.wall_seconds = seconds_since(started);
    // Ranks that never returned from MPI_Finalize (a hang, a crash, a kill)
    // left raw 128-byte records: pack them now that no process of the run
    // writes (not if one survived the kill), so a campaign of hangs stays
    // small. SCALEFUZZ_TRACE_ENCODING=raw keeps raw files, as in the injector.
    const auto encoding = env.find(injector::env_name(injector::Env::TraceEncoding));
    if (!extra.contains("survivors") && (encoding == env.end() || encoding->second != "raw")) {
      const auto packing = trace::pack_leftover_files(run_dir);
      if (packing.ranks_packed > 0 || !packing.kept_raw.empty())
        extra["leftover_traces_packed"] = {{"ranks", packing.ranks_packed},
                                           {"bytes_before", packing.bytes_before},
                                           {"bytes_after", packing.bytes_after},
                                           {"kept_raw", packing.kept_raw}};
    }
    if (auto abort = find_abort_record(run_dir, spec.nprocs)) {
      apply_abort_record(outcome, *abort);
      extra["mpi_abort"] = {{"rank", abort->rank}, {"error_code", abort->error_code}, {"call_site", abort->call_site}};
    }
    write_outcome_file(run_dir, outcome, extra);
    return outcome;
  };
  auto launch_error = [&](const std::string& detail) -> Outcome {
    std::ofstream(stdout_path, std::ios::trunc);
    std::ofstream(stderr_path, std::ios::trunc) << "scalefuzz: " << detail << "\n";
    Outcome outcome;
    outcome.kind = OutcomeKind::LaunchError;
    outcome.exit_code = -1;
    outcome.detail = detail;
    return finish(outcome);
  };

  std::filesystem::path mpiexec_path;
  if (auto problem = preflight(spec, options, env, mpiexec_path)) return launch_error(*problem);

  SpawnRequest request;
  request.executable = mpiexec_path;
  const auto command = launch_command(spec, options);
  request.args.assign(command.begin() + 1, command.end());
  request.environment = env;
  request.stdout_path = stdout_path;
  request.stderr_path = stderr_path;
  request.own_process_group = true;
  request.kill_with_parent = true;
  request.own_pid_namespace = launcher_of(options).own_pid_namespace();
  long root = 0;
  try {
    root = spawn_child(request);
  } catch (const std::exception& e) {
    return launch_error(e.what());
  }

  RunProcesses processes(root, kLaunchIdVar, launch_id, launcher_of(options).rank_variable());
  try {
    return supervise(spec, options, processes, root, started, extra, finish);
  } catch (const LaunchCancelled&) {
    throw;  // its processes are already gone
  } catch (...) {
    // Whatever went wrong in here, the run's processes must not outlive it.
    processes.kill_and_reap(std::chrono::seconds(5));
    throw;
  }
}

namespace {

// The run passed its deadline: freeze it, let the hook look, take the
// stacks, then kill and reap everything.
Outcome handle_timeout(const RunSpec& spec, const LaunchOptions& options, RunProcesses& processes,
                       nlohmann::json& extra, std::vector<long>& survivors) {
  Outcome outcome;
  auto t0 = Clock::now();
  processes.freeze();
  processes.set_recorded_pids(recorded_rank_pids(options.run_dir));
  auto ranks = processes.ranks();
  nlohmann::json others = nlohmann::json::array();
  for (long pid : processes.others()) {
    const auto stat = proc::read_stat(pid);
    others.push_back({{"pid", pid}, {"ppid", stat ? stat->ppid : 0}, {"command", proc::command_name(pid)}});
  }
  if (!others.empty()) extra["other_processes"] = others;
  long long freeze_ms = millis_since(t0);
  std::string hook_problem;
  if (options.on_frozen) {
    std::vector<long> pids;
    for (const auto& r : ranks) pids.push_back(r.second);
    try {
      options.on_frozen(pids);
    } catch (const std::exception& e) {
      hook_problem = std::string("; on_frozen hook failed: ") + e.what();
    }
  }
  auto t1 = Clock::now();
  outcome.stacks = capture_stacks(ranks, options.run_dir / "stacks", options.stack_source_lines,
                                  options.stack_parallelism);
  long long stacks_ms = millis_since(t1);
  auto t2 = Clock::now();
  survivors = processes.kill_and_reap(std::chrono::seconds(5));
  long long kill_ms = millis_since(t2);
  extra["timing_ms"] = {{"freeze", freeze_ms}, {"stacks", stacks_ms}, {"kill", kill_ms}};
  outcome.kind = OutcomeKind::Hang;
  outcome.exit_code = -1;
  outcome.detail = "timeout after " + format_seconds(spec.timeout) + "; stacks of " +
                   std::to_string(ranks.size()) + " of " + std::to_string(spec.nprocs) +
                   " ranks captured" +
                   (others.empty() ? "" : "; " + std::to_string(others.size()) + " other processes of the run killed") +
                   hook_problem;
  return outcome;
}

Outcome supervise(const RunSpec& spec, const LaunchOptions& options, RunProcesses& processes, long root,
                  Clock::time_point started, nlohmann::json& extra,
                  const std::function<Outcome(Outcome)>& finish) {
  const auto& run_dir = options.run_dir;
  const auto stdout_path = RunDir(run_dir).stdout_file();
  const auto stderr_path = RunDir(run_dir).stderr_file();
  ChildExitWaiter waiter(root);
  const auto deadline = started + spec.timeout;
  // Scan often at first (ranks can crash early and we want their pid ->
  // rank mapping), then back off: a scan reads all of /proc/*/stat.
  auto scan_interval = std::chrono::milliseconds(20);
  std::optional<int> status;
  for (;;) {
    auto next_scan = std::min(deadline, Clock::now() + scan_interval);
    status = waiter.wait_until(next_scan);
    if (status || Clock::now() >= deadline) break;
    if (options.cancel && options.cancel->load()) {
      processes.adopt_marked();
      const auto survivors = processes.kill_and_reap(std::chrono::milliseconds(1500));
      throw LaunchCancelled("run " + spec.run_id + " cancelled" +
                            (survivors.empty() ? "" : "; processes survived the kill: " + join_pids(survivors)));
    }
    processes.scan();
    scan_interval = std::min(std::chrono::milliseconds(250), scan_interval * 3 / 2);
  }

  Outcome outcome;
  std::vector<long> survivors;
  if (status) {
    processes.mark_root_reaped();
    processes.set_recorded_pids(recorded_rank_pids(run_dir));
    // mpiexec is gone; anything of the run still around is a leftover.
    survivors = processes.kill_and_reap(std::chrono::seconds(5));
    outcome = classify_exit(spec, *status, stdout_path, stderr_path,
                            [&](long pid) -> std::optional<RankProcess> {
                              const auto rank = processes.rank_of_inner(pid);
                              if (!rank) return std::nullopt;
                              return RankProcess{*rank, processes.host_pid_of_rank(*rank).value_or(0)};
                            },
                            launcher_of(options));
  } else {
    outcome = handle_timeout(spec, options, processes, extra, survivors);
  }

  // Final check through all of /proc, whoever the parent is now: anything
  // carrying this launch's marker that tracking missed is killed too.
  if (int stray = processes.adopt_marked(); stray > 0) {
    extra["stray_processes_killed"] = stray;
    survivors = processes.kill_and_reap(std::chrono::seconds(5));
  }
  if (!survivors.empty()) {
    extra["survivors"] = survivors;
    outcome.detail += "; WARNING: processes of the run survived the kill: " + join_pids(survivors);
  }
  return finish(outcome);
}

}  // namespace
}  // namespace scalefuzz::harness
