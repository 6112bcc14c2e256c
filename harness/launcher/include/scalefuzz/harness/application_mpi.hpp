// Which MPI an application is built against, and whether a launcher can
// start it: the harness picks the injector library by the application's MPI
// and refuses a mismatch before the first run (issue 31).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {

// The MPI named by the ELF file's DT_NEEDED entries: libmpi.so.40 (Open
// MPI 3.x-5.x) -> OpenMpi, libmpich.so.12 (MPICH 3.1 and later; also
// MPICH derivatives) -> Mpich. nullopt when the file is no dynamically linked
// ELF binary (a wrapper script, a static binary) or needs neither.
std::optional<MpiImplementation> application_mpi(const std::filesystem::path& binary);

// The MPI a run's injector must be built for: `declared` (the campaign key
// `mpi:`; nullopt for auto), else the application's (from its binary,
// `app_path` as found on PATH), else the launcher's, else MPICH.
// Throws std::invalid_argument naming both MPIs when any two of the declared
// MPI, the application's and the launcher's differ (an Open MPI application
// under Hydra's mpiexec cannot start right: every rank would be a singleton).
// `command` is the launcher prefix (mpiexec words): refused, too, when the
// launcher says it cannot start that MPI's ranks that way
// (MpiLauncher::cannot_start).
MpiImplementation run_mpi(const std::filesystem::path& app_path, const MpiLauncher& launcher,
                          std::optional<MpiImplementation> declared = std::nullopt,
                          const std::vector<std::string>& command = {});

}  // namespace scalefuzz::harness
