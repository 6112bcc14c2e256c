#include "scalefuzz/harness/application_mpi.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <stdexcept>
#include <string_view>

namespace scalefuzz::harness {

std::optional<MpiImplementation> application_mpi(const std::filesystem::path& binary) {
  const int fd = ::open(binary.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<MpiImplementation> found;
  elf_version(EV_CURRENT);
  if (Elf* elf = elf_begin(fd, ELF_C_READ, nullptr); elf != nullptr) {
    Elf_Scn* scn = nullptr;
    while (!found && (scn = elf_nextscn(elf, scn)) != nullptr) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_DYNAMIC) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      const std::size_t n = data != nullptr && shdr.sh_entsize != 0 ? shdr.sh_size / shdr.sh_entsize : 0;
      for (std::size_t i = 0; i < n && !found; ++i) {
        GElf_Dyn dyn;
        if (gelf_getdyn(data, static_cast<int>(i), &dyn) == nullptr || dyn.d_tag != DT_NEEDED) continue;
        const char* name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
        if (name == nullptr) continue;
        const std::string_view lib(name);
        if (lib.starts_with("libmpich.so")) found = MpiImplementation::Mpich;
        else if (lib.starts_with("libmpi.so")) found = MpiImplementation::OpenMpi;
      }
    }
    elf_end(elf);
  }
  ::close(fd);
  return found;
}

namespace {
std::string launch_hint(MpiImplementation mpi) {
  return mpi == MpiImplementation::OpenMpi ? "Open MPI's mpirun (mpirun.openmpi, launcher: openmpi)"
                                           : "MPICH's mpiexec (mpiexec.mpich, launcher: hydra)";
}
}  // namespace

MpiImplementation run_mpi(const std::filesystem::path& app_path, const MpiLauncher& launcher,
                          std::optional<MpiImplementation> declared, const std::vector<std::string>& command) {
  const auto app = application_mpi(app_path);
  const auto launcher_mpi = launcher.implementation();
  const auto name = [](MpiImplementation mpi) { return std::string(to_string(mpi)); };
  if (declared && app && *app != *declared)
    throw std::invalid_argument("the campaign says mpi: " + std::string(key_word(*declared)) + " (" + name(*declared) +
                                ") but " + app_path.string() + " is built against " + name(*app) +
                                " (DT_NEEDED): set mpi: " + std::string(key_word(*app)) + " or auto, or rebuild it");
  if (declared && launcher_mpi && *launcher_mpi != *declared)
    throw std::invalid_argument("the campaign says mpi: " + std::string(key_word(*declared)) + " (" + name(*declared) +
                                ") but the launcher is " + name(*launcher_mpi) + "'s (" + std::string(launcher.name()) +
                                "): launch it with " + launch_hint(*declared));
  if (app && launcher_mpi && *app != *launcher_mpi)
    throw std::invalid_argument(app_path.string() + " is built against " + name(*app) + " (DT_NEEDED) but the launcher is " +
                                name(*launcher_mpi) + "'s (" + std::string(launcher.name()) + "): launch it with " +
                                launch_hint(*app));
  const MpiImplementation mpi = declared ? *declared : app ? *app : launcher_mpi.value_or(MpiImplementation::Mpich);
  if (const std::string why = launcher.cannot_start(mpi, command); !why.empty())
    throw std::invalid_argument(app_path.string() + " is built against " + name(mpi) + ": " + why);
  return mpi;
}

}  // namespace scalefuzz::harness
