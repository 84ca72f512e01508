// CUDA batch PADMM against its CPU oracle (solvers/batch_padmm_cpu.hpp): the
// same random batch is iterated on both and every field of the state is
// compared after each round. Standalone program: exit 0 = match, 1 = mismatch,
// 77 = no CUDA device (ctest SKIP_RETURN_CODE).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "contact_models/cone.hpp"
#include "core/constraint_problem.hpp"
#include "solvers/batch_padmm_cpu.hpp"
#include "solvers/cuda/batch_padmm.hpp"

using namespace contactlab;

namespace {

// CPU and GPU run the same source; they may differ by fused multiply-adds on
// the GPU, hence a relative tolerance instead of bitwise equality.
constexpr double kRelTol = 1e-12;
int g_failures = 0;

template <typename T>
void compare(const char* field, const std::vector<T>& cpu, const std::vector<T>& gpu, int round) {
  double scale = 1;
  for (T v : cpu)
    if (std::isfinite(double(v))) scale = std::max(scale, std::abs(double(v)));
  for (size_t i = 0; i < cpu.size(); ++i) {
    const double a = double(cpu[i]), b = double(gpu[i]);
    const bool same = (a == b) || std::abs(a - b) <= kRelTol * scale;  // == also covers inf
    if (!same) {
      if (g_failures < 20) std::printf("mismatch round %d %s[%zu]: cpu %.17g gpu %.17g\n", round, field, i, a, b);
      ++g_failures;
    }
  }
}

ConstraintRow row_at(const Vec3& r, const Vec3& d) {
  ConstraintRow row;
  row.body_b = 0;
  row.J_b << d, r.cross(d);
  return row;
}

// A random rigid body with 1-4 contacts on its bottom face, sometimes a
// bilateral and a limit row, random twist and friction.
ConstraintProblem random_problem(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-1, 1), P(0.2, 1.0);
  const int nc = 1 + static_cast<int>(rng() % 4), nb = static_cast<int>(rng() % 2), nl = static_cast<int>(rng() % 2);
  ConstraintProblem pr;
  pr.resize(1, nb, nl, nc);
  pr.inv_mass[0] = 1 / (0.5 + P(rng));
  pr.inv_inertia_W[0] = Vec3(1 / P(rng), 1 / P(rng), 1 / P(rng)).asDiagonal();
  int r = 0;
  for (int i = 0; i < nb; ++i) pr.rows[r++] = row_at(Vec3(0, 0, 0.3), Vec3::UnitX());
  for (int i = 0; i < nl; ++i) pr.rows[r++] = row_at(Vec3(0, 0.2, 0), Vec3::UnitY());
  for (int k = 0; k < nc; ++k) {
    const Vec3 p(0.5 * U(rng), 0.3 * U(rng), -0.2);
    pr.rows[r++] = row_at(p, Vec3::UnitZ());
    pr.rows[r++] = row_at(p, Vec3::UnitX());
    pr.rows[r++] = row_at(p, Vec3::UnitY());
    pr.mu[k] = (rng() % 6 == 0) ? 0.0 : 1.5 * P(rng);
  }
  std::vector<Real> u = {U(rng), U(rng), U(rng) - 0.5, U(rng), U(rng), U(rng)};
  pr.apply_J(u.data(), pr.v_free.data());
  return pr;
}

void compare_state(const BatchPadmmState& c, const BatchPadmmState& g, int round) {
  compare("x", c.x, g.x, round);
  compare("y", c.y, g.y, round);
  compare("z", c.z, g.z, round);
  compare("y_hat", c.y_hat, g.y_hat, round);
  compare("z_hat", c.z_hat, g.z_hat, round);
  compare("x_prev", c.x_prev, g.x_prev, round);
  compare("y_prev", c.y_prev, g.y_prev, round);
  compare("z_prev", c.z_prev, g.z_prev, round);
  compare("a", c.a, g.a, round);
  compare("c_prev", c.c_prev, g.c_prev, round);
  compare("r_primal", c.r_primal, g.r_primal, round);
  compare("r_dual", c.r_dual, g.r_dual, round);
  compare("r_compl", c.r_compl, g.r_compl, round);
  compare("iteration", c.iteration, g.iteration, round);
  compare("flag", c.flag, g.flag, round);
}

void test_cone_kernels(std::mt19937_64& rng) {
  const int nc = 5000;
  std::uniform_real_distribution<double> U(-2, 2), M(0, 2);
  std::vector<double> mu(nc), x(3 * nc);
  for (int k = 0; k < nc; ++k) mu[k] = (k % 7 == 0) ? 0.0 : M(rng);
  for (double& v : x) v = U(rng);
  std::vector<double> cp = x, gp = x, cd = x, gd = x, cs(3 * nc), gs(3 * nc);
  for (int k = 0; k < nc; ++k) {
    cone::project_primal(mu[k], cp.data() + 3 * k);
    cone::project_dual(mu[k], cd.data() + 3 * k);
    cone::desaxce_shift(mu[k], x.data() + 3 * k, cs.data() + 3 * k);
  }
  cuda_project_primal(mu.data(), nc, gp.data());
  cuda_project_dual(mu.data(), nc, gd.data());
  cuda_desaxce_shift(mu.data(), nc, x.data(), gs.data());
  compare("project_primal", cp, gp, 0);
  compare("project_dual", cd, gd, 0);
  compare("desaxce_shift", cs, gs, 0);
}

}  // namespace

int main() {
  if (!cuda_available()) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  std::mt19937_64 rng(2024);
  test_cone_kernels(rng);

  const int worlds = 257;  // more than one block of threads
  std::vector<ConstraintProblem> problems;
  int max_rows = 0, max_contacts = 0;
  for (int w = 0; w < worlds; ++w) {
    problems.push_back(random_problem(rng));
    max_rows = std::max(max_rows, problems.back().num_rows());
    max_contacts = std::max(max_contacts, problems.back().num_contacts);
  }
  PadmmOptions opt;
  BatchPadmmState cpu;
  cpu.resize(worlds, max_rows, max_contacts);
  for (int w = 0; w < worlds; ++w) batch_padmm_load(cpu, w, problems[w], opt);
  BatchPadmmState gpu = cpu;

  const int per_round = 5;  // K iterations per launch
  int round = 0;
  for (; round < 60 && !batch_padmm_done(cpu); ++round) {
    cpu_padmm_iterate(cpu, per_round);
    cuda_padmm_iterate(gpu, per_round);
    compare_state(cpu, gpu, round);
    if (g_failures) break;
  }
  int converged = 0;
  for (int f : cpu.flag) converged += f == padmm::kConverged;
  std::printf("%d worlds, %d rounds of %d iterations, %d converged, %d mismatches\n", worlds, round, per_round,
              converged, g_failures);
  return g_failures ? 1 : 0;
}
