#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default job (the validation scenes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/contactlab
