// Where scalefuzz finds its own pieces: the injector library and the build
// directory substituted for {build} in campaign files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::workflows {

// $SCALEFUZZ_INJECTOR, else the library built for `mpi` next to this
// executable (libscalefuzz_inject.so: MPICH; libscalefuzz_inject_openmpi.so:
// Open MPI). Throws InfraError naming every place looked at when none exists.
std::filesystem::path injector_library(harness::MpiImplementation mpi = harness::MpiImplementation::Mpich);

// The injector for running `app` (a run's argv[0], looked up on PATH) under
// `launcher`: the one built for `declared` (the campaign's `mpi:`), else the
// application's MPI (its DT_NEEDED), else the launcher's. Throws UsageError
// naming both MPIs when any two differ, or when the launcher cannot start
// that MPI's ranks with `command` (the mpiexec words; srun --mpi=pmi2 and
// Open MPI).
std::filesystem::path injector_for(const std::string& app, const harness::MpiLauncher& launcher,
                                   std::optional<harness::MpiImplementation> declared = std::nullopt,
                                   const std::vector<std::string>& command = {});
// injector_for() of every application of `runs` under the campaign's
// launcher; UsageError when they need different injectors.
std::filesystem::path campaign_injector(const harness::Campaign& campaign, const std::vector<harness::RunSpec>& runs);

// $SCALEFUZZ_BUILD_DIR, else the build tree this executable was built in.
std::filesystem::path default_build_dir();

// Path of a program on PATH (or the path itself if it contains a '/'), empty if not found.
std::filesystem::path find_program(const std::string& name);

}  // namespace scalefuzz::workflows
