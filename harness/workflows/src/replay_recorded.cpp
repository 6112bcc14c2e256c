// scalefuzz replay RUN_DIR [--times N]: the replay workflow (harness/engine,
// replay.hpp) with the injector of the recorded application's MPI, then its
// verdict; --submit is submit_replay (slurm_campaign.cpp).
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

int replay(const ReplayOptions& options) {
  return options.submit ? submit_replay(options.run_dir, options.times, options.with_noise)
                        : replay_recorded_run(options.run_dir, options.times, options.with_noise);
}

int replay_recorded_run(const std::filesystem::path& run_dir, int times, bool with_noise) {
  engine::ReplayRequest request;
  request.run_dir = run_dir;
  request.times = times;
  request.keep_noise = with_noise;
  // The injector of the recorded application's MPI (an unreadable spec is
  // refused by replay_run below).
  std::string app;
  try {
    std::ifstream in(harness::RunDir(request.run_dir).spec_file());
    app = nlohmann::json::parse(in).get<harness::RunSpec>().argv.at(0);
  } catch (const std::exception&) {
  }
  if (app.empty()) {
    request.injector = injector_library();
  } else {
    engine::RecordedLaunch launch;
    try {
      launch = engine::recorded_launch(request.run_dir);
    } catch (const engine::ReplayRefused& e) {
      throw UsageError(e.what());
    }
    request.injector = injector_for(app, *launch.launcher, launch.mpi, launch.mpiexec);
  }
  engine::ReplayResult result;
  try {
    result = engine::replay_run(request, std::cout);
  } catch (const engine::ReplayRefused& e) {
    throw UsageError(e.what());
  }
  const int n = static_cast<int>(result.attempts.size());
  std::cout << "reproduced " << result.reproduced() << "/" << n << " (outcome "
            << harness::to_string(result.original.kind) << ", " << result.original_fingerprints.size() << " bug"
            << (result.original_fingerprints.size() == 1 ? "" : "s") << ")\n";
  return result.reproduced() == n ? kExitOk : kExitFindings;
}

}  // namespace scalefuzz::workflows
