// Shared by the solver tests: hand-built constraint problems (a unit particle
// with one contact or a few scalar rows, a box on 1-4 corners with optional
// bilateral and limit rows, two stacked boxes), v+ = D lambda + v_f and the
// natural-map residual (MATH.md E.1) computed independently of any solver
// with Eigen's dense Delassus matrix, test laws, one-shot solve wrappers, and
// the checks several solvers' tests run alike (known single-contact answers,
// option validation and binding).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "core/constraint_problem.hpp"
#include "core/options.hpp"
#include "core/solver.hpp"

namespace contactlab {
namespace test_problems {

// ---------------------------------------------------------------- problems

// One row of J for a point r (from the CoM) of body `body` along direction d,
// against the world.
inline ConstraintRow row_at(const Vec3& r, const Vec3& d, int body = 0) {
  ConstraintRow row;
  row.body_a = -1;  // world
  row.body_b = body;
  row.J_b << d, r.cross(d);
  return row;
}

// Unit-mass particle (body 0) with one contact at its centre, normal z,
// t1 = x, t2 = y; v_free already contains h.
inline ConstraintProblem particle(const Vec3& vf, double mu) {
  ConstraintProblem pr;
  pr.resize(1, 0, 0, 1);
  pr.inv_mass[0] = 1;
  pr.inv_inertia_W[0] = Mat3::Identity();
  pr.rows[0] = row_at(Vec3::Zero(), Vec3::UnitZ());
  pr.rows[1] = row_at(Vec3::Zero(), Vec3::UnitX());
  pr.rows[2] = row_at(Vec3::Zero(), Vec3::UnitY());
  for (int i = 0; i < 3; ++i) pr.v_free[i] = vf[i];
  pr.mu[0] = mu;
  return pr;
}

// Unit-mass particle (body 0) with `bilateral` bilateral rows, then `limits`
// limit rows, through its centre along z, x, y in turn (three rows at most),
// and no contact; v_free = vf row by row.
inline ConstraintProblem particle_rows(int bilateral, int limits, const std::vector<double>& vf) {
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  ConstraintProblem pr;
  pr.resize(1, bilateral, limits, 0);
  pr.inv_mass[0] = 1;
  pr.inv_inertia_W[0] = Mat3::Identity();
  for (int r = 0; r < bilateral + limits; ++r) {
    pr.rows[r] = row_at(Vec3::Zero(), dirs[r]);
    pr.v_free[r] = vf[r];
  }
  return pr;
}

// Inverse inertia (world = body axes) of a solid box of `mass` with half extents h.
inline Mat3 box_inv_inertia(double mass, const Vec3& h) {
  const Vec3 I(mass / 3 * (h.y() * h.y() + h.z() * h.z()), mass / 3 * (h.x() * h.x() + h.z() * h.z()),
               mass / 3 * (h.x() * h.x() + h.y() * h.y()));
  return I.cwiseInverse().asDiagonal();
}

// The four corners of a box's bottom face (half extents h), from its CoM, in
// the order the box problems touch them.
inline std::array<Vec3, 4> bottom_corners(const Vec3& h) {
  return {Vec3(h.x(), h.y(), -h.z()), Vec3(-h.x(), -h.y(), -h.z()), Vec3(h.x(), -h.y(), -h.z()),
          Vec3(-h.x(), h.y(), -h.z())};
}

// v_free = J u for the bodies' twists (v[b], w[b]).
inline void set_v_free(ConstraintProblem& pr, const Vec3* v, const Vec3* w) {
  std::vector<Real> u(6 * pr.num_bodies);
  for (int b = 0; b < pr.num_bodies; ++b)
    for (int i = 0; i < 3; ++i) {
      u[6 * b + i] = v[b][i];
      u[6 * b + 3 + i] = w[b][i];
    }
  pr.apply_J(u.data(), pr.v_free.data());
}

// Box (mass 2, half extents 0.5 x 0.3 x 0.2) touching the ground at `corners`
// of its bottom face, moving with twist (v, w); optional bilateral and limit
// rows at points of the box.
inline ConstraintProblem box(int corners, const Vec3& v, const Vec3& w, double mu, int bilateral = 0, int limits = 0) {
  const Vec3 h(0.5, 0.3, 0.2);
  const double mass = 2;
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  ConstraintProblem pr;
  pr.resize(1, bilateral, limits, corners);
  pr.inv_mass[0] = 1 / mass;
  pr.inv_inertia_W[0] = box_inv_inertia(mass, h);
  int r = 0;
  for (int i = 0; i < bilateral; ++i) pr.rows[r++] = row_at(Vec3(0.1 * i, 0, 0.3), Vec3::UnitX());  // e.g. a rail
  for (int i = 0; i < limits; ++i) pr.rows[r++] = row_at(Vec3(0, 0.2, 0.1 * i), Vec3::UnitY());    // a stop
  const std::array<Vec3, 4> pts = bottom_corners(h);
  for (int k = 0; k < corners; ++k) {
    for (const Vec3& d : dirs) pr.rows[r++] = row_at(pts[k], d);
    pr.mu[k] = mu;
  }
  set_v_free(pr, &v, &w);
  return pr;
}

// Two boxes: box 0 (as above) on the ground at `ground` corners, box 1 (mass
// 1, same shape) on top of box 0 at `top` corners, each with its own twist.
// Box-box rows have body_a = 0 (lower) and body_b = 1 (upper), so they
// exercise rows between two moving bodies.
inline ConstraintProblem stack(int ground, int top, const Vec3 v[2], const Vec3 w[2], double mu) {
  const Vec3 h(0.5, 0.3, 0.2);
  const double mass[2] = {2, 1};
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  ConstraintProblem pr;
  pr.resize(2, 0, 0, ground + top);
  for (int b = 0; b < 2; ++b) {
    pr.inv_mass[b] = 1 / mass[b];
    pr.inv_inertia_W[b] = box_inv_inertia(mass[b], h);
  }
  const std::array<Vec3, 4> pts = bottom_corners(h);
  int r = 0, k = 0;
  for (int c = 0; c < ground; ++c, ++k) {
    for (const Vec3& d : dirs) pr.rows[r++] = row_at(pts[c], d, 0);
    pr.mu[k] = mu;
  }
  for (int c = 0; c < top; ++c, ++k) {
    // Corner c of box 1's bottom face, which is box 0's top face (box 1 sits 2 h_z higher).
    const Vec3 r_top = pts[c];
    const Vec3 r_low = pts[c] + Vec3(0, 0, 2 * h.z());
    for (const Vec3& d : dirs) {
      ConstraintRow row;
      row.body_a = 0;
      row.body_b = 1;
      row.J_a << -d, -r_low.cross(d);
      row.J_b << d, r_top.cross(d);
      pr.rows[r++] = row;
    }
    pr.mu[k] = mu;
  }
  set_v_free(pr, v, w);
  return pr;
}

// v = D lambda + v_f from Eigen's dense D (independent of the solver's
// assembly); with a law, D also carries the law's contact compliance on the
// contact rows.
inline std::vector<Real> velocity(const ConstraintProblem& pr, const std::vector<Real>& lambda,
                                  const ContactModel* law = nullptr) {
  MatX D;
  pr.dense_delassus(D);
  if (law) {
    std::vector<Real> R(3 * pr.num_contacts);
    law->contact_compliance(pr.mu.data(), pr.num_contacts, R.data());
    for (int k = 0; k < 3 * pr.num_contacts; ++k) D(pr.contact_offset() + k, pr.contact_offset() + k) += R[k];
  }
  const VecX v = D * Eigen::Map<const VecX>(lambda.data(), pr.num_rows()) +
                 Eigen::Map<const VecX>(pr.v_free.data(), pr.num_rows());
  return std::vector<Real>(v.data(), v.data() + v.size());
}

// Natural-map residual (MATH.md E.1): bilateral |v|, limits |lambda - max(0,
// lambda - v)|, contacts |lambda - Pi_K(lambda - (v + Gamma(v)))|, infinity norm.
// Without the de Saxce shift it is the natural map of the convex cone
// complementarity K ∋ lambda ⊥ v ∈ K* (ccp).
inline double natural_map(const ConstraintProblem& pr, const std::vector<Real>& lambda, const std::vector<Real>& v,
                          bool desaxce_shift = true) {
  double r = 0;
  for (int i = 0; i < pr.num_bilateral; ++i) r = std::max(r, std::abs(v[i]));
  for (int i = pr.num_bilateral; i < pr.contact_offset(); ++i)
    r = std::max(r, std::abs(lambda[i] - std::max(0.0, lambda[i] - v[i])));
  for (int k = 0; k < pr.num_contacts; ++k) {
    const int o = pr.contact_offset() + 3 * k;
    const double mu = pr.mu[k];
    double arg[3];
    const double shift = desaxce_shift ? mu * std::hypot(v[o + 1], v[o + 2]) : 0.0;
    arg[0] = lambda[o] - (v[o] + shift);
    arg[1] = lambda[o + 1] - v[o + 1];
    arg[2] = lambda[o + 2] - v[o + 2];
    cone::project_primal(mu, arg);
    for (int j = 0; j < 3; ++j) r = std::max(r, std::abs(lambda[o + j] - arg[j]));
  }
  return r;
}

// ---------------------------------------------------------------- laws

inline const DeSaxceModel& desaxce() {
  static const DeSaxceModel law;
  return law;
}

// Test law on de Saxce's cones: a convex one has no velocity shift, a
// non-convex one de Saxce's; every contact gets the compliance (normal_R,
// tangent_R, tangent_R).
class TestLaw final : public ContactModel {
 public:
  TestLaw(std::string name, bool convex, bool hard, double normal_R, double tangent_R)
      : name_(std::move(name)), convex_(convex), hard_(hard), normal_R_(normal_R), tangent_R_(tangent_R) {}
  std::string name() const override { return name_; }
  bool is_convex() const override { return convex_; }
  bool is_hard() const override { return hard_; }
  void project_primal(const Real* mu, int nc, Real* x) const override { law_.project_primal(mu, nc, x); }
  void project_dual(const Real* mu, int nc, Real* x) const override { law_.project_dual(mu, nc, x); }
  void velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const override {
    if (convex_) std::fill(s, s + 3 * nc, 0.0);
    else law_.velocity_shift(mu, nc, v, s);
  }
  void contact_compliance(const Real*, int nc, Real* R) const override {
    for (int k = 0; k < nc; ++k) {
      R[3 * k] = normal_R_;
      R[3 * k + 1] = R[3 * k + 2] = tangent_R_;
    }
  }
  void bind_options(OptionSet&, const std::string&) override {}

 private:
  std::string name_;
  bool convex_, hard_;
  double normal_R_, tangent_R_;
  DeSaxceModel law_;
};

// De Saxce with a contact compliance c on every contact row.
inline TestLaw soft_desaxce(double c) { return TestLaw("soft_desaxce", false, false, c, c); }

// ---------------------------------------------------------------- solving

struct Result {
  std::vector<Real> lambda, v;
  SolveStats stats;
};

// One solve in the given workspace; the residual history recorded on request.
inline Result solve_in(const Solver& solver, SolverWorkspace& ws, const ConstraintProblem& pr,
                       const ContactModel& law, const WarmStart& warm = {}, bool record_history = true) {
  Result r;
  r.stats.record_history = record_history;
  solver.solve(pr, law, warm, ws, r.lambda, r.v, r.stats);
  return r;
}

// One solve with a fresh workspace.
inline Result solve_once(const Solver& solver, const ConstraintProblem& pr, const ContactModel& law,
                         const WarmStart& warm = {}, bool record_history = true) {
  auto ws = solver.make_workspace();
  return solve_in(solver, *ws, pr, law, warm, record_history);
}

// solve(problem, options = {}, warm start = {}, law = nullptr): one solve by a
// fresh SolverT(options) under the law (de Saxce when null).
template <typename SolverT>
struct FreshSolve {
  bool record_history = true;

  Result operator()(const ConstraintProblem& pr, const typename SolverT::options_type& opt = {},
                    const WarmStart& warm = {}, const ContactModel* law = nullptr) const {
    const SolverT solver(opt);
    return solve_once(solver, pr, law ? *law : desaxce(), warm, record_history);
  }
};

// A warm start from a solve's answer.
inline WarmStart warm_start_from(const Result& r) {
  WarmStart warm;
  warm.valid = true;
  warm.lambda = r.lambda;
  warm.v = r.v;
  return warm;
}

// ---------------------------------------------------------------- checks

inline void check_vec(const std::vector<Real>& a, const Vec3& b, double tol) {
  REQUIRE(a.size() >= 3);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::abs(a[i] - b[i]) <= tol);
  }
}

inline void check_close(const std::vector<Real>& a, const std::vector<Real>& b, double tol) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(a[i] - b[i]) <= tol);
  }
}

// A numerical failure returns zero impulses and velocities.
inline void check_numerical_failure(const Result& r) {
  CHECK(r.stats.status == SolveStatus::NumericalFailure);
  for (double x : r.lambda) CHECK(x == 0);
  for (double x : r.v) CHECK(x == 0);
}

// Known answers on the unit particle under de Saxce, for every solver of that
// law: `solve(problem)` returns its Result, checked to `tol`.

// Separating: lambda = 0, v+ = v_f. Returns the solve.
template <typename Solve>
Result check_separating(Solve&& solve, double tol) {
  const Vec3 vf(0.5, 0.3, -0.2);
  const Result r = solve(particle(vf, 0.7));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3::Zero(), tol);
  check_vec(r.v, vf, tol);
  return r;
}

// Sticking stops the particle.
template <typename Solve>
void check_sticking(Solve&& solve, double tol) {
  const Result r = solve(particle(Vec3(-1, 0.1, 0), 1.0));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, -0.1, 0), tol);
  check_vec(r.v, Vec3::Zero(), tol);
}

// Sliding: friction opposes the slip at mu lambda_n, along an axis, then
// along a diagonal. Returns the diagonal's solve.
template <typename Solve>
Result check_sliding(Solve&& solve, double tol) {
  const Result r = solve(particle(Vec3(-1, 2, 0), 0.5));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, -0.5, 0), tol);
  check_vec(r.v, Vec3(0, 1.5, 0), tol);
  // Slip along a diagonal: friction along -v_t/|v_t|.
  const Result d = solve(particle(Vec3(-2, 3, 4), 0.2));
  check_vec(d.lambda, Vec3(2, -0.4 * 0.6, -0.4 * 0.8), tol);
  check_vec(d.v, Vec3(0, 3 - 0.24, 4 - 0.32), tol);
  return d;
}

// Frictionless contact (mu = 0).
template <typename Solve>
void check_frictionless(Solve&& solve, double tol) {
  const Result r = solve(particle(Vec3(-1, 2, 0.5), 0.0));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, 0, 0), tol);
  check_vec(r.v, Vec3(0, 2, 0.5), tol);
}

// A limit row alone: lambda = max(0, -v_f), v+ = max(0, v_f).
template <typename Solve>
void check_limit_rows(Solve&& solve, double tol) {
  for (double vf : {-2.0, 1.0}) {
    const Result r = solve(particle_rows(0, 1, {vf}));
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(std::abs(r.lambda[0] - std::max(0.0, -vf)) <= tol);
    CHECK(std::abs(r.v[0] - std::max(0.0, vf)) <= tol);
  }
}

// Particle hanging from a bilateral row (z), pushed up or pulled down, with
// and without compliance R: lambda = -v_f / D with D = 1 + R, v+ = 0.
template <typename Solve>
void check_bilateral_rows(Solve&& solve, double tol) {
  for (double R : {0.0, 0.25}) {
    for (double vf : {-0.5, 0.7}) {
      ConstraintProblem pr = particle_rows(1, 0, {vf});
      pr.compliance[0] = R;
      const Result r = solve(pr);
      CHECK(r.stats.status == SolveStatus::Converged);
      CHECK(std::abs(r.lambda[0] + vf / (1 + R)) <= tol);
      CHECK(std::abs(r.v[0]) < tol);
    }
  }
}

// Sticking under a law with contact compliance c (solve uses it): v+ = (1 +
// c) lambda + v_f = 0. Returns the solve.
template <typename Solve>
Result check_soft_sticking(Solve&& solve, double c, double tol) {
  const Result r = solve(particle(Vec3(-1, 0.1, 0), 1.0));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, -0.1, 0) / (1 + c), tol);
  check_vec(r.v, Vec3::Zero(), tol);
  return r;
}

// One iteration (max_iterations = 1) cannot converge on a sliding contact.
// Returns the solve.
template <typename Options, typename Solve>
Result check_one_iteration(Solve&& solve) {
  Options opt;
  opt.max_iterations = 1;
  const Result r = solve(particle(Vec3(-1, 2, 0), 0.5), opt);
  CHECK(r.stats.status == SolveStatus::MaxIterations);
  CHECK(r.stats.iterations == 1);
  return r;
}

// The empty problem converges at once with nothing to return.
template <typename Solve>
void check_empty_problem(Solve&& solve) {
  ConstraintProblem pr;
  pr.resize(0, 0, 0, 0);
  const Result r = solve(pr);
  CHECK(r.stats.status == SolveStatus::Converged);
  CHECK(r.stats.iterations == 0);
  CHECK(r.lambda.empty());
}

// A warm start from the answer of a converged cold solve converges too, in
// fewer iterations, and is ignored when switched off (Options::warm_start).
// solve(problem, options, warm start) solves; compare(cold, hot) adds the
// solver's own checks of the warm solve.
template <typename Options, typename Solve, typename Compare>
void check_warm_start(const ConstraintProblem& pr, Solve&& solve, Compare&& compare) {
  const Result cold = solve(pr, Options{}, WarmStart{});
  REQUIRE(cold.stats.status == SolveStatus::Converged);
  const WarmStart warm = warm_start_from(cold);
  const Result hot = solve(pr, Options{}, warm);
  CHECK(hot.stats.status == SolveStatus::Converged);
  compare(cold, hot);
  CHECK(hot.stats.iterations < cold.stats.iterations);
  Options off;
  off.warm_start = false;
  CHECK(solve(pr, off, warm).stats.iterations == cold.stats.iterations);
}

// The workspace does not grow once it has seen the largest problem: a box on
// four corners with a rail and a stop, then a particle, then the box again, in
// one workspace of type W; buffers(workspace) lists the data pointers that
// must not move after the first solve.
template <typename W, typename Buffers>
void check_workspace_kept(const Solver& solver, const ContactModel& law, Buffers&& buffers) {
  auto ws = solver.make_workspace();
  std::vector<Real> lambda, v;
  SolveStats stats;
  const ConstraintProblem big = box(4, Vec3(0.1, 0, -1), Vec3::Zero(), 0.5, 1, 1);
  const ConstraintProblem small = particle(Vec3(-1, 2, 0), 0.5);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  auto& w = dynamic_cast<W&>(*ws);
  const std::vector<const Real*> before = buffers(w);
  solver.solve(small, law, {}, *ws, lambda, v, stats);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  const std::vector<const Real*> after = buffers(w);
  for (size_t i = 0; i < before.size(); ++i) {
    CAPTURE(i);
    CHECK(after[i] == before[i]);
  }
}

// ---------------------------------------------------------------- options

// What Validate() throws ("" when it accepts the options).
template <typename Options>
std::string validate_message(const Options& o) {
  try {
    o.Validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// One bad setting of an options struct and the field Validate() must name.
template <typename Options>
struct BadOption {
  const char* field;
  void (*set)(Options&);
};

// The defaults validate; each bad setting is refused with a message naming
// "<type>.<field> ".
template <typename Options, size_t N>
void check_validation_names_fields(const char* type, const BadOption<Options> (&bad)[N]) {
  CHECK(validate_message(Options{}).empty());
  for (const BadOption<Options>& b : bad) {
    CAPTURE(b.field);
    Options o;
    b.set(o);
    CHECK(validate_message(o).find(std::string(type) + "." + b.field + " ") != std::string::npos);
  }
}

// Every key is bound under the prefix.
inline void check_bound(const OptionSet& set, const std::string& prefix, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    CAPTURE(key);
    CHECK(set.has(prefix + key));
  }
}

}  // namespace test_problems
}  // namespace contactlab
