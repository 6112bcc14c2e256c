// The replay workflow (replay.hpp): refuse what cannot be replayed, rerun
// with the decision logs enforced, compare with the original.
#include "scalefuzz/engine/replay.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scalefuzz/analysis/engine.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/harness/application_mpi.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/bugs.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/trace/decision_log.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::engine {

namespace fs = std::filesystem;

namespace {
constexpr const char* kLaunchFile = "launch.json";
constexpr const char* kReplaysDir = "replays";

harness::RunSpec read_spec(const fs::path& run_dir) {
  const fs::path file = harness::RunDir(run_dir).spec_file();
  std::ifstream in(file);
  if (!in) throw ReplayRefused(run_dir.string() + ": not a run directory (no spec.json)");
  try {
    return nlohmann::json::parse(in).get<harness::RunSpec>();
  } catch (const std::exception& e) {
    throw ReplayRefused(file.string() + ": " + e.what());
  }
}

// The program the spec's argv starts: argv[0] as is when it names a path,
// else looked up on PATH (as the launcher's exec does).
fs::path program_of(const harness::RunSpec& spec) {
  if (spec.argv.empty()) return {};
  const fs::path p = spec.argv[0];
  if (p.string().find('/') != std::string::npos) return p;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && fs::exists(fs::path(d) / p)) return fs::path(d) / p;
  return p;
}

// Sorted fingerprints of the bugs of a run's findings (the detectors a
// single run directory is analysed with: `scalefuzz analyze RUN_DIR`).
std::vector<std::string> fingerprints_of(const fs::path& dir, const harness::RunSpec& spec,
                                         const harness::Outcome& outcome) {
  harness::RunRecord record;
  record.dir = dir;
  record.spec = spec;
  record.outcome = outcome;
  analysis::AnalysisOptions options;
  options.detectors = analysis::replay_detectors();
  std::ostringstream quiet;
  options.log = &quiet;
  // Bugs, not findings: the localizing detectors' findings join the bug of
  // the run's outcome (harness/bugs).
  std::set<std::string> out;
  for (const auto& bug :
       harness::bugs::group_findings(analysis::analyze_runs({record}, options), {}, analysis::bug_roles()))
    out.insert(bug.fingerprint);
  return {out.begin(), out.end()};
}

std::uint64_t order_hash_of(const fs::path& dir) {
  try {
    return trace::match_messages(trace::read_run(dir)).order_hash;
  } catch (const std::exception&) {
    return 0;
  }
}

// "site=<id>" of a divergence line, symbolized against the replay's own sites.
std::string where(const fs::path& dir, int rank, const std::string& line) {
  const auto at = line.find(" site=");
  if (at == std::string::npos) return "";
  try {
    const std::uint32_t site = static_cast<std::uint32_t>(std::stoul(line.substr(at + 6)));
    trace::RankTrace rt = trace::read_rank(dir, rank);
    trace::symbolize(dir, rt);
    if (site >= rt.sites.size()) return "";
    const trace::Frame* f = trace::application_frame(rt.sites[site]);
    return f != nullptr ? trace::format_frame(*f) : "";
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<RankReplayNote> read_notes(const fs::path& dir, int nprocs) {
  std::vector<RankReplayNote> notes;
  for (int r = 0; r < nprocs; ++r) {
    RankReplayNote n;
    n.rank = r;
    std::ifstream in(dir / "ranks" / (std::to_string(r) + ".replay"));
    // The last line says how the rank ended; a divergence is always first.
    for (std::string line; std::getline(in, line);) {
      const std::string kind = line.substr(0, line.find(' '));
      if (n.kind == "diverged" || n.kind == "refused") break;
      n.kind = kind;
      n.text = line;
    }
    if (n.kind == "diverged") {
      const std::string at = where(dir, r, n.text);
      if (!at.empty()) n.text += " at " + at;
    }
    notes.push_back(std::move(n));
  }
  return notes;
}

fs::path next_replay_dir(const fs::path& run_dir) {
  const fs::path base = run_dir / kReplaysDir;
  for (int k = 1;; ++k) {
    const fs::path d = base / std::to_string(k);
    std::error_code ec;
    if (fs::create_directories(d, ec)) return d;  // created now: ours alone
    if (ec) throw std::runtime_error(d.string() + ": cannot create the replay directory: " + ec.message());
  }
}
}  // namespace

int ReplayResult::reproduced() const {
  return static_cast<int>(std::count_if(attempts.begin(), attempts.end(), [](const ReplayAttempt& a) { return a.reproduced(); }));
}

RecordedLaunch recorded_launch(const fs::path& run_dir) {
  RecordedLaunch out;
  std::ifstream in(run_dir / kLaunchFile);
  if (!in) {  // runs before launch.json: the default Hydra launcher
    out.mpiexec = {"mpiexec"};
    out.launcher = &harness::detect_mpi_launcher(out.mpiexec);
    return out;
  }
  const fs::path file = run_dir / kLaunchFile;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    out.mpiexec = j.at("mpiexec").get<std::vector<std::string>>();
    if (j.contains("launcher")) {
      const auto name = j["launcher"].get<std::string>();
      out.launcher = harness::find_mpi_launcher(name);
      if (out.launcher == nullptr) throw ReplayRefused(file.string() + ": unknown launcher '" + name + "'");
    } else {
      out.launcher = &harness::detect_mpi_launcher(out.mpiexec);
    }
    if (j.contains("mpi")) {
      const auto word = j["mpi"].get<std::string>();
      out.mpi = harness::mpi_named(word);
      if (!out.mpi) throw ReplayRefused(file.string() + ": unknown MPI '" + word + "'");
    }
  } catch (const ReplayRefused&) {
    throw;
  } catch (const std::exception& e) {
    throw ReplayRefused(file.string() + ": " + e.what());
  }
  return out;
}

void write_launcher_file(const fs::path& run_dir, const harness::RunSpec& run, const harness::LaunchOptions& options) {
  nlohmann::json j;
  j["mpiexec"] = options.mpiexec;
  const harness::MpiLauncher& launcher = harness::launcher_of(options);
  j["launcher"] = std::string(launcher.name());
  // The MPI whose injector the ranks preload, as the harness chose it
  // (application_mpi.hpp); a mismatch was refused before the launch.
  try {
    j["mpi"] = std::string(harness::key_word(harness::run_mpi(program_of(run), launcher, options.mpi, options.mpiexec)));
  } catch (const std::exception&) {
    // A binary that cannot be read: not recorded, a replay reads the binary again.
  }
  harness::write_file_atomic(run_dir / kLaunchFile, harness::dump_json(j) + "\n");
}

harness::Outcome launch_with_logs(const harness::RunSpec& spec, harness::LaunchOptions options,
                                  const fs::path& logs_dir) {
  options.env["SCALEFUZZ_REPLAY_DIR"] = fs::absolute(logs_dir).string();
  return launch_run(spec, std::move(options), std::nullopt);
}

std::vector<std::string> replay_argv(const fs::path& program, const fs::path& run_dir) {
  std::error_code ec;
  if (!fs::exists(trace::decision_log_file(run_dir, 0), ec)) return {};
  return {program.string(), "replay", run_dir.string()};
}

ReplayableRun check_replayable(const fs::path& run_dir_arg) {
  const fs::path run_dir = fs::absolute(run_dir_arg);
  if (!fs::is_directory(run_dir)) throw ReplayRefused(run_dir.string() + ": no such directory");
  ReplayableRun run;
  run.spec = read_spec(run_dir);
  try {
    run.logs = trace::read_decision_logs(run_dir);
  } catch (const std::exception& e) {
    throw ReplayRefused(std::string("cannot read the decision logs: ") + e.what());
  }
  if (run.logs.empty())
    throw ReplayRefused(run_dir.string() + ": no decision log (a run recorded before trace format 4): replay it with " +
                        "the command in its replay.txt (same seed and noise)");
  const std::string mismatch = trace::replay_mismatch(run.logs, run.spec.nprocs, trace::gnu_build_id(program_of(run.spec)));
  if (!mismatch.empty()) throw ReplayRefused(run_dir.string() + ": " + mismatch);
  return run;
}

ReplayResult replay_run(const ReplayRequest& request, std::ostream& log) {
  const fs::path run_dir = fs::absolute(request.run_dir);
  if (request.times < 1) throw ReplayRefused("--times must be at least 1");
  ReplayResult result;
  ReplayableRun checked = check_replayable(run_dir);
  result.spec = std::move(checked.spec);
  const std::vector<trace::DecisionLog>& logs = checked.logs;
  for (const trace::DecisionLog& l : logs)
    if (l.truncated)
      result.warnings.push_back("rank " + std::to_string(l.rank) + "'s log ends after " +
                                std::to_string(l.decisions.size()) +
                                " decisions without an end (the rank never finalized): replayed up to there, then held where "
                                "the recorded rank ended (each replay's ranks/N.replay says where)");
  try {
    if (auto o = harness::read_outcome(run_dir)) result.original = *o;
    else result.original.kind = harness::OutcomeKind::Hang;  // no outcome: it never ended
  } catch (const std::exception& e) {
    throw ReplayRefused(e.what());
  }
  const RecordedLaunch launch = recorded_launch(run_dir);
  for (const auto& w : result.warnings) log << "warning: " << w << "\n";
  result.original_fingerprints = fingerprints_of(run_dir, result.spec, result.original);
  result.original_order_hash = order_hash_of(run_dir);

  harness::RunSpec spec = result.spec;
  if (!request.keep_noise) spec.noise = harness::NoiseSpec{};
  for (int i = 0; i < request.times; ++i) {
    ReplayAttempt a;
    a.dir = next_replay_dir(run_dir);
    harness::LaunchOptions options;
    options.mpiexec = launch.mpiexec;
    options.launcher = launch.launcher;
    options.mpi = launch.mpi;
    options.injector_lib = request.injector;
    options.run_dir = a.dir;
    a.outcome = launch_with_logs(spec, options, harness::RunDir(run_dir).ranks_dir());
    a.notes = read_notes(a.dir, spec.nprocs);
    // Analysed as the run it replays: with the recorded spec (its noise),
    // since the races detector judges quiet and noisy runs apart (a quiet
    // run is a baseline) and a replay without noise would otherwise read as
    // another kind of run (same_site_race under system noise: 0/10).
    a.fingerprints = fingerprints_of(a.dir, result.spec, a.outcome);
    a.order_hash = order_hash_of(a.dir);
    a.same_outcome = a.outcome.kind == result.original.kind;
    a.same_bugs = a.fingerprints == result.original_fingerprints;
    a.same_order = a.order_hash == result.original_order_hash;
    for (const auto& n : a.notes) a.diverged = a.diverged || n.kind == "diverged" || n.kind == "refused";
    log << "replay " << (i + 1) << "/" << request.times << ": " << harness::to_string(a.outcome.kind)
        << (a.same_outcome ? " (as recorded)" : " (recorded: " + std::string(harness::to_string(result.original.kind)) + ")")
        << ", bugs " << (a.same_bugs ? "the same" : "differ") << ", match order " << (a.same_order ? "the same" : "differs")
        << " -> " << a.dir.string() << "\n";
    for (const auto& n : a.notes)
      if (n.kind == "diverged" || n.kind == "refused" || n.kind == "log-ended" || n.kind == "held")
        log << "  rank " << n.rank << ": " << n.text << "\n";
    result.attempts.push_back(std::move(a));
  }
  return result;
}

}  // namespace scalefuzz::engine
