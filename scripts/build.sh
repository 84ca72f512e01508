#!/usr/bin/env bash
# Configures and builds contactlab in ./build (Release). CUDA is used when nvcc is found.
# A unity build (CONTACTLAB_UNITY_BUILD, CMakeLists.txt) unless
# CONTACTLAB_UNITY_BUILD=OFF is in the environment: a full build in about 60 %
# of the time; for edit-and-rebuild work, OFF recompiles only the edited file.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
jobs="${CONTACTLAB_JOBS:-$(nproc)}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCONTACTLAB_UNITY_BUILD="${CONTACTLAB_UNITY_BUILD:-ON}" \
  ${CONTACTLAB_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$jobs"
