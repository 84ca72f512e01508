// PADMM's sparse Delassus path (core/sparse_delassus.hpp, solvers/padmm_factor.hpp)
// against the dense one: the assembled matrix entry by entry, and the answers
// on pile problems and on ../shared/data/fc3d problems; the penalty
// correction against refactorising at every change; one numeric
// factorisation per solve where the correction pays, and the symbolic
// analysis reused while the pattern holds.
//
// Tolerances: the two paths run the same iteration with the same operator,
// differing only by the rounding of two factorisations (1e-16 relative), so
// iteration counts agree and answers agree far below the solver's 1e-6; the
// CG-corrected x-update stops at a relative residual of 1e-10 (cr_tolerance),
// so it may move an iterate by ~1e-10 and, near a stopping test, change the
// iteration count by one: its answers are compared at 10 x the solver's tolerance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "contact_models/desaxce.hpp"
#include "core/sparse_delassus.hpp"
#include "io/fc3d_io.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "solvers/padmm.hpp"
#include "studies/piles.hpp"
#include "support/piles.hpp"

using namespace contactlab;

namespace {

struct Answer {
  std::vector<Real> lambda, v_plus;
  SolveStats stats;
  PadmmFactorCounters counters;
};

Answer solve(const ConstraintProblem& p, PadmmOptions o) {
  PadmmSolver solver(o);
  solver.islands.enabled = false;  // the whole problem: one large factor
  PadmmWorkspace ws;
  Answer a;
  solver.solve(p, DeSaxceModel(), WarmStart{}, ws, a.lambda, a.v_plus, a.stats);
  a.counters = ws.last_counters;
  return a;
}

Real max_abs_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  REQUIRE(a.size() == b.size());
  Real d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

PadmmOptions with_delassus(int delassus, bool refactorise = false) {
  PadmmOptions o;
  o.delassus = delassus;
  o.penalty_refactorise = refactorise;
  o.penalty_memory = false;
  return o;
}

}  // namespace

TEST_CASE("sparse delassus: the assembled lower triangle is the dense D's, and its pattern is remembered") {
  const ConstraintProblem p = test::landed_pile_problem(PileShape::Box, 16, 300);
  MatX D;
  p.dense_delassus(D);
  SparseDelassus s;
  CHECK(s.assemble(p, nullptr));  // first assembly: a new pattern
  const MatX lower = MatX(s.lower());
  const int m = p.num_rows();
  long structural_zeros = 0;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      if (i < j) {
        CHECK(lower(i, j) == 0.0);
        continue;
      }
      CHECK(lower(i, j) == doctest::Approx(D(i, j)).epsilon(1e-12).scale(1e-12));
      structural_zeros += D(i, j) == 0.0 ? 1 : 0;
    }
  // The pile is sparse: most of D's lower triangle is not stored.
  CHECK(s.lower().nonZeros() < static_cast<long>(m) * (m + 1) / 4);
  CHECK(structural_zeros > 0);
  CHECK_FALSE(s.assemble(p, nullptr));  // the same problem: the same pattern
  ConstraintProblem fewer = p;
  fewer.rows[fewer.contact_offset()].body_b = fewer.rows[fewer.contact_offset()].body_a;  // changes coupling
  CHECK(s.assemble(fewer, nullptr));
}

TEST_CASE("sparse delassus: padmm's sparse and dense paths give the same answer on piles") {
  for (const PileShape shape : {PileShape::Box, PileShape::Sphere}) {
    CAPTURE(pile_shape_name(shape));
    const ConstraintProblem p = test::landed_pile_problem(shape, 16, 300);
    REQUIRE(p.num_rows() >= 48);
    const Answer dense = solve(p, with_delassus(PadmmOptions::kDense, true));
    const Answer sparse = solve(p, with_delassus(PadmmOptions::kSparse, true));
    CHECK(dense.stats.status == SolveStatus::Converged);
    CHECK(sparse.stats.status == dense.stats.status);
    CHECK(sparse.stats.iterations == dense.stats.iterations);
    CHECK(max_abs_diff(sparse.lambda, dense.lambda) <= 1e-9);
    CHECK(max_abs_diff(sparse.v_plus, dense.v_plus) <= 1e-9);
    // The corrected x-update (one factorisation) against refactorising.
    const Answer corrected = solve(p, with_delassus(PadmmOptions::kSparse, false));
    CHECK(corrected.stats.status == SolveStatus::Converged);
    CHECK(max_abs_diff(corrected.v_plus, dense.v_plus) <= 1e-5);
    CHECK(corrected.stats.natural_map <= 10 * std::max(dense.stats.natural_map, Real(1e-6)));
  }
}

TEST_CASE("sparse delassus: a penalty change is corrected where refactorising costs more, refactorised where less") {
  // A dense coupled problem (100 contacts, every pair coupled): refactorising
  // m^3/3 costs more than ten corrected iterations of 4 m^2.
  const int nc = 100, m = 3 * nc;
  MatX A = MatX::Zero(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) A(i, j) = std::sin(1.0 + 0.37 * i + 0.91 * j * j);
  const MatX W = A * A.transpose() / m + MatX::Identity(m, m);
  VecX q = VecX::Zero(m);
  for (int k = 0; k < nc; ++k) q[3 * k] = -1.0 - 0.01 * k, q[3 * k + 1] = 0.2 * std::cos(k);
  ConstraintProblem dense_problem;
  dense_problem.set_explicit(W, q, VecX::Constant(nc, 0.5));
  for (const int delassus : {PadmmOptions::kDense, PadmmOptions::kSparse}) {
    CAPTURE(delassus);
    const Answer refactorising = solve(dense_problem, with_delassus(delassus, true));
    const Answer corrected = solve(dense_problem, with_delassus(delassus, false));
    // The balanced penalty moved rho during the solve...
    REQUIRE(refactorising.counters.factorisations >= 2);
    // ...and the corrected solve factorised once (the sparse one analysed once).
    CHECK(corrected.counters.factorisations == 1);
    CHECK(corrected.counters.corrected_solves > 0);
    if (delassus == PadmmOptions::kSparse) CHECK(corrected.counters.symbolic_analyses == 1);
    CHECK(corrected.stats.status == refactorising.stats.status);
    CHECK(max_abs_diff(corrected.v_plus, refactorising.v_plus) <= 1e-5);
  }
  // The settled pile of 64 boxes is nearly block diagonal: its factor costs
  // less than the correction, so every change refactorises (numerically; the
  // pattern is analysed once).
  const ConstraintProblem pile = test::landed_pile_problem(PileShape::Box, 64, 300);
  const Answer auto_choice = solve(pile, with_delassus(PadmmOptions::kSparse, false));
  CHECK(auto_choice.counters.corrected_solves == 0);
  CHECK(auto_choice.counters.symbolic_analyses == 1);
}

TEST_CASE("sparse delassus: the same answers as the dense path on fc3d problems") {
  const std::string dir = CONTACTLAB_FC3D_DIR;
  for (const char* file : {"Capsules-i101-404.dat", "BoxesStack1-i100000-32.hdf5.dat", "Confeti-ex03-Fc3D-SBM.dat"}) {
    CAPTURE(std::string(file));
    const FrictionContactProblem fc = read_fc3d_problem(dir + "/" + file);
    const ConstraintProblem p = fc.to_constraint_problem();
    if (!p.explicit_W->symmetric()) {
      // A non-symmetric W is factorised by LU whatever the choice: both paths are the same code.
      MESSAGE(file, ": non-symmetric W, LU in both paths");
    }
    PadmmOptions o = with_delassus(PadmmOptions::kDense, true);
    o.max_iterations = 300;
    const Answer dense = solve(p, o);
    o.delassus = PadmmOptions::kSparse;
    const Answer sparse = solve(p, o);
    CHECK(sparse.stats.status == dense.stats.status);
    CHECK(sparse.stats.iterations == dense.stats.iterations);
    const Real scale = std::max(Real(1), fc.q.cwiseAbs().maxCoeff());
    CHECK(max_abs_diff(sparse.lambda, dense.lambda) <= 1e-8 * scale);
    CHECK(max_abs_diff(sparse.v_plus, dense.v_plus) <= 1e-8 * scale);
  }
}
