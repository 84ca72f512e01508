#include "studies/kim_sensitivity_plot.hpp"

#include <fstream>

#include "studies/comparison_plot.hpp"

namespace contactlab {

void write_kim_sensitivity_plots(StudyContext& ctx, const std::vector<std::string>& relaxed, double rho) {
  std::ofstream gp(ctx.path("plots.gp"));
  gp << "set terminal png size 1100,800 noenhanced\nset datafile separator ','\nset grid\n"
     << "arms = \"";
  for (const std::string& a : ctx.arms()) gp << a << " ";
  gp << "\"\n"
     << "pick(c, a) = (strcol(2) eq a) ? column(c) : NaN\n"
     << "set output 'sweep.png'\n"
     << "set multiplot layout 2,2 title 'kim_sensitivity sweep: d/db_N, mu 0.8, b = (b_N, 0.5, 0): stick | slide | "
        "separate'\n"
     << "set arrow 1 from -0.625, graph 0 to -0.625, graph 1 nohead dt 3 lc 'gray'\n"
     << "set arrow 2 from 0, graph 0 to 0, graph 1 nohead dt 3 lc 'gray'\n"
     << "set xlabel 'b_N'\nset key top left font ',8'\n"
     << "titles = 'dlambda_n dlambda_t1 dsigma_n dsigma_t1'\n"
     << "do for [c = 4:7] {\n  set title word(titles, c - 3)\n"
     << "  plot for [a in arms] 'sweep.csv' skip 1 using 1:(pick(c, a)) with lines lw 2 title a\n}\n"
     << "unset multiplot\nunset arrow 1\nunset arrow 2\n";
  gp << "set output 'delta.png'\nset multiplot layout 1,2 title 'kim_sensitivity delta_offset: b_T = 0'\n"
     << "pd(c, a, d) = (strcol(1) eq a && abs($3 - d) < 1e-9) ? column(c) : NaN\n"
     << "deltas = '0 0.25 0.5 1'\nrelaxed = \"";
  for (const std::string& a : relaxed) gp << a << " ";
  gp << "\"\n"
     << "set title 'b_N = 0: lines lambda_N = sigma_N - delta, relaxed law'\n"
     << "set xlabel 'sigma_N'\nset ylabel 'lambda_N'\nset xrange [0.01:2]\nset yrange [0:1.5]\n"
     << "at0(c, a) = (strcol(1) eq a && abs($4) < 1e-9) ? column(c) : NaN\n"
     << "plot " << rho << "/x with lines lw 2 lc 'black' title 'lambda_N sigma_N = " << rho << "', "
     << "for [d in deltas] x - d with lines dt 2 title 'delta '.d, "
     << "for [a in relaxed] 'delta.csv' skip 1 using 6:(at0(5, a)) with points pt 7 ps 1.2 title a.' points'\n"
     << "set title 'dsigma_N/db_N'\nset xlabel 'b_N (unshifted)'\nset ylabel ''\nset autoscale\n"
     << "plot for [a in relaxed] for [d in deltas] 'delta.csv' skip 1 using 4:(pd(7, a, d + 0)) with lines "
        "title a.' delta '.d\n"
     << "unset multiplot\n";
  gp << "set output 'newton.png'\nset title 'Newton iterations of the relaxed point (cumulative)'\n"
     << "set xlabel 'iterations'\nset ylabel 'fraction of evaluations with <= k iterations'\nset yrange [0:1.05]\n"
     << "pn(c, a) = (strcol(1) eq a) ? column(c) : NaN\n"
     << "plot for [a in relaxed] 'newton_iterations.csv' skip 1 using 2:(pn(4, a)) with steps lw 2 title a\n";
  gp.close();
  run_gnuplot(ctx.staging_dir(), "plots.gp");
}


}  // namespace contactlab
