#!/usr/bin/env bash
# Per-step wall time of every valid combination on every built-in scene at the
# scene's own time step (docs/benchmarks.md). Runs `contactlab compare` once per
# scene into OUT (default /tmp/contactlab_bench) and prints a Markdown table (µs/step).
# Usage: scripts/bench_combos.sh [path/to/contactlab] [OUT]
set -euo pipefail
bin="${1:-./build/contactlab}"
out="${2:-/tmp/contactlab_bench}"
rm -rf "$out"
for s in "box_ramp 0.001" "bouncing_ball 0.001" "stacked_boxes 0.001" "four_bar 0.0025" \
         "pendulum 0.001" "cart_pole 0.01" "wheeled_pallet 0.01"; do
  set -- $s
  "$bin" compare "$1" --dt "$2" --out "$out/$1" > "$out.$1.txt" 2>/dev/null
done
python3 - "$out" <<'PY'
import csv, glob, sys
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(out + '/*/runs.csv')):
    rows += list(csv.DictReader(open(f)))
scenes = ['box_ramp', 'bouncing_ball', 'stacked_boxes', 'four_bar', 'pendulum', 'cart_pole', 'wheeled_pallet']
combos = sorted(set(r['combo'] for r in rows), key=lambda c: (c.split('+')[0] != 'velocity', c))
print('| combination | ' + ' | '.join(scenes) + ' |')
print('|---|' + '---|' * len(scenes))
for c in combos:
    cells = []
    for s in scenes:
        r = [x for x in rows if x['combo'] == c and x['scene'] == s]
        if not r:
            cells.append('—')
        elif r[0]['status'] != 'ok':
            cells.append('diverged' if 'diverged' in r[0]['status'] else 'failed')
        else:
            cells.append('%.1f' % (float(r[0]['wall_per_step_s']) * 1e6))
    print('| ' + c + ' | ' + ' | '.join(cells) + ' |')
PY
