#!/usr/bin/env bash
# Installs what contactlab needs from Debian's packages. Does nothing when all is present.
#   --with-siconos   also Siconos numerics (the `bench-problems --peer siconos` solvers)
#   --with-clang     also clang and its sanitizer and libFuzzer runtimes (scripts/fuzz.sh,
#                    scripts/sanitize.sh --clang); Debian's clang only recommends the
#                    runtimes (libclang-rt-dev), which --no-install-recommends leaves out
set -euo pipefail
with_siconos=0
with_clang=0
for arg in "$@"; do
  case "$arg" in
    --with-siconos) with_siconos=1 ;;
    --with-clang) with_clang=1 ;;
    *) echo "setup: unknown option '$arg' (known: --with-siconos, --with-clang)" >&2; exit 2 ;;
  esac
done
packages=(
  cmake g++ make pkg-config
  libeigen3-dev
  libboost-program-options-dev
  libtinyobjloader-dev
  doctest-dev
  libtinyxml2-dev
  ccache
  gnuplot-nox
  libmujoco-dev
  libhdf5-dev
  # The Python module (python/, CONTACTLAB_PYTHON) and its tests; Debian's python3.
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib
  # Convex hulls of meshes (qhull) and convex-convex contact (libccd): geometry/.
  libqhull-dev libccd-dev
  # `contactlab view`: three.js from npm (viewer/package-lock.json, below) and
  # the headless browser its test drives (tests/apps/test_viewer.cpp).
  nodejs chromium
)
# Debian's npm, unless npm is there already (NodeSource's nodejs brings its own,
# which Debian's npm package conflicts with).
command -v npm >/dev/null 2>&1 || packages+=(npm)
[ "$with_siconos" -eq 1 ] && packages+=(libsiconos-numerics-dev)
[ "$with_clang" -eq 1 ] && packages+=(clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
else
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# three.js for `contactlab view`, the version package-lock.json pins, into the
# git-ignored viewer/node_modules; again only when that version is not there.
viewer_dir="$(cd "$(dirname "$0")/.." && pwd)/viewer"
want=$(sed -n 's/^ *"three": "\([0-9.]*\)".*/\1/p' "$viewer_dir/package.json")
have=$(sed -n 's/^ *"version": "\([0-9.]*\)".*/\1/p' "$viewer_dir/node_modules/three/package.json" 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  echo "setup: npm ci in viewer/ (three $want)"
  (cd "$viewer_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
