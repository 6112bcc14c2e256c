# The MPI launcher plug-ins: launchers/<name>.cpp defines
# `const MpiLauncher& <name>_launcher()`; registering one is one word in
# SCALEFUZZ_LAUNCHERS. The first is the fallback of `launcher: auto`.
# Included by harness/launcher/CMakeLists.txt and tests/fuzz/CMakeLists.txt.
set(SCALEFUZZ_LAUNCHERS hydra srun openmpi)

# Sets <out_var> to the registry's sources (absolute), generating the
# registration list into the current binary directory.
function(scalefuzz_launcher_sources out_var)
  set(declarations "")
  set(entries "")
  set(sources ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/registry.cpp)
  foreach(launcher IN LISTS SCALEFUZZ_LAUNCHERS)
    string(APPEND declarations "const MpiLauncher& ${launcher}_launcher();\n")
    string(APPEND entries "&${launcher}_launcher(), ")
    list(APPEND sources ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${launcher}.cpp)
  endforeach()
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/registered_launchers.cpp)
  file(CONFIGURE OUTPUT ${generated} CONTENT
    "// Generated from SCALEFUZZ_LAUNCHERS in harness/launcher/launchers/launchers.cmake.
#include \"scalefuzz/harness/mpi_launcher.hpp\"
namespace scalefuzz::harness {
${declarations}std::vector<const MpiLauncher*> registered_mpi_launchers() { return {${entries}}; }
}  // namespace scalefuzz::harness
")
  list(APPEND sources ${generated})
  set(${out_var} ${sources} PARENT_SCOPE)
endfunction()
