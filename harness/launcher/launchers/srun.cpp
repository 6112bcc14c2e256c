// SLURM's srun, inside an allocation:
//   srun -n N [--export=ALL,LD_PRELOAD=<injector>] <argv>
// --export=ALL keeps srun's environment for the tasks and adds the preload
// to the tasks only. The ranks are children of slurmstepd, not of srun: the
// watchdog cannot freeze them or take their stacks.
#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {
namespace {

class SrunLauncher final : public MpiLauncher {
 public:
  std::string_view name() const override { return "srun"; }
  std::string_view description() const override { return "SLURM's srun (--export=ALL,LD_PRELOAD, SLURM_PROCID)"; }
  bool recognizes(std::string_view program) const override { return program == "srun"; }
  // MPICH's ranks find each other through SLURM's PMI-2 plugin.
  std::vector<std::string> default_command() const override { return {"srun", "--mpi=pmi2", "--quiet"}; }
  // Either MPI (through SLURM's PMI plugins).
  std::optional<MpiImplementation> implementation() const override { return std::nullopt; }
  // Debian's Open MPI 4.1 finds its peers through PMIx only (no PMI-2
  // client: MPI_Init fails "on a NULL communicator" under --mpi=pmi2 or
  // --mpi=none; --mpi=pmix runs, checked with this project's SLURM
  // 22.05, docs/slurm.md). A command without --mpi takes the cluster's
  // MpiDefault, which may be PMIx: not refused.
  std::string cannot_start(MpiImplementation mpi, const std::vector<std::string>& command) const override {
    if (mpi != MpiImplementation::OpenMpi) return {};
    for (std::size_t i = 1; i < command.size(); ++i) {
      std::string plugin;
      if (command[i].rfind("--mpi=", 0) == 0) plugin = command[i].substr(6);
      else if (command[i] == "--mpi" && i + 1 < command.size()) plugin = command[i + 1];
      else continue;
      if (plugin.rfind("pmix", 0) == 0) return {};
      return "Open MPI applications start under srun with PMIx only (Debian's Open MPI 4.1 has no PMI-2 client), "
             "but the command says --mpi=" + plugin + ": use srun --mpi=pmix (campaign: mpiexec: [srun, --mpi=pmix, --quiet])";
    }
    return {};
  }

  std::vector<std::string> job_args(const RunSpec& spec, const std::filesystem::path& injector,
                                    const std::vector<std::string>& /*rank_env: --export=ALL*/) const override {
    std::vector<std::string> args = process_count_args(spec.nprocs);
    if (!injector.empty()) args.push_back("--export=ALL,LD_PRELOAD=" + injector.string());
    args.insert(args.end(), spec.argv.begin(), spec.argv.end());
    return args;
  }

  // Set by slurmstepd in every task, whatever the MPI plugin.
  const char* rank_variable() const override { return "SLURM_PROCID"; }

  // srun's own messages ("srun: error: ...") are not classified yet: no test
  // here runs srun. The MPI library's abort and signal lines still are.
  bool scan_failure_line(const std::string&, FailureReport&) const override { return false; }

  std::optional<ProcessCountSpan> find_process_count(const std::vector<std::string>& command) const override {
    for (std::size_t i = 1; i < command.size(); ++i)
      if (command[i].rfind("--ntasks=", 0) == 0)
        return ProcessCountSpan{i, 1, parse_count(std::string_view(command[i]).substr(9))};
    return count_after_flag(command, {"-n", "--ntasks"});
  }
};

}  // namespace

const MpiLauncher& srun_launcher() {
  static const SrunLauncher launcher;
  return launcher;
}

}  // namespace scalefuzz::harness
