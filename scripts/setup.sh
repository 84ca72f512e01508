#!/usr/bin/env bash
# Installs what contactlab needs from Debian's packages. Does nothing when all is present.
set -euo pipefail
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
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
