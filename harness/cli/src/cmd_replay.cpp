// scalefuzz replay RUN_DIR [--times N] [--submit]: parses and dispatches to
// the replay workflow (harness/engine, replay.hpp), then prints its verdict;
// --submit runs the same command as a SLURM job (cmd_slurm.cpp).
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "paths.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "terminal_text.hpp"

namespace scalefuzz::cli {

int cmd_replay(const ParsedArgs& args) {
  if (args.positionals.size() != 1) throw UsageError("expected exactly one RUN_DIR");
  engine::ReplayRequest request;
  request.run_dir = args.positionals[0];
  request.times = static_cast<int>(args.integer("--times").value_or(1));
  request.keep_noise = args.has("--with-noise");
  if (args.has("--submit")) return submit_replay(request.run_dir, request.times, request.keep_noise);
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

}  // namespace scalefuzz::cli
