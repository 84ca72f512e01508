// Every registered solver on an explicit W it cannot solve, called from the
// library (not through the reader, which refuses these problems): a zero W
// (also with no stored entry, the fuzzer's segmentation fault in
// ExplicitDelassus), a W singular at one contact, and a rank-deficient W.
// A solver must throw std::invalid_argument or return finite output, and it
// must not call converged a problem that has no solution. docs/reliability.md.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "io/fc3d_io.hpp"
#include "sim/registry.hpp"
#include "studies/fc3d_solve.hpp"

using namespace contactlab;

namespace {

struct Case {
  const char* name;
  MatX W;
  bool solvable;  // whether a solution exists (q = (-1, 0, 0) per contact)
};

std::vector<Case> cases() {
  const int m = 6;
  MatX zero = MatX::Zero(m, m);
  MatX block = MatX::Zero(m, m);  // contact 1's rows and columns zero
  block.topLeftCorner(3, 3).setIdentity();
  MatX twin(m, m);  // two contacts on one body: [I I; I I], singular but solvable (r_0 + r_1 = e_n)
  twin << MatX::Identity(3, 3), MatX::Identity(3, 3), MatX::Identity(3, 3), MatX::Identity(3, 3);
  return {{"zero W", zero, false}, {"W singular at contact 1", block, false}, {"rank-deficient W", twin, true}};
}

VecX q6() {
  VecX q = VecX::Zero(6);
  q[0] = q[3] = -1;
  return q;
}

}  // namespace

TEST_CASE("singular W: ExplicitDelassus takes a zero W with no stored entry, refuses NaN and non-square") {
  const ExplicitDelassus empty{SparseMat(6, 6)};  // was a null read in maxCoeff()
  CHECK(empty.symmetric());
  CHECK(empty.diagonal(3) == 0.0);
  CHECK(ExplicitDelassus(MatX::Zero(6, 6)).symmetric());
  MatX bad = MatX::Identity(3, 3);
  bad(1, 2) = std::nan("");
  CHECK_THROWS_AS(ExplicitDelassus{bad}, std::invalid_argument);
  CHECK_THROWS_AS(ExplicitDelassus{SparseMat(bad.sparseView())}, std::invalid_argument);
  CHECK_THROWS_AS(ExplicitDelassus{MatX::Identity(3, 6)}, std::invalid_argument);
  ConstraintProblem p;
  VecX q = q6();
  q[1] = std::nan("");
  CHECK_THROWS_AS(p.set_explicit(MatX::Identity(6, 6), q, VecX::Constant(2, 0.5)), std::invalid_argument);
  CHECK_THROWS_AS(p.set_explicit(MatX::Identity(6, 6), q6(), VecX::Constant(2, -0.5)), std::invalid_argument);
}

TEST_CASE("singular W: every solver, dense and sparse W, returns finite output and no false convergence") {
  for (const Case& c : cases())
    for (const bool sparse : {false, true})
      for (const PartInfo& info : solver_names()) {
        const std::string what = std::string(c.name) + (sparse ? ", sparse, " : ", dense, ") + info.name;
        CAPTURE(what);
        ConstraintProblem problem;
        if (sparse)
          problem.set_explicit(std::make_shared<const ExplicitDelassus>(SparseMat(c.W.sparseView())), q6(),
                               VecX::Constant(2, 0.5));
        else
          problem.set_explicit(c.W, q6(), VecX::Constant(2, 0.5));
        std::unique_ptr<Solver> solver = make_solver(info.name);
        std::unique_ptr<ContactModel> law = make_contact_model(default_contact_for(info.name));
        OptionSet set;
        law->bind_options(set, "contact.");
        solver->bind_options(set, "solver.");
        std::unique_ptr<SolverWorkspace> ws = solver->make_workspace();
        std::vector<Real> lambda, v;
        SolveStats stats;
        try {
          solver->solve(problem, *law, WarmStart{}, *ws, lambda, v, stats);
        } catch (const std::invalid_argument& e) {  // a solver that cannot take an explicit W says so
          CHECK(std::string(e.what()).size() > 10);
          continue;
        }
        REQUIRE(lambda.size() == 6u);
        REQUIRE(v.size() == 6u);
        for (int i = 0; i < 6; ++i) {
          CHECK(std::isfinite(lambda[i]));
          CHECK(std::isfinite(v[i]));
        }
        if (!c.solvable) CHECK(stats.status != SolveStatus::Converged);
        if (stats.status == SolveStatus::Converged) CHECK(stats.natural_map < 1e-3);
      }
}

TEST_CASE("singular W: solve_fc3d refuses what the reader refuses, and a rounded-away error is no success") {
  FrictionContactProblem p;
  p.name = "built_in_code";
  p.num_contacts = 2;
  p.q = q6();
  p.mu = VecX::Constant(2, 0.5);
  Fc3dSolveOptions o;
  for (const char* solver : {"padmm", "pgs", "newton"}) {
    o.solver = solver;
    p.W = SparseMat(6, 6);
    CHECK_THROWS_WITH_AS(solve_fc3d(p, o), doctest::Contains("built_in_code: W is zero"), std::invalid_argument);
    p.W = cases()[1].W.sparseView();
    CHECK_THROWS_WITH_AS(solve_fc3d(p, o), doctest::Contains("W is singular at contact 1"), std::invalid_argument);
    MatX asym = MatX::Identity(6, 6);
    asym(0, 4) = 0.5;
    p.W = asym.sparseView();
    CHECK_THROWS_WITH_AS(solve_fc3d(p, o), doctest::Contains("W is not symmetric"), std::invalid_argument);
    // The rank-deficient W is a valid problem: solved, or honestly not.
    p.W = cases()[2].W.sparseView();
    const Fc3dSolveResult r = solve_fc3d(p, o);
    CHECK(r.r.allFinite());
    CHECK(r.success == (r.errors.relative <= o.tol && r.errors.rounding <= o.tol));
  }
  // Newton on a zero W drove r_n to ~1e23, where r_n + 1 == r_n: the natural
  // map rounds to exactly 0. That must not count as solved.
  p.W = SparseMat(6, 6);
  VecX r = VecX::Zero(6), u;
  r[0] = r[3] = 2e23;
  const Fc3dErrors e = fc3d_errors(p, r, u);
  CHECK(e.relative <= 1e-6);  // rounded away
  CHECK(e.rounding > 1);
  CHECK_FALSE(fc3d_success(e, 1e-6));
}
