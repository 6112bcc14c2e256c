// MPI_Abort as the injector recorded it: which rank called it, with which
// error code, from which call site. MPICH's mpiexec exits 0 after
// MPI_Abort(comm, 0), so the trace, not the exit code, says a run aborted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

struct AbortRecord {
  int rank = -1;
  long long error_code = 0;
  std::string call_site;  // "function (file:line)", or "" when not symbolized
  // Not an MPI_Abort call of the application: the injector's error handler
  // (MPI_ERRORS_ARE_FATAL's stand-in, injectors/recorder/errors.cpp) recorded
  // this fatal MPI error in ranks/N.errors and aborted with error code 1.
  std::string fatal_error;  // "MPI_ERR_ARG: invalid argument of some other kind"
};

// The first MPI_Abort record (lowest rank) in run_dir/ranks, else the first
// fatal MPI error the injector's handler recorded (it aborts the job), if any.
std::optional<AbortRecord> find_abort_record(const std::filesystem::path& run_dir, int nprocs);

// Makes `outcome` mpi-abort with the rank, code and call site (a hang stays a
// hang: its stacks say more). Keeps the earlier class in the detail.
void apply_abort_record(Outcome& outcome, const AbortRecord& abort);

}  // namespace scalefuzz::harness
