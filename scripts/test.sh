#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest). GPU tests are
# reported as skipped where no GPU exists. Then the sanitizer subset and a
# short run of each fuzz target (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests also exercise the Siconos peer, so CI asks for it; clang builds the fuzzers.
bash scripts/setup.sh --with-siconos --with-clang
# The include layering (cmake/layers.txt): fails on a forbidden edge or a cycle.
python3 scripts/check_layers.py
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "${CONTACTLAB_JOBS:-$(nproc)}")
# Every doctest case is run by exactly one ctest entry (docs/testing.md).
python3 scripts/check_tests.py build
# The examples, built against an install of this build into a temporary prefix.
bash scripts/test_examples.sh build
# ASan + UBSan on the CI subset of the tests, in build-asan (docs/testing.md).
bash scripts/sanitize.sh --subset
# The readers' fuzz targets, a fixed time each (CONTACTLAB_FUZZ_SECONDS, default
# 15), seeded with fuzz/corpus/ and the shared data, in build-fuzz (clang):
# any crash fails and leaves its input in tests/data/fuzz_regressions/. A fixed
# libFuzzer seed, so that a CI finding can be replayed with the same mutations.
CONTACTLAB_FUZZ_ARGS="${CONTACTLAB_FUZZ_ARGS:--seed=1}" bash scripts/fuzz.sh --seconds "${CONTACTLAB_FUZZ_SECONDS:-15}" mjcf fc3d_dat fclib_hdf5 obj stl
