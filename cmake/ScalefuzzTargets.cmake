# The two target shapes every room repeats: a library scalefuzz_<name> with
# its scalefuzz::<name> alias, and a GoogleTest executable registered with
# ctest. Both attach the project's warning flags.

# scalefuzz_library(<name> SOURCES <files>... [INCLUDE <dirs>...] [PRIVATE_INCLUDE <dirs>...]
#                   [PUBLIC <libs>...] [PRIVATE <libs>...])
function(scalefuzz_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;INCLUDE;PRIVATE_INCLUDE;PUBLIC;PRIVATE")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "scalefuzz_library(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  add_library(scalefuzz_${name} STATIC ${arg_SOURCES})
  add_library(scalefuzz::${name} ALIAS scalefuzz_${name})
  if(arg_INCLUDE)
    target_include_directories(scalefuzz_${name} PUBLIC ${arg_INCLUDE})
  endif()
  if(arg_PRIVATE_INCLUDE)
    target_include_directories(scalefuzz_${name} PRIVATE ${arg_PRIVATE_INCLUDE})
  endif()
  target_link_libraries(scalefuzz_${name} PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE} scalefuzz::warnings)
endfunction()

# scalefuzz_gtest(<target> SOURCES <files>... LIBS <libs>... LABELS <labels>
#                 [TIMEOUT <seconds>] [SERIAL] [INCLUDE <dirs>...]
#                 [DEFINITIONS <defs>...] [DEPENDS <targets>...])
# Links GoogleTest's main; SERIAL: RUN_SERIAL (tests that start mpiexec
# with several ranks on a 2-core machine).
function(scalefuzz_gtest target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SERIAL" "TIMEOUT;LABELS" "SOURCES;LIBS;INCLUDE;DEFINITIONS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_LABELS)
    message(FATAL_ERROR "scalefuzz_gtest(${target}): needs LABELS; unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE ${arg_LIBS} GTest::gtest_main scalefuzz::warnings)
  if(arg_INCLUDE)
    target_include_directories(${target} PRIVATE ${arg_INCLUDE})
  endif()
  if(arg_DEFINITIONS)
    target_compile_definitions(${target} PRIVATE ${arg_DEFINITIONS})
  endif()
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
  set(properties)
  if(arg_TIMEOUT)
    list(APPEND properties TIMEOUT ${arg_TIMEOUT})
  endif()
  if(arg_SERIAL)
    list(APPEND properties RUN_SERIAL TRUE)
  endif()
  gtest_discover_tests(${target} PROPERTIES LABELS "${arg_LABELS}" ${properties} DISCOVERY_TIMEOUT 60)
endfunction()

# scalefuzz_detector(<name> SOURCES <files>... [PUBLIC <libs>...] [PRIVATE <libs>...]
#                    TESTS <files>... [TEST_LIBS <libs>...] ANALYSIS <files>... [ANALYSIS_PRIVATE <libs>...])
# A detector room (detectors/<name>/): the pure library scalefuzz::<name>
# (include/ public, src/ private), its unit tests <name>_test (label unit;
# TEST_LIBS: e.g. scalefuzz::trace_testing, hand-built traces) and
# its glue into the analysis engine, scalefuzz::<name>_analysis (analysis/,
# on the plug-in contract scalefuzz::detector_api; registered by
# scalefuzz_register_detector).
function(scalefuzz_detector name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;PUBLIC;PRIVATE;TESTS;TEST_LIBS;ANALYSIS;ANALYSIS_PRIVATE")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_TESTS OR NOT arg_ANALYSIS)
    message(FATAL_ERROR "scalefuzz_detector(${name}): needs TESTS and ANALYSIS; unknown: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  scalefuzz_library(${name} SOURCES ${arg_SOURCES} INCLUDE include PRIVATE_INCLUDE src
    PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE})
  if(SCALEFUZZ_BUILD_TESTS)
    scalefuzz_gtest(${name}_test SOURCES ${arg_TESTS} LIBS scalefuzz::${name} ${arg_TEST_LIBS} LABELS unit)
  endif()
  scalefuzz_library(${name}_analysis SOURCES ${arg_ANALYSIS} INCLUDE analysis
    PUBLIC scalefuzz::detector_api scalefuzz::${name} PRIVATE ${arg_ANALYSIS_PRIVATE})
endfunction()

# scalefuzz_register_detector(<name>): the one registration of a technique.
# Its glue target scalefuzz::<name>_analysis defines the constant
# `const analysis::DetectorInfo scalefuzz::detectors::<name>::kDetector`;
# the analysis engine's registry (harness/analysis, generated) lists every
# registered technique in the order of these calls and links its glue. A
# technique with a campaign section (scalefuzz_detector_settings, called
# before this) is registered with the campaign loader too: its settings
# target defines `const settings::SettingsSection
# scalefuzz::detectors::<name>::kSettingsSection`, listed by the loader's
# table (harness/campaign, generated) in the same order.
function(scalefuzz_register_detector name)
  if(NOT TARGET scalefuzz::${name}_analysis)
    message(FATAL_ERROR "scalefuzz_register_detector(${name}): no target scalefuzz::${name}_analysis")
  endif()
  set_property(GLOBAL APPEND PROPERTY SCALEFUZZ_REGISTERED_DETECTORS ${name})
  if(TARGET scalefuzz::${name}_settings)
    set_property(GLOBAL APPEND PROPERTY SCALEFUZZ_SETTINGS_SECTIONS ${name})
  endif()
endfunction()

# scalefuzz_detector_settings(<name> SOURCES <files>...): scalefuzz::<name>_settings,
# a technique's campaign section: its settings type
# (settings/scalefuzz/detectors/<name>/settings.hpp) and the reader that
# fills it (settings/read_settings.cpp, on the settings API of detectors/api),
# registered by scalefuzz_register_detector(<name>).
function(scalefuzz_detector_settings name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_SOURCES)
    message(FATAL_ERROR "scalefuzz_detector_settings(${name}): needs SOURCES; unknown: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  scalefuzz_library(${name}_settings SOURCES ${arg_SOURCES} INCLUDE settings PUBLIC scalefuzz::settings_api)
endfunction()

# scalefuzz_registration_table(<property> <template> <output> TYPE <type> CONSTANT <constant>
#                              SUFFIX <suffix> LINKS_VAR <var>)
# A generated table of registered techniques (the analysis registry, the
# campaign loader's settings sections): configures <template> into <output>
# with @SCALEFUZZ_TABLE_DECLARATIONS@ declaring, for every name in the
# global <property> (registration order),
# `extern const <type> scalefuzz::detectors::<name>::<constant>`, and
# @SCALEFUZZ_TABLE_ENTRIES@ listing them, one line each; sets <var> to the
# targets defining them, scalefuzz::<name><suffix>, to link.
function(scalefuzz_registration_table property template output)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "TYPE;CONSTANT;SUFFIX;LINKS_VAR" "")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_TYPE OR NOT arg_CONSTANT OR NOT arg_SUFFIX OR NOT arg_LINKS_VAR)
    message(FATAL_ERROR "scalefuzz_registration_table(${property}): needs TYPE, CONSTANT, SUFFIX, LINKS_VAR")
  endif()
  get_property(names GLOBAL PROPERTY ${property})
  set(SCALEFUZZ_TABLE_DECLARATIONS "")
  set(SCALEFUZZ_TABLE_ENTRIES "")
  set(links "")
  foreach(name IN LISTS names)
    string(APPEND SCALEFUZZ_TABLE_DECLARATIONS
           "namespace scalefuzz::detectors::${name} {\nextern const ${arg_TYPE} ${arg_CONSTANT};\n}\n")
    string(APPEND SCALEFUZZ_TABLE_ENTRIES "      detectors::${name}::${arg_CONSTANT},\n")
    list(APPEND links scalefuzz::${name}${arg_SUFFIX})
  endforeach()
  configure_file(${template} ${output} @ONLY)
  set(${arg_LINKS_VAR} ${links} PARENT_SCOPE)
endfunction()

# scalefuzz_corpus_program(CORPUS NAME SOURCE [MACRO]): one program of a
# checker corpus (scenarios/CORPUS: usage, rma), SOURCE.c of the calling
# folder built into ${CMAKE_BINARY_DIR}/scenarios/CORPUS/NAME (target
# CORPUS_NAME); with MACRO, the correct twin built from an erroneous
# program's source with MACRO defined (its header names it: "twin: NAME -DMACRO").
# Where Open MPI was found, the same program is built against it too (as
# mpicc.openmpi would: pkg-config ompi-c) into
# ${CMAKE_BINARY_DIR}/scenarios/openmpi/CORPUS/NAME (target openmpi_CORPUS_NAME),
# for the corpus run under Open MPI (tests/usage/usage_corpus.py --mpi openmpi).
function(scalefuzz_corpus_program corpus name source)
  set(variants ${corpus}_${name} MPI::MPI_C ${CMAKE_BINARY_DIR}/scenarios/${corpus})
  if(SCALEFUZZ_OMPI_FOUND)
    list(APPEND variants openmpi_${corpus}_${name} PkgConfig::SCALEFUZZ_OMPI ${CMAKE_BINARY_DIR}/scenarios/openmpi/${corpus})
  endif()
  while(variants)
    list(POP_FRONT variants target mpi dir)
    add_executable(${target} ${source}.c)
    target_link_libraries(${target} PRIVATE ${mpi})
    set_target_properties(${target} PROPERTIES
      C_STANDARD 11
      OUTPUT_NAME ${name}
      RUNTIME_OUTPUT_DIRECTORY ${dir})
    # -g: findings name file:line; -O0 keeps each call and access on its own line.
    target_compile_options(${target} PRIVATE -g -O0)
    if(ARGC GREATER 3)
      target_compile_definitions(${target} PRIVATE ${ARGV3})
    endif()
  endwhile()
endfunction()
