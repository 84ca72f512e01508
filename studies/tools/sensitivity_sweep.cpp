// Writes the sweep of Kim et al. Fig. 3 as CSV: a unit point mass on a plane
// (A = I), mu = 0.5, free velocity b = (b_N, 1, 0) with b_N from -3 to 1 in
// steps of 0.01, through sticking (b_N <= -2), sliding and separating
// (b_N >= 0). For each b_N the hard solution comes from PGS under de Saxce's
// law, and each local sensitivity (exact; central_path at three rho;
// signorini at one) gives d/db_N of (lambda_n, lambda_t1, sigma_n, sigma_t1).
//   contactlab_sensitivity_sweep [out.csv]      (stdout without an argument)
// scripts/sensitivity_sweep.sh plots it (docs/gradients.md).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "adjoints/local_sensitivity.hpp"
#include "contact_models/desaxce.hpp"
#include "io/output_file.hpp"
#include "solvers/pgs.hpp"

using namespace contactlab;

namespace {

// Unit point mass touching the ground at its centre: rows (z, x, y).
ConstraintProblem point_mass(const Vec3& b, Real mu) {
  ConstraintProblem pr;
  pr.resize(1, 0, 0, 1);
  pr.inv_mass[0] = 1;
  pr.inv_inertia_W[0] = Mat3::Identity();
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  for (int r = 0; r < 3; ++r) {
    pr.rows[r].body_b = 0;
    pr.rows[r].J_b << dirs[r], Vec3::Zero();
    pr.v_free[r] = b[r];
  }
  pr.mu[0] = mu;
  return pr;
}

struct Curve {
  SensitivityKind kind;
  Real rho;  // 0 for exact
};

}  // namespace

int main(int argc, char** argv) {
  // The CSV file is complete or absent (io/output_file.hpp).
  install_output_signal_handlers();
  OutputFile file(argc > 1 ? argv[1] : "");
  std::ostream* opened = nullptr;
  try {
    opened = file.open();
  } catch (const std::exception& e) {
    std::cerr << "contactlab_sensitivity_sweep: " << e.what() << "\n";
    return 1;
  }
  std::ostream& out = opened ? *opened : std::cout;

  const Real mu = 0.5;
  const std::vector<Curve> curves = {{SensitivityKind::Exact, 0},
                                     {SensitivityKind::CentralPath, 1e-1},
                                     {SensitivityKind::CentralPath, 1e-2},
                                     {SensitivityKind::CentralPath, 1e-4},
                                     {SensitivityKind::Signorini, 1e-2}};
  PgsOptions pgs_options;
  pgs_options.tolerance = 1e-13;
  pgs_options.max_iterations = 10000;
  const PgsSolver pgs(pgs_options);
  const DeSaxceModel law;
  auto workspace = pgs.make_workspace();

  out << "b_n,kind,rho,dlambda_n,dlambda_t,dsigma_n,dsigma_t,fell_back\n";
  char line[256];
  for (int i = 0; i <= 400; ++i) {
    const Real b_n = -3 + 0.01 * i;
    const ConstraintProblem pr = point_mass(Vec3(b_n, 1, 0), mu);
    std::vector<Real> lambda, v;
    SolveStats stats;
    pgs.solve(pr, law, {}, *workspace, lambda, v, stats);
    if (stats.status != SolveStatus::Converged) {
      std::cerr << "contactlab_sensitivity_sweep: PGS did not converge at b_N = " << b_n << "\n";
      return 1;
    }
    const LocalProblem lp = from_constraint_problem(pr);
    for (const Curve& c : curves) {
      SensitivityOptions o;
      o.kind = c.kind;
      if (c.rho > 0) o.rho = c.rho;
      LocalSensitivity ls;
      ls.linearise(lp, Eigen::Map<const VecX>(lambda.data(), 3), o);
      VecX dl, ds;
      ls.tangent(VecX::Unit(3, 0), nullptr, nullptr, dl, ds);
      std::snprintf(line, sizeof line, "%.4f,%s,%g,%.10g,%.10g,%.10g,%.10g,%d\n", b_n, to_string(c.kind), c.rho, dl[0],
                    dl[1], ds[0], ds[1], ls.report().fell_back_to_exact ? 1 : 0);
      out << line;
    }
  }
  try {
    file.commit();
  } catch (const std::exception& e) {
    std::cerr << "contactlab_sensitivity_sweep: " << e.what() << "\n";
    return 1;
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "contactlab_sensitivity_sweep: cannot write standard output\n";
    return 1;
  }
  return 0;
}
