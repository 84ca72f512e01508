// The kim_sensitivity study's plots (gnuplot, when installed): sweep.png from
// sweep.csv (every arm), delta.png from delta.csv and newton.png from
// newton_iterations.csv (the relaxed arms), written beside them.
#pragma once

#include <string>
#include <vector>

#include "studies/study.hpp"

namespace contactlab {

// rho: the default rho, whose law lambda_N sigma_N = rho delta.png draws.
void write_kim_sensitivity_plots(StudyContext& ctx, const std::vector<std::string>& relaxed, double rho);

}  // namespace contactlab
