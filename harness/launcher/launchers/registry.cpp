// The launcher registry: the list comes from SCALEFUZZ_LAUNCHERS in
// harness/launcher/CMakeLists.txt (registered_launchers.cpp, generated).
#include <charconv>
#include <filesystem>

#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {

// Defined in the generated registered_launchers.cpp.
std::vector<const MpiLauncher*> registered_mpi_launchers();

std::string_view to_string(MpiImplementation mpi) {
  return mpi == MpiImplementation::OpenMpi ? "Open MPI" : "MPICH";
}

std::vector<std::string> MpiLauncher::process_count_args(int nprocs) const { return {"-n", std::to_string(nprocs)}; }

int MpiLauncher::parse_count(std::string_view word) {
  int n = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  return ec == std::errc() && end == word.data() + word.size() && !word.empty() ? n : -1;
}

std::optional<ProcessCountSpan> MpiLauncher::count_after_flag(const std::vector<std::string>& command,
                                                              std::initializer_list<std::string_view> flags) {
  for (std::size_t i = 1; i + 1 < command.size(); ++i)
    for (const auto flag : flags)
      if (command[i] == flag) return ProcessCountSpan{i, 2, parse_count(command[i + 1])};
  return std::nullopt;
}

std::optional<ProcessCountSpan> MpiLauncher::find_process_count(const std::vector<std::string>& command) const {
  return count_after_flag(command, {"-n"});
}

const std::vector<const MpiLauncher*>& mpi_launchers() {
  static const std::vector<const MpiLauncher*> all = registered_mpi_launchers();
  return all;
}

const MpiLauncher* find_mpi_launcher(std::string_view name) {
  for (const auto* launcher : mpi_launchers())
    if (launcher->name() == name) return launcher;
  return nullptr;
}

const MpiLauncher& detect_mpi_launcher(const std::vector<std::string>& command) {
  if (!command.empty()) {
    const std::string program = std::filesystem::path(command.front()).filename().string();
    for (const auto* launcher : mpi_launchers())
      if (launcher->recognizes(program)) return *launcher;
  }
  return *mpi_launchers().front();
}

std::vector<std::string> mpi_launcher_choices() {
  std::vector<std::string> names{"auto"};
  for (const auto* launcher : mpi_launchers()) names.emplace_back(launcher->name());
  return names;
}

}  // namespace scalefuzz::harness
