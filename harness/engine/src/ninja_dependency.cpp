#include "scalefuzz/engine/ninja_dependency.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/detectors/api/exploration.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::engine {

namespace fs = std::filesystem;

bool has_ninja_analysis(const fs::path& dir, int nprocs) { return harness::RunDir(dir).has_ninja_analysis(nprocs); }

std::optional<fs::path> ninja_analysis_for(const harness::RunSpec& app, const std::vector<harness::RunRecord>& runs) {
  const harness::RunRecord* best = nullptr;
  for (const auto& r : runs) {
    const harness::RunSpec& s = r.spec;
    if (!r.finished() || s.noise.mode != noise::Mode::System || s.nprocs != app.nprocs || s.params != app.params) continue;
    if (!has_ninja_analysis(r.dir, s.nprocs)) continue;  // it hung or crashed before MPI_Finalize
    auto rank = [&](const harness::RunRecord& x) {
      return std::make_pair(x.spec.repetition != app.repetition, x.spec.repetition);
    };
    if (best == nullptr || rank(r) < rank(*best) || (rank(r) == rank(*best) && r.spec.run_id < best->spec.run_id))
      best = &r;
  }
  if (best == nullptr) return std::nullopt;
  return fs::absolute(best->dir);
}

std::optional<fs::path> ninja_analysis_for(const harness::RunStore& store, const harness::RunSpec& app) {
  return ninja_analysis_for(app, store.runs());
}

void order_for_ninja(std::vector<harness::RunSpec>& runs) {
  std::stable_partition(runs.begin(), runs.end(), [](const harness::RunSpec& r) { return r.noise.mode != noise::Mode::Application; });
}

std::vector<std::vector<harness::RunSpec>> schedule_phases(std::vector<harness::RunSpec> runs) {
  order_for_ninja(runs);
  const auto first_app = std::find_if(runs.begin(), runs.end(),
                                      [](const harness::RunSpec& r) { return r.noise.mode == noise::Mode::Application; });
  std::vector<std::vector<harness::RunSpec>> phases(2);
  // Moved, not copied: a campaign may hold a million runs.
  phases[0].assign(std::make_move_iterator(runs.begin()), std::make_move_iterator(first_app));
  phases[1].assign(std::make_move_iterator(first_app), std::make_move_iterator(runs.end()));
  return phases;
}

namespace {
std::string point_text(const harness::RunSpec& app) {
  std::string point = "np" + std::to_string(app.nprocs);
  for (const auto& [k, v] : app.params) point += " " + k + "=" + v;
  return point;
}
}  // namespace

std::string missing_analysis_message(const harness::RunSpec& app) {
  const std::string point = point_text(app);
  return "application-centric run " + app.run_id + " needs a finished system-centric run of the same point (" +
         point + ") that wrote ninja/N.analysis; add a {mode: system} noise profile (or it hung or crashed)";
}

bool system_run_did_not_finish_cleanly(const harness::RunSpec& app, const std::vector<harness::RunRecord>& runs) {
  return std::any_of(runs.begin(), runs.end(), [&](const harness::RunRecord& r) {
    return r.finished() && r.spec.noise.mode == noise::Mode::System && r.spec.nprocs == app.nprocs &&
           r.spec.params == app.params && !has_ninja_analysis(r.dir, r.spec.nprocs);
  });
}

std::string skipped_message(const harness::RunSpec& app) {
  return "application-centric runs of " + point_text(app) +
         " skipped: the system-centric run of that point hung or crashed, so there is no NINJA analysis to "
         "drive them (its outcome is the finding)";
}

void write_potential_unsafe(const fs::path& system_run) {
  const fs::path file = harness::RunDir(system_run).ninja_dir() / "potential.unsafe";
  std::error_code ec;
  if (fs::exists(file, ec)) return;
  const exploration::ScheduleAnalysis* schedules = analysis::schedule_analysis();
  if (!schedules) return;  // no technique finds potential races: no unsafe messages known
  std::set<std::pair<std::int32_t, std::uint32_t>> ids;
  try {
    const trace::RunTrace run = trace::read_run(system_run);
    for (const auto& taken : schedules->potential_races(run, trace::match_messages(run)))
      ids.insert({taken.tag, taken.comm});
  } catch (const std::exception&) {
    return;
  }
  std::ostringstream text;
  text << "ninja-potential 1\n";
  for (const auto& [tag, comm] : ids) text << "unsafe " << tag << " " << comm << "\n";
  try {
    harness::write_file_atomic(file, text.str());
  } catch (const std::exception&) {
  }
}

}  // namespace scalefuzz::engine
