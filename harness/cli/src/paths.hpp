// Where scalefuzz finds its own pieces: the injector library and the build
// directory substituted for {build} in campaign files.
#pragma once

#include <filesystem>

namespace scalefuzz::cli {

// $SCALEFUZZ_INJECTOR, else the library built next to this executable.
// Throws InfraError naming every place looked at when none exists.
std::filesystem::path injector_library();

// $SCALEFUZZ_BUILD_DIR, else the build tree this executable was built in.
std::filesystem::path default_build_dir();

// Path of a program on PATH (or the path itself if it contains a '/'), empty if not found.
std::filesystem::path find_program(const std::string& name);

}  // namespace scalefuzz::cli
