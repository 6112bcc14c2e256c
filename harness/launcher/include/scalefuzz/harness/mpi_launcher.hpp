// MPI launchers as plug-ins: one small class per launcher program (MPICH's
// Hydra mpiexec, SLURM's srun), one file each under harness/launcher/launchers/,
// registered by one word in harness/launcher/CMakeLists.txt
// (SCALEFUZZ_LAUNCHERS). A launcher owns everything that differs between
// launcher programs: the words that start N ranks, how the preload and the
// environment reach the ranks, the variable that tells a rank its number, the
// launcher's own failure messages, and the `-n` syntax of a replay line.
//
// Pure: no process is started here (harness/launcher's launch_local does),
// so the campaign loader can name launchers without the process machinery.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// The MPI implementations the injector is built for (one library each:
// libscalefuzz_inject.so, libscalefuzz_inject_openmpi.so).
enum class MpiImplementation { Mpich, OpenMpi };
// "MPICH", "Open MPI".
std::string_view to_string(MpiImplementation mpi);
// The campaign key `mpi:`'s words: "mpich", "openmpi" (and back; nullopt for
// any other word, `auto` included).
std::string_view key_word(MpiImplementation mpi);
std::optional<MpiImplementation> mpi_named(std::string_view word);

// What the launcher and the MPI library printed about a failure, read line
// by line from the run's stdout and stderr.
struct FailureReport {
  std::optional<std::string> exec_error;  // "./app: No such file or directory"
  bool mpi_abort = false;
  int abort_rank = -1;
  std::string abort_call;                 // "MPI_Abort(MPI_COMM_WORLD, 7)"
  int signal = 0;                         // signal that killed a rank, 0 if none reported
  long signalled_pid = 0;                 // pid of the rank that caught it, if printed
  int banner_exit_code = 0;               // a rank's exit code as the launcher printed it, 0 if none
};

// Where the process count sits in a launch command: command[index] and the
// `words` after it spell it (e.g. "-n", "4": words 2).
struct ProcessCountSpan {
  std::size_t index = 0;
  std::size_t words = 0;
  int nprocs = 0;
};

class MpiLauncher {
 public:
  virtual ~MpiLauncher() = default;

  // The value of the campaign key `launcher:` and of `exec --launcher`.
  virtual std::string_view name() const = 0;
  // One line for docs and error messages.
  virtual std::string_view description() const = 0;
  // Whether a command whose program has this file name is this launcher
  // (`launcher: auto`).
  virtual bool recognizes(std::string_view program_basename) const = 0;
  // The command prefix when the campaign names the launcher but no `mpiexec:`.
  virtual std::vector<std::string> default_command() const = 0;
  // The MPI whose applications this launcher starts (nullopt: any, e.g. srun).
  virtual std::optional<MpiImplementation> implementation() const = 0;
  // Why `command` (the launcher prefix) cannot start ranks of `mpi`; empty
  // when it can (srun: Debian's Open MPI 4.1 needs --mpi=pmix).
  virtual std::string cannot_start(MpiImplementation /*mpi*/, const std::vector<std::string>& /*command*/) const {
    return {};
  }

  // What follows the command prefix: process count, preload, the environment
  // the ranks need, then the application's argv. `injector` is absolute or
  // empty (no preload); `rank_env` names the variables the ranks must see
  // (the launcher's own environment holds them: a launcher that does not
  // forward its environment by default passes these names on).
  virtual std::vector<std::string> job_args(const RunSpec& spec, const std::filesystem::path& injector,
                                            const std::vector<std::string>& rank_env) const = 0;

  // The environment variable holding a rank's world rank in the rank's
  // process (a rank's own children inherit it).
  virtual const char* rank_variable() const = 0;

  // Reads one line of the run's output for the launcher's own messages;
  // true when the line was one of them. finish_failure_report draws the
  // conclusions that need every line.
  virtual bool scan_failure_line(const std::string& line, FailureReport& report) const = 0;
  virtual void finish_failure_report(FailureReport&) const {}
  // Appended to a crash's detail when the launcher reports a SIGKILL without
  // naming the rank that caught it; empty when it means nothing special.
  virtual std::string_view unattributed_sigkill_hint() const { return {}; }

  // The process count in a replay line, and where it sits in a command
  // (nullopt: not there). Hydra and srun both spell it "-n N".
  virtual std::vector<std::string> process_count_args(int nprocs) const;
  virtual std::optional<ProcessCountSpan> find_process_count(const std::vector<std::string>& command) const;

  // Whether the launcher may run as PID 1 of a PID namespace of its own
  // (harness/process: every process of the run dies with it).
  virtual bool own_pid_namespace() const { return true; }

  // Environment a task adds inside a SLURM allocation of `nodes` nodes.
  virtual std::map<std::string, std::string> allocation_environment(int /*nodes*/) const { return {}; }

 protected:
  // The first of `flags` followed by a word, from command[1] on; nprocs -1
  // when that word is not a whole number.
  static std::optional<ProcessCountSpan> count_after_flag(const std::vector<std::string>& command,
                                                          std::initializer_list<std::string_view> flags);
  // A whole decimal number, or -1.
  static int parse_count(std::string_view word);
};

// Every registered launcher, in registration order (the first is the
// fallback of `auto`).
const std::vector<const MpiLauncher*>& mpi_launchers();
// nullptr when no launcher has that name.
const MpiLauncher* find_mpi_launcher(std::string_view name);
// `launcher: auto`: the first launcher that recognizes the command's
// program, else the first registered one (Hydra: any mpiexec-like wrapper).
const MpiLauncher& detect_mpi_launcher(const std::vector<std::string>& command);
// The names `launcher:` accepts: "auto" then every registered launcher's.
std::vector<std::string> mpi_launcher_choices();

}  // namespace scalefuzz::harness
