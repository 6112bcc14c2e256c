// MPICH's Hydra process manager (`mpiexec`, `mpiexec.hydra`, `mpiexec.mpich`):
//   mpiexec -n N [-genv LD_PRELOAD <injector>] <argv>
// Hydra forwards its whole environment to the ranks by default, so only the
// preload is named: -genv reaches the ranks and not mpiexec or its proxies.
#include <regex>

#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {
namespace {

// Hydra's execvp failure: the binary is missing or not executable.
const std::regex kExecError(R"(execvp error on file (.*) \((.*)\))");
// Hydra 4.x: "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)"
const std::regex kExitString(R"(EXIT STRING: .*\(signal (\d+)\))");
// Hydra 3.x: "=   KILLED BY SIGNAL: 11 (Segmentation fault)"
const std::regex kKilledBySignal(R"(KILLED BY SIGNAL: (\d+))");
// Older Hydra: "=   EXIT CODE: 139" inside the BAD TERMINATION banner.
const std::regex kExitCode(R"(^=\s+EXIT CODE: (\d+))");

class HydraLauncher final : public MpiLauncher {
 public:
  std::string_view name() const override { return "hydra"; }
  std::string_view description() const override { return "MPICH's Hydra mpiexec (-genv LD_PRELOAD, PMI_RANK)"; }
  bool recognizes(std::string_view program) const override {
    return program == "mpiexec" || program == "mpiexec.hydra" || program == "mpiexec.mpich" ||
           program == "mpirun.mpich";
  }
  std::vector<std::string> default_command() const override { return {"mpiexec"}; }
  std::optional<MpiImplementation> implementation() const override { return MpiImplementation::Mpich; }

  std::vector<std::string> job_args(const RunSpec& spec, const std::filesystem::path& injector,
                                    const std::vector<std::string>& /*rank_env: Hydra forwards all*/) const override {
    std::vector<std::string> args = process_count_args(spec.nprocs);
    if (!injector.empty()) args.insert(args.end(), {"-genv", "LD_PRELOAD", injector.string()});
    args.insert(args.end(), spec.argv.begin(), spec.argv.end());
    return args;
  }

  // Set by Hydra's PMI in every rank it starts.
  const char* rank_variable() const override { return "PMI_RANK"; }

  bool scan_failure_line(const std::string& line, FailureReport& report) const override {
    std::smatch m;
    // Cheap substring tests first: output can be large.
    if (!report.exec_error && line.find("execvp error") != std::string::npos && std::regex_search(line, m, kExecError)) {
      report.exec_error = m[1].str() + ": " + m[2].str();
      return true;
    }
    if (line.find("EXIT STRING") != std::string::npos && std::regex_search(line, m, kExitString)) {
      report.signal = std::stoi(m[1].str());
      return true;
    }
    if (line.find("KILLED BY SIGNAL") != std::string::npos && std::regex_search(line, m, kKilledBySignal)) {
      if (report.signal == 0) report.signal = std::stoi(m[1].str());
      return true;
    }
    if (line.find("EXIT CODE:") != std::string::npos && std::regex_search(line, m, kExitCode)) {
      if (report.banner_exit_code == 0) report.banner_exit_code = std::stoi(m[1].str());
      return true;
    }
    return false;
  }

  void finish_failure_report(FailureReport& report) const override {
    // Hydra before 4.x printed 128 + signal as the exit code of a killed rank.
    if (report.signal == 0 && report.banner_exit_code > 128 && report.banner_exit_code < 128 + 65)
      report.signal = report.banner_exit_code - 128;
  }

  // Hydra (MPICH 4.0) SIGKILLs the other ranks when one exits early without
  // MPI_Finalize and then reports only that SIGKILL.
  std::string_view unattributed_sigkill_hint() const override {
    return " (Hydra also reports this when a rank exited early without MPI_Finalize)";
  }

  std::optional<ProcessCountSpan> find_process_count(const std::vector<std::string>& command) const override {
    return count_after_flag(command, {"-n", "-np"});
  }

  // On one node Hydra forks its proxy instead of starting it through srun:
  // the ranks stay in the task's process tree, so the watchdog can freeze
  // them and take their stacks.
  std::map<std::string, std::string> allocation_environment(int nodes) const override {
    if (nodes == 1) return {{"HYDRA_LAUNCHER", "fork"}};
    return {};
  }
};

}  // namespace

const MpiLauncher& hydra_launcher() {
  static const HydraLauncher launcher;
  return launcher;
}

}  // namespace scalefuzz::harness
