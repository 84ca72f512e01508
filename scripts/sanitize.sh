#!/usr/bin/env bash
# Builds and runs the tests under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer in a build folder of their own; any sanitizer
# report fails the run. docs/testing.md has the measured times.
#
#   scripts/sanitize.sh [--subset | --full] [--gcc | --clang] [BUILD_DIR]
#                        (default: --subset --gcc build-asan; --clang: build-asan-clang)
#
#   --subset  the CI subset: the test files of tests/sanitize_subset.cmake in
#             one executable that links only the layers they use
#   --full    every test, and the sanitized contactlab binary the CLI tests run
#   --gcc     g++ (the default)
#   --clang   clang++, whose UBSan also checks float-cast-overflow (a double
#             out of the range of the integer it is cast to), which GCC's
#             -fsanitize=undefined leaves out
#
# Extra CMake arguments: CONTACTLAB_CMAKE_ARGS; jobs: CONTACTLAB_JOBS; a unity
# build unless CONTACTLAB_UNITY_BUILD=OFF (as scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=subset
compiler=gcc
dir=""
for arg in "$@"; do
  case "$arg" in
    --full) mode=full ;;
    --subset) mode=subset ;;
    --gcc) compiler=gcc ;;
    --clang) compiler=clang ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "sanitize.sh: unknown option $arg" >&2; exit 2 ;;
    *) dir="$arg" ;;
  esac
done
jobs="${CONTACTLAB_JOBS:-$(nproc)}"

sanitizers="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
cxx=""
if [ "$compiler" = clang ]; then
  # float-cast-overflow is part of clang's -fsanitize=undefined; named so it
  # is plain that this mode has it.
  sanitizers="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all"
  cxx=clang++
  dir="${dir:-build-asan-clang}"
fi
dir="${dir:-build-asan}"
subset=OFF
targets=(contactlab_tests contactlab)
if [ "$mode" = subset ]; then
  subset=ON
  targets=(contactlab_subset_tests)
fi
executable="${targets[0]}"
# Debug with -O1: no NDEBUG, so Eigen's index and size assertions are on too;
# -g1 (line tables) is enough for file:line in the reports. CUDA off: nvcc code
# is not instrumented and costs build time.
# --gcc leaves the compiler to CMake (c++, g++ on Debian) as before; a folder
# keeps the compiler it was configured with, so --clang has a folder of its own.
compiler_arg=()
[ -n "$cxx" ] && compiler_arg=(-DCMAKE_CXX_COMPILER="$cxx")
cmake -S . -B "$dir" "${compiler_arg[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DCMAKE_CXX_FLAGS="$sanitizers" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCONTACTLAB_CUDA=OFF -DCONTACTLAB_PYTHON=OFF -DCONTACTLAB_TEST_SUBSET=$subset \
  -DCONTACTLAB_UNITY_BUILD="${CONTACTLAB_UNITY_BUILD:-ON}" ${CONTACTLAB_CMAKE_ARGS:-} >/dev/null
cmake --build "$dir" -j "$jobs" --target "${targets[@]}"

# halt_on_error, exit code 86: a report fails the process, and a CLI test that
# expects status 1 cannot take one for the error it expects (tests/support/cli.hpp
# also fails on a report in the child's output). Leaks inside Siconos are
# suppressed (scripts/lsan.supp says why).
export ASAN_OPTIONS="exitcode=86:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="exitcode=86:print_stacktrace=1:halt_on_error=1"
status=0
(cd "$dir" && ctest --output-on-failure -j "$jobs") || status=$?
python3 scripts/check_tests.py "$dir" "$executable" || status=1
if [ "$status" -ne 0 ]; then
  echo "sanitize.sh: FAILED ($mode, $compiler, $dir)" >&2
  exit "$status"
fi
echo "sanitize.sh: $mode run clean ($compiler, $dir)"
