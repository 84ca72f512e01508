# Plots the b_N sweep of tests/contact_models/test_central_path.cpp (unit particle, b = (b_N, 1, 0),
# mu = 0.5, PGS): impulses and the sensitivity d lambda_n / d b_N of de Saxce's law and
# of the central_path law for three rho (Kim et al. Fig. 3). From the repository root:
#   CONTACTLAB_CENTRAL_PATH_SWEEP=docs/central_path_sweep.csv \
#     build/tests/contactlab_tests -tc="central_path: sweep*"
#   gnuplot scripts/plot_central_path.gnuplot
set terminal pngcairo size 1500,450 font ",11"
set output "docs/img/central_path_sweep.png"
set datafile separator ","
file = "docs/central_path_sweep.csv"
set multiplot layout 1,3
set grid
set xlabel "free normal velocity b_N (m/s)"
set key top right
# Regimes of de Saxce's law: sticking b_N <= -2, sliding -2 < b_N < 0, separating b_N >= 0.
set arrow 1 from -2, graph 0 to -2, graph 1 nohead dt 3 lc "gray"
set arrow 2 from 0, graph 0 to 0, graph 1 nohead dt 3 lc "gray"
set label 1 "stick" at graph 0.08, graph 0.06
set label 2 "slide" at graph 0.42, graph 0.06
set label 3 "separate" at graph 0.80, graph 0.06

set title "normal impulse {/Symbol l}_n (N s)"
plot file skip 2 using 1:2 with lines lw 3 lc "black" title "desaxce", \
     "" skip 2 using 1:4 with lines lw 2 title "central\\_path {/Symbol r} = 1e-1", \
     "" skip 2 using 1:6 with lines lw 2 title "{/Symbol r} = 1e-2", \
     "" skip 2 using 1:8 with lines lw 2 dt 2 title "{/Symbol r} = 1e-4"

set title "tangential impulse {/Symbol l}_{t1} (N s)"
set key top left
plot file skip 2 using 1:3 with lines lw 3 lc "black" title "desaxce", \
     "" skip 2 using 1:5 with lines lw 2 title "{/Symbol r} = 1e-1", \
     "" skip 2 using 1:7 with lines lw 2 title "{/Symbol r} = 1e-2", \
     "" skip 2 using 1:9 with lines lw 2 dt 2 title "{/Symbol r} = 1e-4"

# Differences of consecutive samples (0.02 apart), plotted at the later sample.
set title "sensitivity d{/Symbol l}_n / db_N"
set key center left
set yrange [-1.1:0.1]
d(x, y) = ($0 == 0) ? (x0 = x, y0 = y, NaN) : (dd = (y - y0) / (x - x0), x0 = x, y0 = y, dd)
plot file skip 2 using 1:(d($1, $2)) with lines lw 3 lc "black" title "desaxce", \
     "" skip 2 using 1:(d($1, $4)) with lines lw 2 title "{/Symbol r} = 1e-1", \
     "" skip 2 using 1:(d($1, $6)) with lines lw 2 title "{/Symbol r} = 1e-2", \
     "" skip 2 using 1:(d($1, $8)) with lines lw 2 dt 2 title "{/Symbol r} = 1e-4"
unset multiplot
