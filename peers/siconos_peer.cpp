// The Siconos peer (peers/siconos_peer.hpp): our FrictionContactProblem copied
// into Siconos numerics' own (a dense NumericsMatrix, malloc'd q and mu, all
// owned and freed by Siconos), solved by fc3d_driver.
//
// Siconos' headers open their own extern "C" blocks (BUILD_AS_CPP is off in
// Debian's build), and its FrictionContactProblem is a global C struct: ours
// lives in namespace contactlab, so Siconos' is always named ::FrictionContactProblem.
//
// Known Siconos 4.4 behaviour, not ours to fix: NM_LU_factorize writes
// "LU factorisation DGETRF failed" to stderr unconditionally (whatever the
// verbosity) on every singular Newton system of NSN-AC; solver_options_delete
// frees the members but not the SolverOptions structs themselves (newer
// Siconos frees them, so freeing them here would double-free there), and the
// NSN solvers leak a NumericsMatrix header (64 bytes) per call. W goes to
// Siconos in its sparse-block storage when it is at most 10 % full (see
// siconos_matrix), dense otherwise.
#include "peers/siconos_peer.hpp"

#include <FrictionContactProblem.h>
#include <SparseBlockMatrix.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsVerbose.h>
#include <SolverOptions.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>

namespace contactlab {

namespace {

int solver_id(const std::string& solver) {
  if (solver == "siconos_nsn_ac") return SICONOS_FRICTION_3D_NSN_AC;
  if (solver == "siconos_nsn_fb") return SICONOS_FRICTION_3D_NSN_FB;
  if (solver == "siconos_nsgs") return SICONOS_FRICTION_3D_NSGS;
  std::string known;
  for (const std::string& name : siconos_peer_solvers()) known += (known.empty() ? "" : ", ") + name;
  throw std::invalid_argument("unknown Siconos solver '" + solver + "' (known: " + known + ")");
}

double* malloc_copy(const double* data, std::size_t n) {
  double* p = static_cast<double*>(std::malloc((n > 0 ? n : 1) * sizeof(double)));
  if (!p) throw std::bad_alloc();
  if (n > 0) std::memcpy(p, data, n * sizeof(double));
  return p;
}

struct ProblemDeleter {
  void operator()(::FrictionContactProblem* p) const { frictionContactProblem_free(p); }
};
struct OptionsDeleter {
  void operator()(SolverOptions* o) const { solver_options_delete(o); }
};

// W in Siconos' own storage for these problems: sparse block (3 x 3 blocks,
// what its fc3d solvers are written for) when at most 10 % of W is non-zero,
// as for contactlab's own solvers (FrictionContactProblem::to_constraint_problem),
// otherwise dense. Handing Siconos a dense W for a 1.6 %-full matrix made its
// Newton solvers factorise dense 858 x 858 systems per iteration.
NumericsMatrix* siconos_matrix(const SparseMat& W) {
  const int m = static_cast<int>(W.rows());
  const long nonzeros = W.nonZeros();
  if (m == 0 || !mostly_zero(W)) {
    NumericsMatrix* M = NM_create(NM_DENSE, m, m);
    // Eigen's MatX is column-major, as is NM_DENSE's matrix0.
    const MatX dense(W);
    if (M && m > 0) std::memcpy(M->matrix0, dense.data(), sizeof(double) * static_cast<std::size_t>(m) * m);
    return M;
  }
  NumericsMatrix* T = NM_create(NM_SPARSE, m, m);
  NM_triplet_alloc(T, nonzeros);
  for (int j = 0; j < m; ++j)
    for (SparseMat::InnerIterator it(W, j); it; ++it) NM_entry(T, static_cast<int>(it.row()), j, it.value());
  NumericsMatrix* M = NM_create(NM_SPARSE_BLOCK, m, m);
  const int status = SBM_from_csparse(3, NM_csc(T), M->matrix1);
  NM_clear(T);
  std::free(T);
  if (status != 0) {
    NM_clear(M);
    std::free(M);
    throw std::runtime_error("Siconos: SBM_from_csparse failed");
  }
  return M;
}

}  // namespace

bool siconos_peer_built() { return true; }

const std::vector<std::string>& siconos_peer_solvers() {
  static const std::vector<std::string> names{"siconos_nsn_ac", "siconos_nsn_fb", "siconos_nsgs"};
  return names;
}

SiconosPeerResult solve_with_siconos(const FrictionContactProblem& problem, const std::string& solver,
                                     double tol, int max_iterations) {
  const int id = solver_id(solver);
  const int nc = problem.num_contacts;
  const int m = 3 * nc;
  if (problem.dimension != 3)
    throw std::invalid_argument(problem.name + ": the Siconos peer solves 3D problems only (dimension " +
                                std::to_string(problem.dimension) + ")");
  if (problem.W.rows() != m || problem.W.cols() != m || problem.q.size() != m || problem.mu.size() != nc)
    throw std::invalid_argument(problem.name + ": W, q, mu do not match " + std::to_string(nc) + " contacts");

  numerics_set_verbose(0);

  // Siconos owns everything below: frictionContactProblem_free does NM_clear
  // + free on M and free() on q and mu, hence the malloc'd copies.
  NumericsMatrix* M = siconos_matrix(problem.W);
  if (!M) throw std::bad_alloc();
  double* q = nullptr;
  double* mu = nullptr;
  try {
    q = malloc_copy(problem.q.data(), static_cast<std::size_t>(m));
    mu = malloc_copy(problem.mu.data(), static_cast<std::size_t>(nc));
  } catch (...) {
    std::free(q);
    NM_clear(M);
    std::free(M);
    throw;
  }
  std::unique_ptr<::FrictionContactProblem, ProblemDeleter> fc(
      frictionContactProblem_new_with_data(3, nc, M, q, mu));

  std::unique_ptr<SolverOptions, OptionsDeleter> options(solver_options_create(id));
  if (!options) throw std::runtime_error("Siconos: solver_options_create(" + solver + ") failed");
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  options->dparam[SICONOS_DPARAM_TOL] = tol;

  SiconosPeerResult result;
  result.r = VecX::Zero(m);
  result.u = VecX::Zero(m);
  const auto start = std::chrono::steady_clock::now();
  result.info = fc3d_driver(fc.get(), result.r.data(), result.u.data(), options.get());
  result.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.converged = result.info == 0;
  result.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  result.error = options->dparam[SICONOS_DPARAM_RESIDU];
  // Not every solver leaves velocity consistent with the last reaction (NSGS
  // updates it lazily): the header promises u = W r + q, so recompute it.
  result.u = problem.W * result.r + problem.q;
  return result;
}

}  // namespace contactlab
