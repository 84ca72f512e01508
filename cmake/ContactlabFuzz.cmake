# libFuzzer targets (fuzz/, -DCONTACTLAB_FUZZ=ON; scripts/fuzz.sh builds and runs them).
#
# Included before the layers are declared: with CONTACTLAB_FUZZ every layer
# library is compiled with libFuzzer's coverage instrumentation and ASan +
# UBSan (-fsanitize=fuzzer-no-link,address,undefined), so the readers' code
# guides the fuzzer and any memory error or undefined behaviour is a crash.
#
#   contactlab_add_fuzz_target(NAME SOURCE LAYERS layer... [SEEDS glob...] [MAX_LEN bytes] [DICT file]
#                              [WRITES ext])
#
# makes the executable fuzz_NAME from fuzz/SOURCE, linked to the layers named
# (each one fuzz/ may use, cmake/layers.txt) and to libFuzzer's main. SEEDS
# are globs relative to CONTACTLAB_DATA_DIR (the shared data, not committed),
# MAX_LEN is libFuzzer's -max_len, DICT a dictionary under fuzz/. WRITES: the
# input is a recipe for a file the target writes (structure-aware); run with
# CONTACTLAB_FUZZ_SAVE_AS=PATH, it keeps that file, whose extension is ext. They are
# written to BUILD/fuzz/targets.txt, one line per target
#
#   NAME|EXECUTABLE|MAX_LEN|DICT|WRITES|SEED_GLOB;SEED_GLOB...
#
# which scripts/fuzz.sh reads; the committed corpus is fuzz/corpus/NAME/.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CONTACTLAB_FUZZ=ON needs clang (libFuzzer is part of clang), but the C++ compiler is "
                      "${CMAKE_CXX_COMPILER_ID} (${CMAKE_CXX_COMPILER}). Configure a fresh build folder with "
                      "-DCMAKE_CXX_COMPILER=clang++, or run scripts/fuzz.sh, which does.")
endif()
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
check_cxx_source_compiles([[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }
]] CONTACTLAB_LIBFUZZER_LINKS)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT CONTACTLAB_LIBFUZZER_LINKS)
  message(FATAL_ERROR "CONTACTLAB_FUZZ=ON: ${CMAKE_CXX_COMPILER} cannot link -fsanitize=fuzzer; libFuzzer's "
                      "runtime is missing (Debian: apt-get install libclang-rt-dev, or scripts/setup.sh --with-clang)")
endif()

set(CONTACTLAB_FUZZ_SANITIZERS -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
add_compile_options(-fsanitize=fuzzer-no-link ${CONTACTLAB_FUZZ_SANITIZERS})
add_link_options(-fsanitize=address,undefined)

set(CONTACTLAB_FUZZ_MANIFEST "${CMAKE_BINARY_DIR}/fuzz/targets.txt")
file(WRITE "${CONTACTLAB_FUZZ_MANIFEST}" "")

function(contactlab_add_fuzz_target name source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "MAX_LEN;DICT;WRITES" "LAYERS;SEEDS")
  if(NOT arg_LAYERS)
    message(FATAL_ERROR "contactlab_add_fuzz_target(${name}): name the layers it uses (LAYERS io ...)")
  endif()
  contactlab_layer_closure(fuzz allowed)
  foreach(layer IN LISTS arg_LAYERS)
    if(NOT layer IN_LIST allowed)
      message(FATAL_ERROR "contactlab_add_fuzz_target(${name}): fuzz/ may not use '${layer}' (cmake/layers.txt: "
                          "fuzz may use ${allowed})")
    endif()
  endforeach()
  set(exe fuzz_${name})
  add_executable(${exe} ${source})
  set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fuzz")
  target_include_directories(${exe} PRIVATE ${CONTACTLAB_LAYER_VIEW_fuzz})
  list(TRANSFORM arg_LAYERS PREPEND contactlab_ OUTPUT_VARIABLE libs)
  target_link_libraries(${exe} PRIVATE ${libs})
  target_compile_options(${exe} PRIVATE ${CONTACTLAB_WARNINGS})
  target_link_options(${exe} PRIVATE -fsanitize=fuzzer)
  if(NOT arg_MAX_LEN)
    set(arg_MAX_LEN 0)
  endif()
  set(dict "")
  if(arg_DICT)
    set(dict "${CMAKE_CURRENT_SOURCE_DIR}/${arg_DICT}")
  endif()
  string(JOIN ";" seeds ${arg_SEEDS})
  file(APPEND "${CONTACTLAB_FUZZ_MANIFEST}" "${name}|${CMAKE_BINARY_DIR}/fuzz/${exe}|${arg_MAX_LEN}|${dict}|${arg_WRITES}|${seeds}\n")
  set_property(GLOBAL APPEND PROPERTY CONTACTLAB_FUZZ_TARGETS ${exe})
endfunction()
