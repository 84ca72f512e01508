#!/usr/bin/env bash
# Builds and runs the tests under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer in a build folder of their own; any sanitizer
# report fails the run. docs/testing.md has the measured times.
#
#   scripts/sanitize.sh [--subset | --full] [BUILD_DIR]     (default: --subset build-asan)
#
#   --subset  the CI subset: the test files of tests/sanitize_subset.cmake in
#             one executable that links only the layers they use
#   --full    every test, and the sanitized contactlab binary the CLI tests run
#
# Extra CMake arguments: CONTACTLAB_CMAKE_ARGS; jobs: CONTACTLAB_JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=subset
dir=build-asan
for arg in "$@"; do
  case "$arg" in
    --full) mode=full ;;
    --subset) mode=subset ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "sanitize.sh: unknown option $arg" >&2; exit 2 ;;
    *) dir="$arg" ;;
  esac
done
jobs="${CONTACTLAB_JOBS:-$(nproc)}"

sanitizers="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
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
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DCMAKE_CXX_FLAGS="$sanitizers" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCONTACTLAB_CUDA=OFF -DCONTACTLAB_TEST_SUBSET=$subset ${CONTACTLAB_CMAKE_ARGS:-} >/dev/null
cmake --build "$dir" -j "$jobs" --target "${targets[@]}"

# Reports go to files (printed below) as well as failing the process, so that
# one from a process whose exit status no test checks (a CLI test's child)
# still fails the run. exitcode 86: a CLI test that expects status 1 must not
# take a report for the error it expects.
reports="$(cd "$dir" && pwd)/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
common="log_path=$reports/report:exitcode=86"
export ASAN_OPTIONS="$common:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="$common:print_stacktrace=1:halt_on_error=1"
status=0
(cd "$dir" && ctest --output-on-failure -j "$jobs") || status=$?
python3 scripts/check_tests.py "$dir" "$executable" || status=1
if compgen -G "$reports/report*" >/dev/null; then
  echo "sanitize.sh: sanitizer reports ($reports):" >&2
  cat "$reports"/report* >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "sanitize.sh: FAILED ($mode, $dir)" >&2
  exit "$status"
fi
echo "sanitize.sh: $mode run clean ($dir)"
