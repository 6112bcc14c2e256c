// The launcher registry: the list comes from SCALEFUZZ_LAUNCHERS in
// harness/launcher/CMakeLists.txt (registered_launchers.cpp, generated).
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/harness/mpi_launcher.hpp"

namespace scalefuzz::harness {

// Defined in the generated registered_launchers.cpp.
std::vector<const MpiLauncher*> registered_mpi_launchers();

std::string_view to_string(MpiImplementation mpi) {
  return mpi == MpiImplementation::OpenMpi ? "Open MPI" : "MPICH";
}

namespace {
constexpr EnumName<MpiImplementation> kMpiKeyWords[] = {{MpiImplementation::Mpich, "mpich"},
                                                        {MpiImplementation::OpenMpi, "openmpi"}};
}  // namespace

std::string_view key_word(MpiImplementation mpi) { return name_of(kMpiKeyWords, mpi); }
std::optional<MpiImplementation> mpi_named(std::string_view word) { return value_named(kMpiKeyWords, word); }

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

namespace {
// The file a program word ends at through symlinks (Debian's alternatives:
// mpirun -> /etc/alternatives/mpirun -> /usr/bin/orterun), looked up on PATH
// when it has no '/'; empty when not found.
std::filesystem::path resolved_program(const std::string& word) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path program;
  if (word.find('/') != std::string::npos) {
    program = word;
  } else {
    const char* path = std::getenv("PATH");
    std::string_view dirs = path != nullptr ? path : "";
    while (!dirs.empty() && program.empty()) {
      const auto colon = dirs.find(':');
      const fs::path candidate = fs::path(dirs.substr(0, colon)) / word;
      if (fs::is_symlink(candidate, ec) || fs::exists(candidate, ec)) program = candidate;
      dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    }
  }
  // Link by link (the last target need not exist to name the launcher).
  for (int hops = 0; hops < 16 && !program.empty() && fs::is_symlink(program, ec); ++hops) {
    const fs::path target = fs::read_symlink(program, ec);
    if (ec) break;
    program = target.is_absolute() ? target : program.parent_path() / target;
  }
  return program;
}
}  // namespace

const MpiLauncher& detect_mpi_launcher(const std::vector<std::string>& command) {
  if (!command.empty()) {
    const std::string program = std::filesystem::path(command.front()).filename().string();
    for (const auto* launcher : mpi_launchers())
      if (launcher->recognizes(program)) return *launcher;
    // A plain name (mpirun) may be either MPI's: the file it resolves to tells.
    const std::string target = resolved_program(command.front()).filename().string();
    if (!target.empty() && target != program)
      for (const auto* launcher : mpi_launchers())
        if (launcher->recognizes(target)) return *launcher;
  }
  return *mpi_launchers().front();
}

std::vector<std::string> mpi_launcher_choices() {
  std::vector<std::string> names{"auto"};
  for (const auto* launcher : mpi_launchers()) names.emplace_back(launcher->name());
  return names;
}

}  // namespace scalefuzz::harness
