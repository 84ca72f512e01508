// Writes the sweep of Kim et al. Fig. 3 as CSV: a unit point mass on a plane
// (A = I), mu = 0.5, free velocity b = (b_N, 1, 0) with b_N from -3 to 1 in
// steps of 0.01, through sticking (b_N <= -2), sliding and separating
// (b_N >= 0). For each b_N the hard solution comes from PGS under de Saxce's
// law, and each local sensitivity (exact; central_path at three rho;
// signorini at one) gives d/db_N of (lambda_n, lambda_t1, sigma_n, sigma_t1).
//   contactlab_sensitivity_sweep [out.csv]      (stdout without an argument)
// scripts/sensitivity_sweep.sh plots it (docs/gradients.md). The study
// kim_sensitivity (docs/studies.md) runs the paper's version of this sweep.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "io/output_file.hpp"
#include "studies/kim_point_contact.hpp"

using namespace contactlab;

namespace {

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
  PointContact contact(mu);  // PGS under de Saxce's law (studies/kim_point_contact.hpp)

  out << "b_n,kind,rho,dlambda_n,dlambda_t,dsigma_n,dsigma_t,fell_back\n";
  char line[256];
  for (int i = 0; i <= 400; ++i) {
    const Real b_n = -3 + 0.01 * i;
    for (const Curve& c : curves) {
      SensitivityOptions o;
      o.kind = c.kind;
      if (c.rho > 0) o.rho = c.rho;
      PointContactSample p;
      try {
        p = contact.sample(Vec3(b_n, 1, 0), o);
      } catch (const std::exception& e) {
        std::cerr << "contactlab_sensitivity_sweep: " << e.what() << "\n";
        return 1;
      }
      std::snprintf(line, sizeof line, "%.4f,%s,%g,%.10g,%.10g,%.10g,%.10g,%d\n", b_n, to_string(c.kind), c.rho,
                    p.dlambda_n, p.dlambda_t, p.dsigma_n, p.dsigma_t, p.report.fell_back_to_exact ? 1 : 0);
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
