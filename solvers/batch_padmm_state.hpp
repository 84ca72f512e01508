// State of N worlds' dense PADMM iterations (MATH.md C.2), structure of arrays
// on the host. Worlds are padded to max_rows rows (stride) and max_contacts
// contacts; world w uses the leading rows(w) entries of its slot. The
// Cholesky factor of each world's P D P + (eta+rho) I is computed on the CPU
// (batch_padmm_load). CUDA-free: the CUDA path copies these arrays to the
// device and back (solvers/cuda/batch_padmm.hpp); the CPU path
// (solvers/batch_padmm_cpu.hpp) is its oracle.
#pragma once

#include <vector>

#include "solvers/padmm_kernels.hpp"

namespace contactlab {

struct BatchPadmmState {
  int num_worlds = 0;
  int max_rows = 0;      // row stride per world
  int max_contacts = 0;  // contact stride per world
  padmm::Params<double> params;  // shared by every world

  // Problem, per world.
  std::vector<int> num_bilateral, num_limit, num_contacts;  // (N)
  std::vector<double> factor;  // (N x max_rows x max_rows) row-major lower Cholesky factor, ld = max_rows
  std::vector<double> p;       // (N x max_rows) Jacobi scale
  std::vector<double> vf;      // (N x max_rows) scaled free velocity P v_f
  std::vector<double> mu;      // (N x max_contacts)

  // Iteration state, per world (N x max_rows), scaled variables.
  std::vector<double> x, y, z, y_hat, z_hat, x_prev, y_prev, z_prev;
  // Per-world scalars (N).
  std::vector<double> a, c_prev, r_primal, r_dual, r_compl;
  // flag: padmm::kRunning / kConverged / kFailed. The iteration budget is the
  // caller's: a world that used it up is still kRunning (PadmmSolver's MaxIterations).
  std::vector<int> iteration, flag;

  int rows(int w) const { return num_bilateral[w] + num_limit[w] + 3 * num_contacts[w]; }

  // Sizes every array (zero rows per world, flags kRunning).
  void resize(int worlds, int rows_per_world, int contacts_per_world) {
    num_worlds = worlds;
    max_rows = rows_per_world;
    max_contacts = contacts_per_world;
    const size_t n = static_cast<size_t>(worlds), nr = n * rows_per_world;
    num_bilateral.assign(n, 0);
    num_limit.assign(n, 0);
    num_contacts.assign(n, 0);
    factor.assign(nr * rows_per_world, 0.0);
    p.assign(nr, 1.0);
    vf.assign(nr, 0.0);
    mu.assign(n * contacts_per_world, 0.0);
    for (auto* v : {&x, &y, &z, &y_hat, &z_hat, &x_prev, &y_prev, &z_prev}) v->assign(nr, 0.0);
    const padmm::Scalars<double> s0;
    a.assign(n, s0.a);
    c_prev.assign(n, s0.c_prev);
    r_primal.assign(n, 0.0);
    r_dual.assign(n, 0.0);
    r_compl.assign(n, 0.0);
    iteration.assign(n, 0);
    flag.assign(n, padmm::kRunning);
  }

  // Views of world w (host pointers).
  padmm::World<double> world(int w) {
    padmm::World<double> v;
    const size_t o = static_cast<size_t>(w) * max_rows;
    v.nb = num_bilateral[w];
    v.nl = num_limit[w];
    v.nc = num_contacts[w];
    v.m = rows(w);
    v.p = p.data() + o;
    v.vf = vf.data() + o;
    v.mu = mu.data() + static_cast<size_t>(w) * max_contacts;
    v.x = x.data() + o;
    v.y = y.data() + o;
    v.z = z.data() + o;
    v.y_hat = y_hat.data() + o;
    v.z_hat = z_hat.data() + o;
    v.x_prev = x_prev.data() + o;
    v.y_prev = y_prev.data() + o;
    v.z_prev = z_prev.data() + o;
    return v;
  }
  padmm::Scalars<double> scalars(int w) const {
    padmm::Scalars<double> s;
    s.a = a[w];
    s.c_prev = c_prev[w];
    s.r_primal = r_primal[w];
    s.r_dual = r_dual[w];
    s.r_compl = r_compl[w];
    s.iteration = iteration[w];
    s.flag = flag[w];
    return s;
  }
  void set_scalars(int w, const padmm::Scalars<double>& s) {
    a[w] = s.a;
    c_prev[w] = s.c_prev;
    r_primal[w] = s.r_primal;
    r_dual[w] = s.r_dual;
    r_compl[w] = s.r_compl;
    iteration[w] = s.iteration;
    flag[w] = s.flag;
  }
  const double* world_factor(int w) const { return factor.data() + static_cast<size_t>(w) * max_rows * max_rows; }
};

}  // namespace contactlab
