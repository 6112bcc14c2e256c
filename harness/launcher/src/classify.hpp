// Turning what a finished mpiexec left behind (its wait status and the
// stdout/stderr files) into an Outcome. Pure functions over text, so they
// are unit-tested on recorded MPICH messages without running MPI.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// What Hydra and the MPI library printed about the failure, if anything.
struct FailureReport {
  std::optional<std::string> exec_error;  // "./app: No such file or directory"
  bool mpi_abort = false;
  int abort_rank = -1;
  std::string abort_call;                 // "MPI_Abort(MPI_COMM_WORLD, 7)"
  int signal = 0;                         // signal that killed a rank, 0 if none reported
  long signalled_pid = 0;                 // pid of the rank that caught it, if printed
};

// Scans MPICH/Hydra (and UCX) messages in the given output files, line by line.
FailureReport scan_failure_report(const std::filesystem::path& stdout_path,
                                  const std::filesystem::path& stderr_path);

// Problems with the run's result check (unknown check kind, missing or
// invalid regex) as one readable line; nullopt when it is usable.
std::optional<std::string> result_check_problem(const RunSpec& spec);

// First stdout line the pattern finds (regex_search), as "line N: text";
// throws std::regex_error for an invalid pattern.
std::optional<std::string> find_stdout_line(const std::filesystem::path& stdout_path,
                                            const std::string& pattern);

// The streams the run's check reads: stdout-*, stderr-* or output-* (both), with their names.
std::vector<std::pair<std::string, std::filesystem::path>> checked_streams(const RunSpec& spec,
                                                                           const std::filesystem::path& stdout_path,
                                                                           const std::filesystem::path& stderr_path);

// Classifies a run whose mpiexec exited (wait_status from waitpid). A clean
// exit is a wrong result when stdout has a line matching
// spec.wrong_result_regex, or no line matching spec.expected_stdout_regex.
// A rank process of the run as the harness knows it.
struct RankProcess {
  int rank = -1;
  long host_pid = 0;  // its pid on the host (outside the run's PID namespace)
};

// rank_of_pid maps a pid as the run's processes saw it (UCX's "Caught
// signal" line; inside the run's PID namespace when it has one) to the rank
// and its host pid. The details name the rank and the host pid; a pid that
// maps to no rank is not shown (it may be a namespace pid, meaningless on
// the host).
Outcome classify_exit(const RunSpec& spec, int wait_status, const std::filesystem::path& stdout_path,
                      const std::filesystem::path& stderr_path,
                      const std::function<std::optional<RankProcess>(long)>& rank_of_pid);

// "SIGSEGV" for 11, "signal 77" for unknown numbers.
std::string signal_name(int signal);

}  // namespace scalefuzz::harness
