#!/usr/bin/env bash
# Runs every built-in scene with every valid (scheme, contact, solver)
# combination in two builds of contactlab and compares the trajectory CSVs and
# the per-step metrics (all columns but wall time) byte for byte: the check
# that a restructuring left the physics unchanged.
#   scripts/compare_trajectories.sh OLD_CONTACTLAB NEW_CONTACTLAB [WORKDIR]
# Also runs a few gradients (grad --json, timing fields dropped). Exits 1 on
# any difference and names the run.
set -euo pipefail
old="$1"; new="$2"; work="${3:-$(mktemp -d)}"
max_steps="${CONTACTLAB_COMPARE_MAX_STEPS:-1500}"
mkdir -p "$work/old" "$work/new"
combos=$("$new" list combos | sed -n 's/^  \([a-z_]*\) + \([a-z_]*\) + \([a-z_]*\): ok$/\1,\2,\3/p')
scenes=$("$new" list | sed -n '/^scenes:/,$p' | sed -n 's/^  \([a-z_]*\)$/\1/p')
fail=0; runs=0
# The metrics columns (timings dropped: they differ run to run).
strip_wall() {
  awk -F, -v keep="step,time,contacts,iterations,converged,r_primal,r_dual,r_compl,r_vi,max_penetration,joint_violation,energy" '
    NR == 1 { n = split(keep, k, ","); for (j = 1; j <= n; j++) for (i = 1; i <= NF; i++) if ($i == k[j]) col[j] = i }
    { s = ""; for (j = 1; j <= n; j++) s = s (j > 1 ? "," : "") $(col[j]); print s }' "$1"
}
for scene in $scenes; do
  for c in $combos; do
    IFS=, read -r scheme contact solver <<<"$c"
    tag="$scene.$scheme.$contact.$solver"
    for side in old new; do
      bin=$old; [ $side = new ] && bin=$new
      if "$bin" run "$scene" --scheme "$scheme" --contact "$contact" --solver "$solver" --steps "$max_steps" \
          --out "$work/$side/$tag.csv" --stats "$work/$side/$tag.stats.csv" >"$work/$side/$tag.log" 2>&1; then
        strip_wall "$work/$side/$tag.stats.csv" >"$work/$side/$tag.metrics"
      else
        echo "exit $?" >"$work/$side/$tag.metrics"; : >"$work/$side/$tag.csv"
      fi
    done
    runs=$((runs + 1))
    if ! cmp -s "$work/old/$tag.csv" "$work/new/$tag.csv" || ! cmp -s "$work/old/$tag.metrics" "$work/new/$tag.metrics"; then
      echo "DIFFERENT: $tag"; fail=1
    fi
  done
done
# Gradients (printed with 17 significant digits).
grads=(
  "box_ramp --loss final:box.px --wrt param:geom.box.friction,ctrl:push,init:box.vx"
  "cart_pole --loss final:pole.px --wrt init:cart.vx,ctrl:slide_motor --steps 50"
  "cart_pole --loss final:pole.px --wrt init:cart.vx,ctrl:slide_motor --steps 50 --set adjoint.solve=reference"
  "wheeled_pallet --scheme backward_euler --contact fischer_burmeister --solver newton --dt 0.05 --steps 20 --loss final:chassis.px --wrt ctrl:drive_left,init:chassis.vx"
  "wheeled_pallet --contact fischer_burmeister --solver newton --steps 200 --loss final:chassis.px --wrt ctrl:drive_left"
  "bouncing_ball --loss final:ball.pz --wrt init:ball.vz --steps 300"
  "box_ramp --contact ccp --solver convex_newton --scheme quasi_dynamic --steps 100 --loss final:box.px --wrt ctrl:push"
  "box_ramp --contact central_path --steps 300 --loss final:box.px --wrt ctrl:push,param:body.box.mass"
)
i=0
for g in "${grads[@]}"; do
  i=$((i + 1))
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    # shellcheck disable=SC2086
    "$bin" grad $g >"$work/$side/grad.$i.json" 2>&1 || echo "exit $?" >>"$work/$side/grad.$i.json"
  done
  runs=$((runs + 1))
  if ! cmp -s "$work/old/grad.$i.json" "$work/new/grad.$i.json"; then echo "DIFFERENT: grad $g"; fail=1; fi
done
echo "$runs runs compared in $work"
exit $fail
