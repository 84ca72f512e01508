#!/usr/bin/env bash
# Plots the local contact sensitivities across the modes (Kim et al. Fig. 3;
# docs/gradients.md): runs the already built ./build/contactlab_sensitivity_sweep
# (no build here) and renders docs/img/local_sensitivity_sweep.png with gnuplot.
set -euo pipefail
cd "$(dirname "$0")/.."
csv=build/local_sensitivity_sweep.csv
./build/contactlab_sensitivity_sweep "$csv"
gnuplot <<GNUPLOT
set terminal png size 960,720 noenhanced
set output "docs/img/local_sensitivity_sweep.png"
set datafile separator ","
file = "$csv"
set multiplot layout 2,2 title "Local sensitivities d/db_N, unit point mass, mu = 0.5, b = (b_N, 1, 0): stick | slide | separate"
set grid
set xlabel "free normal velocity b_N (m/s)"
set xrange [-3:1]
set yrange [-1.1:1.1]
set key top left font ",9"
# De Saxce's modes: sticking b_N <= -2, sliding -2 < b_N < 0, separating b_N >= 0.
set arrow 1 from -2, graph 0 to -2, graph 1 nohead dt 3 lc "gray"
set arrow 2 from 0, graph 0 to 0, graph 1 nohead dt 3 lc "gray"
# Column c of the rows of one kind and rho (NaN elsewhere, so each curve is one kind).
pick(c, k, r) = (strcol(2) eq k && abs(\$3 - r) <= 1e-3 * r) ? column(c) : NaN
exact(c) = (strcol(2) eq "exact") ? column(c) : NaN
titles = "dlambda_n/db_N dlambda_t1/db_N dsigma_n/db_N dsigma_t1/db_N"
do for [c = 4:7] {
  set title word(titles, c - 3)
  plot file skip 1 using 1:(exact(c)) with lines lw 3 lc "black" title "exact", \
       "" skip 1 using 1:(pick(c, "central_path", 1e-1)) with lines lw 2 lc rgb "#1f77b4" title "central_path rho = 1e-1", \
       "" skip 1 using 1:(pick(c, "central_path", 1e-2)) with lines lw 2 lc rgb "#2ca02c" title "central_path rho = 1e-2", \
       "" skip 1 using 1:(pick(c, "central_path", 1e-4)) with lines lw 2 lc rgb "#ff7f0e" title "central_path rho = 1e-4", \
       "" skip 1 using 1:(pick(c, "signorini", 1e-2)) with linespoints lw 1 pt 6 ps 0.8 pi 16 lc rgb "#d62728" title "signorini rho = 1e-2"
}
unset multiplot
GNUPLOT
echo "wrote docs/img/local_sensitivity_sweep.png (data: $csv)"
