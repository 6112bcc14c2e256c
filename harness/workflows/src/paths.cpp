#include "scalefuzz/workflows/paths.hpp"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/harness/application_mpi.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

namespace {
fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path{} : exe.parent_path();
}
}  // namespace

fs::path injector_library(harness::MpiImplementation mpi) {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("SCALEFUZZ_INJECTOR"); env && *env) {
    if (fs::exists(env)) return fs::absolute(env);
    throw InfraError(std::string("SCALEFUZZ_INJECTOR=") + env + ": no such file");
  }
  const bool openmpi = mpi == harness::MpiImplementation::OpenMpi;
  const std::string file = openmpi ? "libscalefuzz_inject_openmpi.so" : "libscalefuzz_inject.so";
  fs::path dir = self_dir();
  candidates.push_back(dir / "injectors" / file);        // build tree
  candidates.push_back(dir / ".." / "lib" / file);        // installed
  // Where CMake put it (none for Open MPI when it was not found at configure time).
  const std::string built = openmpi ? SCALEFUZZ_INJECTOR_OPENMPI_BUILD_PATH : SCALEFUZZ_INJECTOR_BUILD_PATH;
  if (!built.empty()) candidates.push_back(fs::path(built));
  std::string looked;
  for (const auto& c : candidates) {
    if (fs::exists(c)) return fs::weakly_canonical(c);
    looked += "\n  " + c.string();
  }
  throw InfraError("the injector library " + file + " (for " + std::string(harness::to_string(mpi)) +
                   ") was not found; looked at:" + looked +
                   (openmpi ? "\nbuild it where Open MPI's headers are installed (libopenmpi-dev, pkg-config ompi-c; "
                              "ci/setup.sh) or set SCALEFUZZ_INJECTOR"
                            : "\nbuild it (ci/build.sh) or set SCALEFUZZ_INJECTOR"));
}

fs::path injector_for(const std::string& app, const harness::MpiLauncher& launcher,
                      std::optional<harness::MpiImplementation> declared, const std::vector<std::string>& command) {
  const fs::path found = find_program(app);
  try {
    return injector_library(harness::run_mpi(found.empty() ? fs::path(app) : found, launcher, declared, command));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

fs::path campaign_injector(const harness::Campaign& campaign, const std::vector<harness::RunSpec>& runs) {
  const harness::MpiLauncher& launcher =
      campaign.launcher != nullptr ? *campaign.launcher : harness::detect_mpi_launcher(campaign.mpiexec);
  std::map<std::string, fs::path> by_app;  // each application binary looked at once
  for (const auto& run : runs)
    if (!run.argv.empty() && !by_app.contains(run.argv.front()))
      by_app.emplace(run.argv.front(), injector_for(run.argv.front(), launcher, campaign.mpi, campaign.mpiexec));
  if (by_app.empty())
    return injector_library(campaign.mpi.value_or(launcher.implementation().value_or(harness::MpiImplementation::Mpich)));
  for (const auto& [app, injector] : by_app)
    if (injector != by_app.begin()->second)
      throw UsageError("campaign " + campaign.name + ": " + by_app.begin()->first + " and " + app +
                       " are built against different MPIs (injectors " + by_app.begin()->second.filename().string() +
                       " and " + injector.filename().string() + "); one campaign runs one MPI");
  return by_app.begin()->second;
}

fs::path default_build_dir() {
  if (const char* env = std::getenv("SCALEFUZZ_BUILD_DIR"); env && *env) return fs::absolute(env);
  fs::path dir = self_dir();
  if (fs::exists(dir / "CMakeCache.txt")) return dir;
  return fs::path(SCALEFUZZ_BUILD_TREE);
}

fs::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? fs::path(name) : fs::path{};
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    fs::path candidate = fs::path(p.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

}  // namespace scalefuzz::workflows
