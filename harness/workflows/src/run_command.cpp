#include "scalefuzz/workflows/run_command.hpp"

#include <cctype>
#include <filesystem>

#include "scalefuzz/workflows/reproduce_plan.hpp"
#include "scalefuzz/engine/ninja_dependency.hpp"
#include "scalefuzz/engine/replay.hpp"
#include "scalefuzz/harness/atomic_file.hpp"

namespace scalefuzz::workflows {

std::string joined_for_shell(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& w : argv) line += (line.empty() ? "" : " ") + shell_quote(w);
  return line;
}

std::string replay_timing_note(bool quiet_run) {
  return quiet_run ? "timing-dependent: without noise the seed decides nothing; whether the outcome comes back "
                     "depends on timing alone"
                   : "timing-dependent: the seed fixes scalefuzz's injected noise, not the operating system's "
                     "scheduling, so the outcome may need several tries to come back";
}

void write_replay_file(const std::filesystem::path& run_dir, const std::string& exact_line,
                       const std::vector<std::string>& exec_argv, bool quiet_run) {
  std::string text;
  if (!exact_line.empty()) text = "# exact: the recorded matches forced (scalefuzz replay)\n" + exact_line + "\n";
  text += "# same seed and noise; " + replay_timing_note(quiet_run) + "\n" + joined_for_shell(exec_argv) + "\n";
  try {
    harness::write_file_atomic(run_dir / "replay.txt", text);
  } catch (const std::exception&) {
    // The replay line is a convenience; the run is stored without it.
  }
}

void write_stored_run_replay(const harness::RunStore& store, const harness::RunSpec& run,
                             const std::vector<std::string>& mpiexec, const std::string& oversubscribe,
                             const harness::MpiLauncher* launcher, std::optional<harness::MpiImplementation> mpi) {
  namespace fs = std::filesystem;
  std::string analysis;
  if (run.noise.mode == noise::Mode::Application)
    if (auto dir = engine::ninja_analysis_for(store, run)) analysis = fs::absolute(*dir).string();
  const fs::path out = fs::absolute(store.out_dir());
  const auto argv = replay_exec_argv(this_program(), run, mpiexec, oversubscribe, analysis,
                                     (out / "replay" / run.run_id).string(), launcher, mpi);
  const fs::path run_dir = out / "runs" / run.run_id;
  write_replay_file(run_dir, joined_for_shell(engine::replay_argv(this_program(), run_dir)), argv,
                    run.noise.mode == noise::Mode::None);
}

std::string this_program() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("scalefuzz") : self.string();
}

std::string display_command(const harness::RunSpec& spec, const harness::LaunchOptions& options) {
  std::string line = "env";
  auto add_env = [&](const std::string& k, const std::string& v) { line += " " + shell_quote(k + "=" + v); };
  for (const auto& [k, v] : spec.env) add_env(k, v);
  for (const auto& [k, v] : options.env) add_env(k, v);
  for (const auto& [k, v] : harness::injector_environment(spec, options.run_dir)) add_env(k, v);
  for (const auto& w : harness::launch_command(spec, options)) line += " " + shell_quote(w);
  return line;
}

}  // namespace scalefuzz::workflows
