// Solving island by island (Solver::solve with IslandOptions) against the
// monolithic solve of the same problem, for every hard-contact solver, on the
// problems of piles of boxes and of spheres after they landed (many islands,
// some stacked). Each solve stops at its own tolerance (1e-6 in the solvers'
// residuals for padmm and pgs, 1e-8 for newton). The two answers are compared
// on what is unique: v+ for the boxes (four corners share a load in many
// ways; the velocity is unique), lambda and v+ for the spheres (one contact
// per pair). Bounds: natural-map residuals within 10x of each other (measured
// 0.99-2.5x), v+ within 1e-5 m/s (measured <= 2.3e-6), the spheres' lambda
// within 1e-4 of its largest entry (measured 6e-5). docs/solvers.md "Islands".
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/island_solve.hpp"
#include "io/mjcf.hpp"
#include "sim/registry.hpp"
#include "sim/simulation.hpp"
#include "studies/piles.hpp"
#include "support/piles.hpp"

using namespace contactlab;

namespace {

struct Answer {
  std::vector<Real> lambda, v_plus;
  SolveStats stats;
};

Answer solve_with(const std::string& law_name, const std::string& solver_name, const ConstraintProblem& problem,
                  bool islands, int threads = 1) {
  const auto law = make_contact_model(law_name);
  auto solver = make_solver(solver_name);
  solver->islands.enabled = islands;
  solver->islands.threads = threads;
  const auto ws = solver->make_workspace();
  Answer a;
  solver->solve(problem, *law, WarmStart{}, *ws, a.lambda, a.v_plus, a.stats);
  return a;
}

Real max_abs_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  Real d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

Real max_abs(const std::vector<Real>& a) {
  Real d = 0;
  for (Real x : a) d = std::max(d, std::abs(x));
  return d;
}

struct Combo {
  const char* law;
  const char* solver;
  Real tol_v;  // m/s, on v+ between the split and the whole solve
};

}  // namespace

TEST_CASE("island solve: a landed pile splits into many islands, some holding a stack") {
  const ConstraintProblem p = test::landed_pile_problem(PileShape::Box, 16, 300);
  IslandPartition part;
  partition_islands(p, part);
  CHECK(part.num_islands >= 8);
  int largest = 0;
  for (int i = 0; i < part.num_islands; ++i)
    largest = std::max(largest, part.body_begin[i + 1] - part.body_begin[i]);
  CHECK(largest >= 2);
}

TEST_CASE("island solve: every hard-contact solver gives the monolithic answer to its tolerance") {
  const Combo combos[] = {{"desaxce", "padmm", 1e-5}, {"desaxce", "pgs", 1e-5}, {"fischer_burmeister", "newton", 1e-5}};
  for (const PileShape shape : {PileShape::Box, PileShape::Sphere}) {
    const ConstraintProblem p = test::landed_pile_problem(shape, 16, 300);
    for (const Combo& c : combos) {
      CAPTURE(pile_shape_name(shape));
      CAPTURE(std::string(c.solver));
      const Answer whole = solve_with(c.law, c.solver, p, false);
      const Answer split = solve_with(c.law, c.solver, p, true);
      // Both answers solve the problem: the common residual is small for each.
      CHECK(split.stats.natural_map <= 10 * std::max(whole.stats.natural_map, Real(1e-6)));
      CHECK(max_abs_diff(split.v_plus, whole.v_plus) <= c.tol_v);
      if (shape == PileShape::Sphere)
        CHECK(max_abs_diff(split.lambda, whole.lambda) <= 1e-4 * std::max(max_abs(whole.lambda), Real(1e-12)));
    }
  }
}

TEST_CASE("island solve: the answer is bit-identical whatever the thread count") {
  const ConstraintProblem p = test::landed_pile_problem(PileShape::Box, 16, 300);
  const Answer one = solve_with("desaxce", "padmm", p, true, 1);
  const Answer two = solve_with("desaxce", "padmm", p, true, 2);
  const Answer three = solve_with("desaxce", "padmm", p, true, 3);
  CHECK(one.lambda == two.lambda);
  CHECK(one.v_plus == two.v_plus);
  CHECK(one.lambda == three.lambda);
  CHECK(one.stats.iterations == two.stats.iterations);
}

TEST_CASE("island solve: statistics merge as the worst island's") {
  std::vector<IslandSolve> islands(3);
  islands[0].stats.status = SolveStatus::Converged;
  islands[0].stats.iterations = 4;
  islands[0].stats.residual_history = {1.0, 0.1};
  islands[1].stats.status = SolveStatus::MaxIterations;
  islands[1].stats.iterations = 9;
  islands[1].stats.r_dual = 3e-3;
  islands[1].stats.residual_history = {0.5, 0.4, 0.3};
  islands[2].stats.status = SolveStatus::Converged;
  SolveStats merged;
  merged.record_history = true;
  merge_island_stats(islands, 3, merged);
  CHECK(merged.status == SolveStatus::MaxIterations);
  CHECK(merged.iterations == 9);
  CHECK(merged.r_dual == 3e-3);
  CHECK(merged.residual_history == std::vector<Real>{1.0, 0.4, 0.3});
  islands[2].stats.status = SolveStatus::NumericalFailure;
  merge_island_stats(islands, 3, merged);
  CHECK(merged.status == SolveStatus::NumericalFailure);
}
