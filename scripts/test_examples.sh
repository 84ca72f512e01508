#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds and runs every
# program under examples/ against that installed package
# (find_package(contactlab) + contactlab::contactlab), as a user's project
# would. Called by scripts/test.sh after the unit tests.
#   scripts/test_examples.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${CONTACTLAB_JOBS:-$(nproc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
scenes="$prefix/share/contactlab/scenes"
test -f "$scenes/box_ramp.xml" || { echo "test_examples: the install has no scenes"; exit 1; }

run() {  # NAME EXPECTED_TEXT ARGS...
  local name="$1" expect="$2"
  shift 2
  echo "== example $name $*"
  cmake -S "examples/$name" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >"$work/$name.cmake.log" ||
    { cat "$work/$name.cmake.log"; exit 1; }
  cmake --build "$work/$name" -j "$jobs" >"$work/$name.build.log" || { cat "$work/$name.build.log"; exit 1; }
  local out
  out="$("$work/$name/$name" "$@")" || { echo "$out"; echo "example $name failed"; exit 1; }
  echo "$out"
  grep -q -- "$expect" <<<"$out" || { echo "example $name: expected '$expect' in its output"; exit 1; }
}

# The installed scene files, read through the installed library.
run load_and_step "pole " "$scenes/pendulum.xml"
run jacobi_solver "velocity+desaxce+jacobi"
run rollout_gradient "param:geom.box.friction" "$scenes/box_ramp.xml"
# The Python module as installed (CONTACTLAB_PYTHON_INSTALL_DIR under the
# prefix), imported from there and not from the build tree.
if [ -f "$build/python/contactlab/__init__.py" ]; then
  python_dir="$(sed -n 's/^CONTACTLAB_PYTHON_INSTALL_DIR:STRING=//p' "$build/CMakeCache.txt")"
  python_exe="$(sed -n 's/^_Python3_EXECUTABLE:INTERNAL=//p' "$build/CMakeCache.txt")"
  echo "== python module installed in $prefix/$python_dir"
  out="$(cd "$work" && PYTHONPATH="$prefix/$python_dir" "$python_exe" -c '
import contactlab as cl, sys
assert cl.__file__.startswith(sys.argv[1]), cl.__file__
sim = cl.Simulation(cl.load(sys.argv[2]))
print("python", cl.__file__, sim.rollout(steps=100)["pos"][-1, 0])
' "$prefix" "$scenes/box_ramp.xml")" || { echo "$out"; echo "the installed Python module failed"; exit 1; }
  echo "$out"
fi
echo "examples: all built against the installed package and ran"
