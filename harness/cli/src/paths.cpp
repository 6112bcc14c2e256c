#include "paths.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "args.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;

namespace {
fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path{} : exe.parent_path();
}
}  // namespace

fs::path injector_library() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("SCALEFUZZ_INJECTOR"); env && *env) {
    if (fs::exists(env)) return fs::absolute(env);
    throw InfraError(std::string("SCALEFUZZ_INJECTOR=") + env + ": no such file");
  }
  fs::path dir = self_dir();
  candidates.push_back(dir / "injectors" / "libscalefuzz_inject.so");        // build tree
  candidates.push_back(dir / ".." / "lib" / "libscalefuzz_inject.so");        // installed
  candidates.push_back(fs::path(SCALEFUZZ_INJECTOR_BUILD_PATH));              // where CMake put it
  std::string looked;
  for (const auto& c : candidates) {
    if (fs::exists(c)) return fs::weakly_canonical(c);
    looked += "\n  " + c.string();
  }
  throw InfraError("the injector library libscalefuzz_inject.so was not found; looked at:" + looked +
                   "\nbuild it (ci/build.sh) or set SCALEFUZZ_INJECTOR");
}

fs::path default_build_dir() {
  if (const char* env = std::getenv("SCALEFUZZ_BUILD_DIR"); env && *env) return fs::absolute(env);
  fs::path dir = self_dir();
  if (fs::exists(dir / "CMakeCache.txt")) return dir;
  return fs::path(SCALEFUZZ_BUILD_TREE);
}

fs::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? fs::path(name) : fs::path{};
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    fs::path candidate = fs::path(p.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

}  // namespace scalefuzz::cli
