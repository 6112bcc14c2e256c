// Open MPI's mpirun (`mpirun.openmpi`, `orterun`; plain `mpirun` stays
// Hydra's unless named `launcher: openmpi`, as Debian's alternatives may
// point it at either MPI):
//   mpirun -np N --oversubscribe [--allow-run-as-root] [-x LD_PRELOAD=<injector>] -x NAME... <argv>
// -x LD_PRELOAD reaches the ranks only, not mpirun or its daemons; each
// variable the ranks need is named with -x (mpirun forwards only what -x
// names to ranks on other nodes). --oversubscribe: Open MPI refuses more
// ranks than cores without it (Hydra oversubscribes silently);
// --allow-run-as-root: Open MPI refuses root without it (CI containers).
// Messages below are Open MPI 4.1.4's (Debian 12), read off real runs.
#include <unistd.h>

#include <regex>

#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {
namespace {

// Open MPI 4.1.4's lines about a failed job, each with an example.
struct FailureLines {
  // "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD", then "with errorcode 7."
  std::regex abort_invoked{R"(MPI_ABORT was invoked on rank (\d+) in communicator (\S+))"};
  std::regex abort_code{R"(^with errorcode (-?\d+)\.)"};
  // "mpirun.openmpi noticed that process rank 1 with PID 0 on node vm exited on signal 11 (Segmentation fault)."
  std::regex exited_on_signal{R"(noticed that process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+))"};
  // Open MPI's signal handler in the rank: "[vm:16873] *** Process received signal ***"
  std::regex received_signal{R"(^\[[^:\]]*:(\d+)\] \*\*\* Process received signal \*\*\*)"};
  // A rank that exited non-zero: "  Exit code:    3" in the "detected that
  // one or more processes exited with non-zero status" banner.
  std::regex exit_code{R"(^\s+Exit code:\s+(\d+))"};
  // "mpirun was unable to launch the specified application as it could not
  // access or execute an executable:" ... "Executable: ./nope"
  std::regex executable{R"(^Executable: (.*))"};
};
const FailureLines& failure_lines() {
  static const FailureLines lines;
  return lines;
}

class OpenMpiLauncher final : public MpiLauncher {
 public:
  std::string_view name() const override { return "openmpi"; }
  std::string_view description() const override {
    return "Open MPI's mpirun (-np, --oversubscribe, -x LD_PRELOAD, OMPI_COMM_WORLD_RANK)";
  }
  bool recognizes(std::string_view program) const override {
    return program == "mpirun.openmpi" || program == "mpiexec.openmpi" || program == "orterun";
  }
  std::vector<std::string> default_command() const override { return {"mpirun.openmpi"}; }
  std::optional<MpiImplementation> implementation() const override { return MpiImplementation::OpenMpi; }

  std::vector<std::string> job_args(const RunSpec& spec, const std::filesystem::path& injector,
                                    const std::vector<std::string>& rank_env) const override {
    std::vector<std::string> args = process_count_args(spec.nprocs);
    args.push_back("--oversubscribe");
    if (geteuid() == 0) args.push_back("--allow-run-as-root");
    if (!injector.empty()) args.insert(args.end(), {"-x", "LD_PRELOAD=" + injector.string()});
    for (const auto& name : rank_env) args.insert(args.end(), {"-x", name});
    args.insert(args.end(), spec.argv.begin(), spec.argv.end());
    return args;
  }

  // Open MPI names a job's family, its session directory (/tmp/ompi.HOST.UID/jf.N)
  // and its shared-memory segments (/dev/shm/vader_segment.HOST.JOBID.RANK)
  // after the host name and mpirun's pid: as PID 1 of a namespace every
  // mpirun had the same pid, and two runs at once (a campaign's jobs: 2)
  // shared segments (crashes in mca_btl_vader_poll_handle_frag, hangs,
  // OpenMpiSpine). mpirun runs as an ordinary child instead (the process
  // tracking by launch marker of harness/launcher/README.md).
  bool own_pid_namespace() const override { return false; }

  // Set by Open MPI's runtime in every rank it starts.
  const char* rank_variable() const override { return "OMPI_COMM_WORLD_RANK"; }

  bool scan_failure_line(const std::string& line, FailureReport& report) const override {
    const FailureLines& re = failure_lines();
    std::smatch m;
    // Cheap substring tests first: output can be large.
    if (line.find("MPI_ABORT was invoked") != std::string::npos && std::regex_search(line, m, re.abort_invoked)) {
      if (!report.mpi_abort) {
        report.mpi_abort = true;
        report.abort_rank = std::stoi(m[1].str());
        report.abort_call = "MPI_Abort(" + m[2].str() + ")";
      }
      return true;
    }
    if (report.mpi_abort && line.rfind("with errorcode", 0) == 0 && std::regex_search(line, m, re.abort_code)) {
      if (report.abort_call.back() == ')' && report.abort_call.find(',') == std::string::npos)
        report.abort_call.insert(report.abort_call.size() - 1, ", " + m[1].str());
      return true;
    }
    if (line.find("exited on signal") != std::string::npos && std::regex_search(line, m, re.exited_on_signal)) {
      if (report.signal == 0) report.signal = std::stoi(m[2].str());
      return true;
    }
    if (report.signalled_pid == 0 && line.find("Process received signal") != std::string::npos &&
        std::regex_search(line, m, re.received_signal)) {
      report.signalled_pid = std::stol(m[1].str());
      return true;
    }
    if (line.find("Exit code:") != std::string::npos && std::regex_search(line, m, re.exit_code)) {
      if (report.banner_exit_code == 0) report.banner_exit_code = std::stoi(m[1].str());
      return true;
    }
    if (line.find("unable to launch the specified application") != std::string::npos) {
      if (!report.exec_error) report.exec_error = "the executable could not be accessed or executed";
      return true;
    }
    if (report.exec_error && line.rfind("Executable: ", 0) == 0 && std::regex_search(line, m, re.executable)) {
      report.exec_error = m[1].str() + ": could not be accessed or executed";
      return true;
    }
    return false;
  }

  std::vector<std::string> process_count_args(int nprocs) const override { return {"-np", std::to_string(nprocs)}; }
  std::optional<ProcessCountSpan> find_process_count(const std::vector<std::string>& command) const override {
    return count_after_flag(command, {"-np", "-n", "--np", "-c"});
  }
};

}  // namespace

const MpiLauncher& openmpi_launcher() {
  static const OpenMpiLauncher launcher;
  return launcher;
}

}  // namespace scalefuzz::harness
