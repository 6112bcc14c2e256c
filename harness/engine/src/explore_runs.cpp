#include "scalefuzz/engine/explore_runs.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/analysis/run_info.hpp"
#include "scalefuzz/detectors/api/site_names.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/engine/ddmin.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/run_json.hpp"

namespace scalefuzz::engine {

namespace fs = std::filesystem;
using trace::Decision;
using trace::DecisionKind;
using trace::DecisionLog;

const exploration::ScheduleAnalysis& schedule_analysis() {
  const exploration::ScheduleAnalysis* registered = analysis::schedule_analysis();
  if (!registered) throw std::runtime_error("no registered technique analyses schedules (wildcard receives' alternatives)");
  return *registered;
}

std::vector<std::vector<std::uint64_t>> call_numbers(const trace::RunTrace& run) {
  std::vector<std::vector<std::uint64_t>> out(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::uint64_t call = 0;
    for (const auto& e : run.ranks[r].events) {
      if ((e.flags & trace::kFlagChild) == 0) call += 1 + e.repeats;
      out[r].push_back(call);
    }
  }
  return out;
}

namespace {

Decision free_entry(std::uint64_t call) {
  Decision d;
  d.kind = DecisionKind::Free;
  d.call = call;
  return d;
}

// `log` with only the entries `keep` says, then Free.
DecisionLog cut_log(const DecisionLog& log, const std::function<bool(const Decision&)>& keep) {
  DecisionLog out = log;
  out.decisions.clear();
  out.truncated = false;
  std::uint64_t last = 0;
  for (const auto& d : log.decisions) {
    if (d.kind == DecisionKind::End || d.kind == DecisionKind::Free || !keep(d)) continue;
    out.decisions.push_back(d);
    last = d.call;
  }
  out.decisions.push_back(free_entry(last));
  return out;
}

// The rank's decisions before its completion call at schedule.done_event,
// then that call's Index decision with the index the call at
// schedule.alternative_call returned, then Free. `position` gets the
// decision's number among the rank's Index decisions (took_forced looks
// there in the forced run's log).
DecisionLog forced_completion(const DecisionLog& log, const std::vector<std::uint64_t>& calls,
                              const ForcedSchedule& schedule, std::uint64_t& position) {
  auto call_of = [&](std::size_t event) {
    if (event >= calls.size())
      throw std::runtime_error("rank " + std::to_string(schedule.rank) + " has no event #" + std::to_string(event));
    return calls[event];
  };
  const std::uint64_t at_call = call_of(schedule.done_event), alt_call = call_of(schedule.alternative_call);
  const Decision* alternative = nullptr;
  for (const auto& d : log.decisions)
    if (d.kind == DecisionKind::Index && d.call == alt_call) alternative = &d;
  DecisionLog out = log;
  out.decisions.clear();
  out.truncated = false;
  position = 0;
  for (const auto& d : log.decisions) {
    if (d.kind == DecisionKind::End || d.kind == DecisionKind::Free) continue;
    if (d.kind == DecisionKind::Index && d.call == at_call) {
      if (!alternative)
        throw std::runtime_error("rank " + std::to_string(schedule.rank) + "'s decision log has no completion at call #" +
                                 std::to_string(alt_call) + " (a log of another run)");
      Decision forced = d;
      forced.index = alternative->index;
      out.decisions.push_back(forced);
      out.decisions.push_back(free_entry(d.call));
      return out;
    }
    if (d.kind == DecisionKind::Index) ++position;
    out.decisions.push_back(d);
  }
  throw std::runtime_error("rank " + std::to_string(schedule.rank) + "'s decision log has no completion at call #" +
                           std::to_string(at_call) + " (a log of another run, or a call it did not record)");
}

}  // namespace

std::vector<DecisionLog> forced_logs(const std::vector<DecisionLog>& logs,
                                     const std::vector<std::vector<std::uint64_t>>& calls,
                                     const ForcedSchedule& schedule, std::uint64_t& forced_ordinal) {
  std::vector<DecisionLog> out;
  for (std::size_t r = 0; r < logs.size(); ++r) {
    const DecisionLog& log = logs[r];
    if (static_cast<int>(r) == schedule.rank && schedule.completion) {
      out.push_back(forced_completion(log, r < calls.size() ? calls[r] : std::vector<std::uint64_t>{}, schedule,
                                      forced_ordinal));
      continue;
    }
    if (static_cast<int>(r) == schedule.rank) {
      if (r >= calls.size() || schedule.done_event >= calls[r].size())
        throw std::runtime_error("rank " + std::to_string(r) + " has no event #" + std::to_string(schedule.done_event));
      const std::uint64_t call = calls[r][schedule.done_event];
      std::size_t at = log.decisions.size();
      for (std::size_t i = 0; i < log.decisions.size() && at == log.decisions.size(); ++i) {
        const Decision& d = log.decisions[i];
        if (d.kind == DecisionKind::Match && d.call == call && d.source == schedule.base_source) at = i;
      }
      if (at == log.decisions.size())
        throw std::runtime_error("rank " + std::to_string(r) + "'s decision log has no match from rank " +
                                 std::to_string(schedule.base_source) + " at call #" + std::to_string(call) +
                                 " (a log of another run, or a receive it did not record)");
      const Decision& recorded = log.decisions[at];
      forced_ordinal = recorded.ordinal;
      DecisionLog forced = trace::force_match(
          log, at, schedule.source, recorded.tag != trace::kNoDecisionTag ? schedule.tag : trace::kNoDecisionTag);
      // Receives posted after the forced one but completed before it (in
      // log order) go free: their recorded match may be the message the
      // forced receive now takes.
      std::erase_if(forced.decisions, [&](const Decision& d) {
        return d.kind == DecisionKind::Match && d.ordinal > forced_ordinal;
      });
      out.push_back(std::move(forced));
      continue;
    }
    const std::uint64_t events = r < schedule.replay_events.size() ? schedule.replay_events[r] : 0;
    const std::uint64_t cut = events == 0 || r >= calls.size() || calls[r].empty()
                                  ? 0
                                  : calls[r][std::min<std::size_t>(events, calls[r].size()) - 1];
    out.push_back(cut_log(log, [&](const Decision& d) { return d.call <= cut; }));
  }
  return out;
}

ExploreBase read_explore_base(const fs::path& run_dir, const std::string& run_id) {
  ExploreBase b;
  b.run_id = run_id;
  b.run_dir = run_dir;
  const auto outcome = harness::read_outcome(run_dir);
  b.outcome = outcome ? harness::to_string(outcome->kind) : "hang";  // no outcome: it never ended
  const trace::RunTrace run = trace::read_run(run_dir);
  const trace::Matching matching = trace::match_messages(run);
  const exploration::ScheduleAnalysis& schedules = schedule_analysis();
  b.wildcards = schedules.wildcard_alternatives(run, matching);
  b.completions = schedules.completion_alternatives(run, matching);
  for (const auto& w : b.wildcards) b.matches.push_back(w.actual);
  std::ifstream out(harness::RunDir(run_dir).stdout_file());
  constexpr std::size_t kMaxOutputLines = 10000;  // enough to tell failures apart, bounded memory per base
  for (std::string line; b.output.size() < kMaxOutputLines && std::getline(out, line);) b.output.push_back(line);
  return b;
}

MpiScheduleRunner::MpiScheduleRunner(harness::LaunchOptions launch, fs::path out_dir, std::string scalefuzz_program)
    : launch_(std::move(launch)), out_dir_(std::move(out_dir)), scalefuzz_(std::move(scalefuzz_program)) {}

const MpiScheduleRunner::Base& MpiScheduleRunner::base(const fs::path& run_dir) {
  auto it = bases_.find(run_dir);
  if (it != bases_.end()) return it->second;
  Base b;
  std::ifstream in(harness::RunDir(run_dir).spec_file());
  if (!in) throw std::runtime_error(run_dir.string() + ": no spec.json (not a run directory)");
  b.spec = nlohmann::json::parse(in).get<harness::RunSpec>();
  b.logs = trace::read_decision_logs(run_dir);
  if (b.logs.empty())
    throw std::runtime_error(run_dir.string() + ": no decision logs (a run recorded before trace format 4)");
  b.calls = call_numbers(trace::read_run(run_dir));
  return bases_.emplace(run_dir, std::move(b)).first->second;
}

ForcedRun MpiScheduleRunner::run(const ForcedSchedule& schedule, const std::string& name) {
  const Base& b = base(schedule.base_run_dir);
  std::uint64_t ordinal = 0;
  auto logs = forced_logs(b.logs, b.calls, schedule, ordinal);
  ForcedCheck check{schedule.rank, schedule.completion, ordinal, schedule.source};
  if (schedule.completion)  // the forced Index decision is the rank's last one
    for (const auto& d : logs[static_cast<std::size_t>(schedule.rank)].decisions)
      if (d.kind == DecisionKind::Index) check.value = d.index;
  return run_logs(schedule.base_run_dir, logs, name, check);
}

std::optional<ForcedRun> MpiScheduleRunner::replay_base(const ExploreBase& base, const std::string& name) {
  return run_logs(base.run_dir, this->base(base.run_dir).logs, name, {});
}

ForcedRun MpiScheduleRunner::run_logs(const fs::path& base_run_dir, const std::vector<DecisionLog>& logs,
                                      const std::string& name, const ForcedCheck& check) {
  const Base& b = base(base_run_dir);
  const fs::path dir = exploration::forced_run_dir(out_dir_, name);
  std::error_code ec;
  fs::remove_all(dir, ec);  // a forced run of an earlier exploration into the same OUT
  const fs::path schedule_dir = dir / "schedule";
  fs::create_directories(schedule_dir);
  for (std::size_t r = 0; r < logs.size(); ++r)
    trace::write_decision_log(trace::replay_log_file(schedule_dir, static_cast<int>(r)), logs[r]);
  harness::RunSpec spec = b.spec;
  spec.run_id = name;
  spec.noise = harness::NoiseSpec{};  // forcing, not noise, decides the matches
  harness::write_file_atomic(harness::RunDir(dir).spec_file(), harness::dump_json(nlohmann::json(spec)) + "\n");
  harness::LaunchOptions options = launch_;
  options.run_dir = dir;
  options.env["SCALEFUZZ_REPLAY_DIR"] = fs::absolute(schedule_dir).string();
  const harness::Outcome outcome = launch_run(spec, options, std::nullopt);
  ForcedRun out;
  out.run_id = name;
  out.run_dir = dir;
  out.outcome = harness::to_string(outcome.kind);
  out.outcome_detail = outcome.detail;
  out.replay_argv = {scalefuzz_, "replay", fs::absolute(dir).string()};
  try {
    out.as_base = read_explore_base(dir, name);
    const auto forced = trace::read_decision_logs(dir);
    std::uint64_t index_decisions = 0;
    if (check.rank >= 0 && static_cast<std::size_t>(check.rank) < forced.size())
      for (const auto& d : forced[static_cast<std::size_t>(check.rank)].decisions) {
        if (!check.completion && d.kind == DecisionKind::Match && d.ordinal == check.ordinal)
          out.took_forced = d.source == check.value;
        if (check.completion && d.kind == DecisionKind::Index && index_decisions++ == check.ordinal)
          out.took_forced = d.index == check.value;
      }
  } catch (const std::exception&) {
    // no trace (a launch error): nothing seen, the forcing not taken
  }
  return out;
}

namespace {

std::string describe(analysis::SiteNames& names, const fs::path& run_dir, const trace::RunTrace& run,
                     const std::vector<std::vector<std::uint64_t>>& calls, int rank, const Decision& d,
                     const std::string& instead) {
  std::string where;
  const auto r = static_cast<std::size_t>(rank);
  if (r < run.ranks.size())
    for (std::size_t i = 0; i < run.ranks[r].events.size(); ++i) {
      const auto& e = run.ranks[r].events[i];
      const auto cls = static_cast<trace::OpClass>(e.op_class);
      if (calls[r][i] == d.call && (cls == trace::OpClass::Recv || cls == trace::OpClass::Irecv ||
                                    cls == trace::OpClass::Probe || cls == trace::OpClass::RequestDone)) {
        where = " at " + names.name(run_dir, rank, e.callsite);
        break;
      }
    }
  if (d.kind == DecisionKind::Index)
    return "rank " + std::to_string(rank) + "'s completion call" + where + " returns request #" +
           std::to_string(d.index) + " of its array";
  return "rank " + std::to_string(rank) + "'s wildcard receive #" + std::to_string(d.ordinal) + where +
         " takes rank " + std::to_string(d.source) + "'s message" + instead;
}

struct Shrunk {
  std::vector<std::string> schedule;  // one line per decision the failure needs
  std::vector<std::string> replay_argv;
};

// Delta debugging of one failing run with a schedule: its Match entries
// (every rank's) shrunk to those the failure needs, the rest free, with the
// run as oracle (same outcome kind = fails). `schedule` is a forced run's
// schedule/ or a failing base's own recorded logs; `check_rank` >= 0 names
// the rank whose last Match in `schedule` is the forced one (-1: a base, no
// forced decision), `base_source` the sender it took in the base.
Shrunk shrink(MpiScheduleRunner& runner, const fs::path& failing_dir, const std::vector<DecisionLog>& schedule,
              const std::string& name, const std::string& failing_outcome, int check_rank, int check_source,
              int base_source, const std::string& scalefuzz, std::size_t budget, std::size_t& runs) {
  Shrunk out;
  std::vector<std::pair<int, std::size_t>> items;  // (rank, entry)
  std::uint64_t check_ordinal = 0;
  for (std::size_t r = 0; r < schedule.size(); ++r)
    for (std::size_t i = 0; i < schedule[r].decisions.size(); ++i)
      if (schedule[r].decisions[i].kind == DecisionKind::Match || schedule[r].decisions[i].kind == DecisionKind::Index) {
        items.push_back({static_cast<int>(r), i});
        if (static_cast<int>(r) == check_rank && schedule[r].decisions[i].kind == DecisionKind::Match)
          check_ordinal = schedule[r].decisions[i].ordinal;  // the last: forced
      }
  if (items.empty()) return out;
  fs::path last_failing = failing_dir;
  std::size_t k = 0;
  auto oracle = [&](const std::vector<std::size_t>& subset) {
    std::vector<std::set<std::size_t>> keep(schedule.size());
    for (std::size_t s : subset) keep[static_cast<std::size_t>(items[s].first)].insert(items[s].second);
    std::vector<DecisionLog> logs;
    for (std::size_t r = 0; r < schedule.size(); ++r) {
      DecisionLog l = schedule[r];
      l.decisions.clear();
      l.truncated = false;
      std::uint64_t last = 0;
      for (std::size_t i = 0; i < schedule[r].decisions.size(); ++i)
        if (keep[r].count(i)) {
          l.decisions.push_back(schedule[r].decisions[i]);
          last = schedule[r].decisions[i].call;
        }
      l.decisions.push_back(free_entry(last));
      logs.push_back(std::move(l));
    }
    ForcedRun run = runner.run_logs(failing_dir, logs, name + "-min" + std::to_string(k++),
                                    {check_rank, false, check_ordinal, check_source});
    ++runs;
    if (run.outcome != failing_outcome) return TestResult::Pass;
    last_failing = run.run_dir;
    return TestResult::Fail;
  };
  const DdminResult result = ddmin(items.size(), oracle, budget);
  trace::Symbolizer symbols;
  analysis::SiteNames names(symbols);
  const trace::RunTrace failing_trace = trace::read_run(failing_dir);
  const auto calls = call_numbers(failing_trace);
  for (std::size_t s : result.minimal) {
    const auto& [rank, entry] = items[s];
    const Decision& d = schedule[static_cast<std::size_t>(rank)].decisions[entry];
    const bool forced = rank == check_rank && d.ordinal == check_ordinal;
    out.schedule.push_back(describe(names, failing_dir, failing_trace, calls, rank, d,
                                    forced ? " instead of rank " + std::to_string(base_source) + "'s" : ""));
  }
  if (result.exhausted) out.schedule.push_back("(shrinking stopped at its run budget: maybe not minimal)");
  out.replay_argv = {scalefuzz, "replay", fs::absolute(last_failing).string()};
  return out;
}

std::vector<DecisionLog> schedule_of(const fs::path& forced_dir) {
  std::vector<DecisionLog> schedule;
  for (int r = 0;; ++r) {
    const fs::path file = trace::replay_log_file(forced_dir / "schedule", r);
    if (!fs::exists(file)) break;
    schedule.push_back(trace::read_decision_log(file));
  }
  return schedule;
}

}  // namespace

exploration::ExplorationRecord explore_point(const std::string& point, const std::vector<fs::path>& base_dirs,
                                       const ExploreRunOptions& options, exploration::MatchCoverage& coverage) {
  MpiScheduleRunner runner(options.launch, options.out_dir, options.scalefuzz_program);
  std::vector<ExploreBase> bases;
  for (const auto& dir : base_dirs) bases.push_back(read_explore_base(dir, runner.base(dir).spec.run_id));
  ExploreLimits limits = options.limits;
  limits.shrink_reserve = std::min(options.shrink_budget, limits.budget / 2);
  ExploreResult result = explore(point, bases, runner, limits, coverage);
  exploration::ExplorationRecord record;
  record.point = point;
  record.runs = result.runs;
  record.budget_exhausted = result.budget_exhausted;
  record.candidates = result.candidates;
  record.distinct_candidates = result.distinct_candidates;
  std::set<std::tuple<int, std::uint64_t>> shrunk;  // receive sites with a shrunk schedule
  auto left = [&] { return std::min(options.limits.budget > record.runs ? options.limits.budget - record.runs : 0,
                                    options.shrink_budget); };
  for (auto& e : result.explored) {
    if (!e.took_alternative || !exploration::changes_outcome(e) || e.outcome == "ok") continue;
    if (!shrunk.insert({e.receive.recv_rank, e.receive.recv_site_hash}).second) continue;
    if (left() == 0) break;
    const fs::path dir = exploration::forced_run_dir(options.out_dir, e.run_id);
    const Shrunk s = shrink(runner, dir, schedule_of(dir), e.run_id, e.outcome, e.receive.recv_rank,
                            e.forced.send_rank, e.receive.send_rank, options.scalefuzz_program, left(), record.runs);
    e.minimal_schedule = s.schedule;
    e.minimal_replay_argv = s.replay_argv;
  }
  // A base that failed and an alternative that ends ok (the race is its
  // root cause): the base's own failure is shrunk too, once per base, so
  // the root-cause finding carries the minimal schedule of the failure.
  std::map<std::string, Shrunk> shrunk_bases;
  for (auto& e : result.explored) {
    if (!e.root_cause || !e.minimal_schedule.empty()) continue;
    auto it = shrunk_bases.find(e.base_run_id);
    if (it == shrunk_bases.end()) {
      const auto base = std::find_if(bases.begin(), bases.end(), [&](const ExploreBase& b) { return b.run_id == e.base_run_id; });
      if (base == bases.end() || left() == 0) continue;  // a forced run as base (depth > 1): not shrunk
      it = shrunk_bases.emplace(e.base_run_id, shrink(runner, base->run_dir, runner.base(base->run_dir).logs,
                                                      e.base_run_id, e.base_outcome, -1, -1, -1,
                                                      options.scalefuzz_program, left(), record.runs)).first;
    }
    e.minimal_schedule = it->second.schedule;
    e.minimal_replay_argv = it->second.replay_argv;
  }
  record.explored = std::move(result.explored);
  record.tried.assign(coverage.tried_tuples().begin(), coverage.tried_tuples().end());
  record.forced_matches = std::move(result.new_matches);
  record.forced_potential = std::move(result.new_potential);
  const fs::path file = exploration::exploration_record_file(options.out_dir, point);
  fs::create_directories(file.parent_path());
  harness::write_file_atomic(file, exploration::to_json(record).dump(2) + "\n");
  return record;
}

bool BaseChooser::offer(const ExploreBase& run, bool quiet) {
  const std::size_t fresh = coverage_.add_seen(run.run_id, run.matches);
  // The first run that ended ok joins a failing main base: forced alone
  // from a run wrong at several receives, no alternative changes its
  // outcome (the next receive goes wrong again); from an ok run one does.
  const bool first_ok = bases_ > 0 && !main_base_ok_ && run.outcome == "ok";
  if (bases_ == 0) main_base_ok_ = run.outcome == "ok";
  if (first_ok) main_base_ok_ = true;
  if (bases_ > 0 && !first_ok && (quiet || fresh == 0 || noise_bases_ == kMaxNoiseBases)) return false;
  if (bases_ > 0 && !quiet) ++noise_bases_;
  ++bases_;
  return true;
}

void explore_campaign(const harness::RunStore& store, const harness::Campaign& campaign,
                      const harness::LaunchOptions& launch, const std::string& scalefuzz_program, std::ostream& log) {
  std::map<std::string, std::vector<harness::RunRecord>> by_point;
  std::vector<std::string> order;
  for (const auto& run : store.runs()) {
    if (!run.finished() || !harness::RunDir(run.dir).has_traces()) continue;
    const std::string point = analysis::campaign_point(run.spec);
    if (!by_point.count(point)) order.push_back(point);
    by_point[point].push_back(run);
  }
  ExploreRunOptions options;
  options.limits.depth = campaign.explore.depth;
  options.limits.budget = campaign.explore.budget;
  options.out_dir = store.out_dir();
  options.scalefuzz_program = scalefuzz_program;
  options.launch = launch;
  for (const auto& point : order) {
    if (fs::exists(exploration::exploration_record_file(options.out_dir, point))) continue;  // resumed
    auto& runs = by_point[point];
    // The quiet runs first (the base), then the noise runs in store order.
    std::stable_partition(runs.begin(), runs.end(),
                          [](const harness::RunRecord& r) { return r.spec.noise.mode == noise::Mode::None; });
    std::vector<fs::path> bases;
    BaseChooser chooser;
    for (const auto& run : runs) {
      ExploreBase b;
      try {
        if (trace::read_decision_logs(run.dir).empty()) continue;  // recorded before format 4
        b = read_explore_base(run.dir, run.spec.run_id);
      } catch (const std::exception& e) {
        log << "explore: " << run.spec.run_id << " skipped: " << e.what() << "\n";
        continue;
      }
      if (b.wildcards.empty() && b.completions.empty() && bases.empty()) break;  // nothing nondeterministic here
      if (chooser.offer(b, run.spec.noise.mode == noise::Mode::None)) bases.push_back(run.dir);
    }
    exploration::MatchCoverage& coverage = chooser.coverage();
    if (bases.empty()) continue;
    log << "explore: " << point << " from " << bases.size() << " base run" << (bases.size() == 1 ? "" : "s")
        << ", depth " << options.limits.depth << ", at most " << options.limits.budget << " forced runs\n";
    try {
      const auto record = explore_point(point, bases, options, coverage);
      log << "explore: " << point << ": " << record.runs << " forced runs (of " << record.candidates
          << " alternatives at depth 1, " << record.distinct_candidates << " distinct), " << coverage.potential_count()
          << " potential match tuples, " << coverage.seen_count() << " seen, " << coverage.unreachable_count()
          << " unreachable\n";
    } catch (const std::exception& e) {
      log << "explore: " << point << " not explored: " << e.what() << "\n";
    }
  }
}

}  // namespace scalefuzz::engine
