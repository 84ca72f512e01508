#!/usr/bin/env bash
# Gradient benchmarks (docs/benchmarks.md): backward/forward wall-time ratio per
# solver on cart_pole and wheeled_pallet, and the step records' memory against
# the horizon and the solver's iteration budget. Uses `contactlab grad --profile`.
# Usage: scripts/bench_gradients.sh [path/to/contactlab]
set -euo pipefail
bin="${1:-./build/contactlab}"
profile() { "$bin" grad "$@" --profile 2>&1 >/dev/null | grep '^profile:'; }

echo "## backward/forward time ratio per solver and solve adjoint (paired with the solver, or the dense reference)"
for combo in "padmm desaxce" "padmm desaxce solver.delassus=matrix_free" "pgs desaxce" \
             "newton fischer_burmeister" "convex_newton ccp"; do
  read -r solver law set <<<"$combo"
  extra=()
  [ -n "${set:-}" ] && extra=(--set "$set")
  for solve in paired reference; do
    for s in "cart_pole --loss final:pole.px --wrt init:cart.vx,ctrl:slide_motor" \
             "wheeled_pallet --loss final:chassis.px --wrt init:chassis.vx,ctrl:drive_left --steps 100"; do
      # shellcheck disable=SC2086
      echo "$combo [$solve] $s: $(profile $s --solver "$solver" --contact "$law" "${extra[@]}" --set adjoint.solve=$solve | tr '\n' ' ')"
    done
  done
done

echo "## backward Euler (wheeled_pallet, h = 0.05 s, 1 s): the exact step adjoint and Ostrich's"
for gs in true false; do
  echo "geometric_stiffness=$gs: $(profile wheeled_pallet --scheme backward_euler --contact fischer_burmeister --solver newton \
    --dt 0.05 --duration 1 --loss final:chassis.px --wrt init:chassis.vx,ctrl:drive_left \
    --set adjoint.geometric_stiffness=$gs | tr '\n' ' ')"
done

echo "## record memory against horizon (cart_pole, padmm)"
for n in 100 1000 10000; do
  echo "steps $n: $(profile cart_pole --loss final:pole.px --wrt ctrl:slide_motor --steps $n | tr '\n' ' ')"
done

echo "## record memory against the iteration budget (box_ramp, 300 steps, padmm)"
for it in 10 100 1000; do
  echo "max_iterations $it: $(profile box_ramp --loss final:box.px --wrt ctrl:push --steps 300 --set solver.max_iterations=$it | tr '\n' ' ')"
done
