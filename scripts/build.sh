#!/usr/bin/env bash
# Configures and builds contactlab in ./build (Release). CUDA is used when nvcc is found.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
jobs="${CONTACTLAB_JOBS:-$(nproc)}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${CONTACTLAB_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$jobs"
