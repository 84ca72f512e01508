#!/usr/bin/env bash
# Mean PADMM iterations and non-converged steps on every built-in scene for a
# few penalty settings (the measurement behind PADMM's defaults, docs/solvers.md).
# Usage: scripts/padmm_settings.sh [path/to/contactlab]
set -euo pipefail
bin="${1:-./build/contactlab}"
settings=(
  "kamino:--set solver.rho=1 --set solver.balanced_penalty=false"
  "rho0.1:--set solver.rho=0.1 --set solver.balanced_penalty=false"
  "rho0.01:--set solver.rho=0.01 --set solver.balanced_penalty=false"
  "default:"
)
scenes=(box_ramp bouncing_ball stacked_boxes "stacked_boxes --set body.top.mass=1000" four_bar pendulum cart_pole wheeled_pallet)
printf "%-10s %-42s %10s %8s %12s %10s\n" setting scene mean_iter max_iter not_converged max_r_vi
for s in "${settings[@]}"; do
  name="${s%%:*}"; flags="${s#*:}"
  for sc in "${scenes[@]}"; do
    # shellcheck disable=SC2086
    "$bin" run $sc $flags --json | /usr/bin/python3 -c "
import json, sys
d = json.load(sys.stdin)
print('%-10s %-42s %10.1f %8d %12d %10.1e' % ('$name', '$sc', d['mean_iterations'], d['max_iterations'], d['steps_not_converged'], d['max_r_vi']))"
  done
done
