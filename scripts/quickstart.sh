#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default job (the comparison of
# every valid combination on the validation scenes; docs/compare.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/contactlab
