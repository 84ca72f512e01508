// PgsSolver (projected Gauss-Seidel, solvers/pgs.hpp) on hand-built problems
// with known answers (the same as tests/test_padmm.cpp), against PadmmSolver
// on random multi-contact rigid-body problems, warm start, statuses, options,
// and workspace reuse. The natural-map residual (MATH.md E.1) is computed here,
// independently of the solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "core/options.hpp"
#include "solvers/padmm.hpp"
#include "solvers/pgs.hpp"

using namespace contactlab;

namespace {

// Known-answer tolerance: PGS stops at a natural-map residual <= 1e-6; on
// these problems D has eigenvalues in [1, 2.5] (unit particle / box below), so
// the impulse and velocity errors are a small multiple of 1e-6.
constexpr double kAnswerTol = 1e-5;

struct Result {
  std::vector<Real> lambda, v;
  SolveStats stats;
};

const DeSaxceModel& desaxce() {
  static const DeSaxceModel law;
  return law;
}

Result solve(const ConstraintProblem& pr, const PgsOptions& opt = {}, const WarmStart& warm = {},
             const ContactModel* law = nullptr) {
  PgsSolver solver(opt);
  auto ws = solver.make_workspace();
  Result r;
  r.stats.record_history = true;
  solver.solve(pr, law ? *law : desaxce(), warm, *ws, r.lambda, r.v, r.stats);
  return r;
}

Result solve_padmm(const ConstraintProblem& pr, const PadmmOptions& opt) {
  PadmmSolver solver(opt);
  auto ws = solver.make_workspace();
  Result r;
  solver.solve(pr, desaxce(), {}, *ws, r.lambda, r.v, r.stats);
  return r;
}

// One row of J for a point r (from the CoM) of body `body` along direction d,
// against the world.
ConstraintRow row_at(const Vec3& r, const Vec3& d, int body = 0) {
  ConstraintRow row;
  row.body_a = -1;  // world
  row.body_b = body;
  row.J_b << d, r.cross(d);
  return row;
}

// Unit-mass particle (body 0) with one contact at its centre, normal z,
// t1 = x, t2 = y; v_free already contains h.
ConstraintProblem particle(const Vec3& vf, double mu) {
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

// Box (mass 2, half extents 0.5 x 0.3 x 0.2) touching the ground at `corners`
// of its bottom face, moving with twist (v, w); optional bilateral and limit
// rows at points of the box.
ConstraintProblem box(int corners, const Vec3& v, const Vec3& w, double mu, int bilateral = 0, int limits = 0) {
  const Vec3 h(0.5, 0.3, 0.2);
  const double mass = 2;
  ConstraintProblem pr;
  pr.resize(1, bilateral, limits, corners);
  pr.inv_mass[0] = 1 / mass;
  const Vec3 I(mass / 3 * (h.y() * h.y() + h.z() * h.z()), mass / 3 * (h.x() * h.x() + h.z() * h.z()),
               mass / 3 * (h.x() * h.x() + h.y() * h.y()));
  pr.inv_inertia_W[0] = I.cwiseInverse().asDiagonal();
  int r = 0;
  for (int i = 0; i < bilateral; ++i) pr.rows[r++] = row_at(Vec3(0.1 * i, 0, 0.3), Vec3::UnitX());  // e.g. a rail
  for (int i = 0; i < limits; ++i) pr.rows[r++] = row_at(Vec3(0, 0.2, 0.1 * i), Vec3::UnitY());    // a stop
  const Vec3 pts[4] = {{h.x(), h.y(), -h.z()}, {-h.x(), -h.y(), -h.z()}, {h.x(), -h.y(), -h.z()}, {-h.x(), h.y(), -h.z()}};
  for (int k = 0; k < corners; ++k) {
    pr.rows[r++] = row_at(pts[k], Vec3::UnitZ());
    pr.rows[r++] = row_at(pts[k], Vec3::UnitX());
    pr.rows[r++] = row_at(pts[k], Vec3::UnitY());
    pr.mu[k] = mu;
  }
  std::vector<Real> u(6);
  for (int i = 0; i < 3; ++i) {
    u[i] = v[i];
    u[3 + i] = w[i];
  }
  pr.apply_J(u.data(), pr.v_free.data());
  return pr;
}

// Two boxes: box 0 (as above) on the ground at `ground` corners, box 1 (mass
// 1, same shape) on top of box 0 at `top` corners, each with its own twist.
// Box-box rows have body_a = 0 (lower) and body_b = 1 (upper), so they
// exercise rows between two moving bodies.
ConstraintProblem stack(int ground, int top, const Vec3 v[2], const Vec3 w[2], double mu) {
  const Vec3 h(0.5, 0.3, 0.2);
  const double mass[2] = {2, 1};
  ConstraintProblem pr;
  pr.resize(2, 0, 0, ground + top);
  for (int b = 0; b < 2; ++b) {
    pr.inv_mass[b] = 1 / mass[b];
    const Vec3 I(mass[b] / 3 * (h.y() * h.y() + h.z() * h.z()), mass[b] / 3 * (h.x() * h.x() + h.z() * h.z()),
                 mass[b] / 3 * (h.x() * h.x() + h.y() * h.y()));
    pr.inv_inertia_W[b] = I.cwiseInverse().asDiagonal();
  }
  const Vec3 pts[4] = {{h.x(), h.y(), -h.z()}, {-h.x(), -h.y(), -h.z()}, {h.x(), -h.y(), -h.z()}, {-h.x(), h.y(), -h.z()}};
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
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
  std::vector<Real> u(12);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i) {
      u[6 * b + i] = v[b][i];
      u[6 * b + 3 + i] = w[b][i];
    }
  pr.apply_J(u.data(), pr.v_free.data());
  return pr;
}

// v = D lambda + v_f from Eigen's dense D (independent of the solver).
std::vector<Real> velocity(const ConstraintProblem& pr, const std::vector<Real>& lambda) {
  MatX D;
  pr.dense_delassus(D);
  const VecX v = D * Eigen::Map<const VecX>(lambda.data(), pr.num_rows()) +
                 Eigen::Map<const VecX>(pr.v_free.data(), pr.num_rows());
  return std::vector<Real>(v.data(), v.data() + v.size());
}

// Total wrench J^T lambda on the bodies (6 per body).
std::vector<Real> wrench(const ConstraintProblem& pr, const std::vector<Real>& lambda) {
  std::vector<Real> y(6 * pr.num_bodies);
  pr.apply_JT(lambda.data(), y.data());
  return y;
}

// Natural-map residual (MATH.md E.1): bilateral |v|, limits |lambda - max(0,
// lambda - v)|, contacts |lambda - Pi_K(lambda - (v + Gamma(v)))|, infinity norm.
double natural_map(const ConstraintProblem& pr, const std::vector<Real>& lambda, const std::vector<Real>& v) {
  double r = 0;
  for (int i = 0; i < pr.num_bilateral; ++i) r = std::max(r, std::abs(v[i]));
  for (int i = pr.num_bilateral; i < pr.contact_offset(); ++i)
    r = std::max(r, std::abs(lambda[i] - std::max(0.0, lambda[i] - v[i])));
  for (int k = 0; k < pr.num_contacts; ++k) {
    const int o = pr.contact_offset() + 3 * k;
    const double mu = pr.mu[k];
    double arg[3];
    const double shift = mu * std::hypot(v[o + 1], v[o + 2]);
    arg[0] = lambda[o] - (v[o] + shift);
    arg[1] = lambda[o + 1] - v[o + 1];
    arg[2] = lambda[o + 2] - v[o + 2];
    cone::project_primal(mu, arg);
    for (int j = 0; j < 3; ++j) r = std::max(r, std::abs(lambda[o + j] - arg[j]));
  }
  return r;
}

void check_vec(const std::vector<Real>& a, const Vec3& b, double tol) {
  REQUIRE(a.size() >= 3);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::abs(a[i] - b[i]) <= tol);
  }
}

void check_close(const std::vector<Real>& a, const std::vector<Real>& b, double tol) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(a[i] - b[i]) <= tol);
  }
}

std::string throw_message(const PgsOptions& o) {
  try {
    o.Validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Test law: de Saxce with a contact compliance c on every contact row.
class SoftDeSaxce final : public ContactModel {
 public:
  explicit SoftDeSaxce(double c) : c_(c) {}
  std::string name() const override { return "soft_desaxce"; }
  bool is_convex() const override { return false; }
  bool is_hard() const override { return false; }
  void project_primal(const Real* mu, int nc, Real* x) const override { law_.project_primal(mu, nc, x); }
  void project_dual(const Real* mu, int nc, Real* x) const override { law_.project_dual(mu, nc, x); }
  void velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const override {
    law_.velocity_shift(mu, nc, v, s);
  }
  void contact_compliance(const Real*, int nc, Real* R) const override { std::fill(R, R + 3 * nc, c_); }
  void bind_options(OptionSet&, const std::string&) override {}

 private:
  double c_;
  DeSaxceModel law_;
};

// Tight settings for comparisons: residual 1e-9 so a 1e-6 check does not sit
// on the stopping threshold.
PgsOptions tight_pgs() {
  PgsOptions o;
  o.tolerance = 1e-9;
  o.max_iterations = 100000;
  return o;
}

PadmmOptions tight_padmm() {
  PadmmOptions o;
  o.tol_primal = o.tol_dual = o.tol_compl = 1e-10;
  o.max_iterations = 5000;
  return o;
}

}  // namespace

TEST_CASE("pgs: separating contact keeps lambda = 0, v+ = v_f") {
  const Vec3 vf(0.5, 0.3, -0.2);
  const Result r = solve(particle(vf, 0.7));
  CHECK(r.stats.status == SolveStatus::Converged);
  CHECK(r.stats.iterations == 1);  // -(v + Gamma(v)) lies in the polar cone: one sweep, nothing moves
  check_vec(r.lambda, Vec3::Zero(), kAnswerTol);
  check_vec(r.v, vf, kAnswerTol);
}

TEST_CASE("pgs: sticking contact stops the particle") {
  const Result r = solve(particle(Vec3(-1, 0.1, 0), 1.0));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, -0.1, 0), kAnswerTol);
  check_vec(r.v, Vec3::Zero(), kAnswerTol);
}

TEST_CASE("pgs: sliding contact, friction opposes the slip at mu lambda_n") {
  for (bool frozen : {true, false}) {
    CAPTURE(frozen);
    PgsOptions opt;
    opt.desaxce_frozen = frozen;
    const Result r = solve(particle(Vec3(-1, 2, 0), 0.5), opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    check_vec(r.lambda, Vec3(1, -0.5, 0), kAnswerTol);
    check_vec(r.v, Vec3(0, 1.5, 0), kAnswerTol);
    // Slip along a diagonal: friction along -v_t/|v_t|.
    const Result d = solve(particle(Vec3(-2, 3, 4), 0.2), opt);
    CHECK(d.stats.status == SolveStatus::Converged);
    check_vec(d.lambda, Vec3(2, -0.4 * 0.6, -0.4 * 0.8), kAnswerTol);
    check_vec(d.v, Vec3(0, 3 - 0.24, 4 - 0.32), kAnswerTol);
  }
}

TEST_CASE("pgs: frictionless contact (mu = 0)") {
  const Result r = solve(particle(Vec3(-1, 2, 0.5), 0.0));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, 0, 0), kAnswerTol);
  check_vec(r.v, Vec3(0, 2, 0.5), kAnswerTol);
}

TEST_CASE("pgs: limit rows are complementary") {
  for (double vf : {-2.0, 1.0}) {
    ConstraintProblem pr;
    pr.resize(1, 0, 1, 0);
    pr.inv_mass[0] = 1;
    pr.inv_inertia_W[0] = Mat3::Identity();
    pr.rows[0] = row_at(Vec3::Zero(), Vec3::UnitZ());
    pr.v_free[0] = vf;
    const Result r = solve(pr);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(std::abs(r.lambda[0] - std::max(0.0, -vf)) <= kAnswerTol);
    CHECK(std::abs(r.v[0] - std::max(0.0, vf)) <= kAnswerTol);
  }
}

TEST_CASE("pgs: bilateral rows reach v+ = 0, with and without compliance") {
  // lambda = -v_f / D with D = 1 + R: one exact scalar update.
  for (double R : {0.0, 0.25}) {
    for (double vf : {-0.5, 0.7}) {
      ConstraintProblem pr;
      pr.resize(1, 1, 0, 0);
      pr.inv_mass[0] = 1;
      pr.inv_inertia_W[0] = Mat3::Identity();
      pr.rows[0] = row_at(Vec3::Zero(), Vec3::UnitZ());
      pr.v_free[0] = vf;
      pr.compliance[0] = R;
      const Result r = solve(pr);
      CHECK(r.stats.status == SolveStatus::Converged);
      CHECK(r.stats.iterations == 1);
      CHECK(std::abs(r.lambda[0] + vf / (1 + R)) <= 1e-12);
      CHECK(std::abs(r.v[0]) < 1e-12);
    }
  }
}

TEST_CASE("pgs: bilateral, limit and contact rows together satisfy the natural map") {
  const ConstraintProblem pr = box(2, Vec3(0.4, -0.3, -1), Vec3(0.2, 0.1, 0.5), 0.5, 1, 1);
  for (bool frozen : {true, false}) {
    CAPTURE(frozen);
    PgsOptions opt = tight_pgs();
    opt.desaxce_frozen = frozen;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    check_close(r.v, velocity(pr, r.lambda), 1e-10);  // returned v+ = D lambda + v_f
    CHECK(natural_map(pr, r.lambda, velocity(pr, r.lambda)) < 1e-6);
  }
}

TEST_CASE("pgs: a soft law's contact compliance is added to D") {
  // Sticking with compliance c: v+ = (1 + c) lambda + v_f = 0.
  const double c = 0.5;
  const SoftDeSaxce law(c);
  const Result r = solve(particle(Vec3(-1, 0.1, 0), 1.0), {}, {}, &law);
  CHECK(r.stats.status == SolveStatus::Converged);
  check_vec(r.lambda, Vec3(1, -0.1, 0) / (1 + c), kAnswerTol);
  check_vec(r.v, Vec3::Zero(), kAnswerTol);
}

TEST_CASE("pgs: agrees with PADMM on random multi-contact rigid-body problems") {
  // Both solvers are driven to tight tolerances and must satisfy the natural
  // map (computed here) to 1e-6 on every problem. Beyond that, only what is
  // unique is compared:
  // - lambda where D is nonsingular. With two or more corners of a rigid box
  //   the contact rows are redundant (3 nc rows against 6 dof per body, or a
  //   rotation about the line through two corners), so internal impulses in
  //   the null space of J^T are free and each solver may return another lambda.
  // - v+ and the total wrench J^T lambda = M (u+ - u_free) where the normal
  //   rows are independent (at most three non-collinear corners per body): the
  //   free internal impulses then have no wrench.
  // - neither with four coplanar corners on one body: the split of the normal
  //   impulse among the corners is indeterminate, and with the box turning
  //   while it slides each corner's friction points another way, so the
  //   friction wrench mu sum_k lambda_n,k d_k (and v+) depends on that split:
  //   the de Saxce problem has a continuum of solutions there.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0.1, 1.2);
  int compared_lambda = 0, compared_wrench = 0;
  for (int i = 0; i < 24; ++i) {
    CAPTURE(i);
    const double mu = i % 7 == 0 ? 0.0 : mu_dist(rng);
    ConstraintProblem pr;
    if (i % 4 == 3) {
      const Vec3 v[2] = {Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng) - 0.5)};
      const Vec3 w[2] = {Vec3(U(rng), U(rng), U(rng)), Vec3(U(rng), U(rng), U(rng))};
      pr = stack(2 + i % 3, 2 + (i / 4) % 3, v, w, mu);
    } else {
      pr = box(2 + i % 3, Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)), mu);
    }
    const Result a = solve(pr, tight_pgs());
    const Result b = solve_padmm(pr, tight_padmm());
    REQUIRE(a.stats.status == SolveStatus::Converged);
    REQUIRE(b.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, a.lambda, velocity(pr, a.lambda)) < 1e-6);
    CHECK(natural_map(pr, b.lambda, velocity(pr, b.lambda)) < 1e-6);

    const int nc = pr.num_contacts, nbody = pr.num_bodies;
    MatX JN = MatX::Zero(nc, 6 * nbody);  // normal rows of J
    for (int k = 0; k < nc; ++k) {
      const ConstraintRow& row = pr.rows[pr.contact_offset() + 3 * k];
      if (row.body_a >= 0) JN.block<1, 6>(k, 6 * row.body_a) += row.J_a.transpose();
      if (row.body_b >= 0) JN.block<1, 6>(k, 6 * row.body_b) += row.J_b.transpose();
    }
    if (Eigen::FullPivLU<MatX>(JN).rank() == nc) {
      check_close(a.v, b.v, 1e-5);
      check_close(wrench(pr, a.lambda), wrench(pr, b.lambda), 1e-5);
      ++compared_wrench;
    }
    MatX D;
    pr.dense_delassus(D);
    Eigen::SelfAdjointEigenSolver<MatX> eig(D, Eigen::EigenvaluesOnly);
    if (eig.eigenvalues()(0) > 1e-6) {
      check_close(a.lambda, b.lambda, 1e-5);
      ++compared_lambda;
    }
  }
  CHECK(compared_wrench >= 12);
  // Single contacts have a nonsingular D: lambda is compared there.
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    const ConstraintProblem pr =
        i % 2 ? particle(Vec3(U(rng), 2 * U(rng), 2 * U(rng)), mu_dist(rng))
              : box(1, Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)), mu_dist(rng));
    const Result a = solve(pr, tight_pgs());
    const Result b = solve_padmm(pr, tight_padmm());
    REQUIRE(a.stats.status == SolveStatus::Converged);
    REQUIRE(b.stats.status == SolveStatus::Converged);
    check_close(a.lambda, b.lambda, 1e-6);
    check_close(a.v, b.v, 1e-6);
    ++compared_lambda;
  }
  CHECK(compared_lambda >= 8);
  MESSAGE("compared lambda on " << compared_lambda << ", v+ and wrench on " << compared_wrench);
}

TEST_CASE("pgs: relaxation and the per-block de Saxce shift reach the same answer") {
  const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
  const Result ref = solve(pr, tight_pgs());
  REQUIRE(ref.stats.status == SolveStatus::Converged);
  PgsOptions under = tight_pgs(), over = tight_pgs(), live = tight_pgs();
  under.relaxation = 0.7;
  over.relaxation = 1.3;
  live.desaxce_frozen = false;
  for (const PgsOptions& o : {under, over, live}) {
    const Result r = solve(pr, o);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, r.lambda, velocity(pr, r.lambda)) < 1e-6);
    check_close(r.v, ref.v, 1e-6);
    // Guard that the option reaches the iteration.
    CHECK(r.stats.iterations != ref.stats.iterations);
  }
}

TEST_CASE("pgs: warm start from the solution converges in fewer sweeps") {
  for (const ConstraintProblem& pr :
       {particle(Vec3(-1, 2, 0), 0.5), box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4),
        box(4, Vec3(0.05, 0, -1), Vec3(0, 0, 0.3), 0.8, 1, 1)}) {
    const Result cold = solve(pr);
    REQUIRE(cold.stats.status == SolveStatus::Converged);
    REQUIRE(cold.stats.iterations > 1);
    WarmStart warm;
    warm.valid = true;
    warm.lambda = cold.lambda;
    warm.v = cold.v;
    const Result hot = solve(pr, {}, warm);
    CHECK(hot.stats.status == SolveStatus::Converged);
    CHECK(hot.stats.iterations < cold.stats.iterations);
    check_close(hot.v, cold.v, kAnswerTol);
    // Switched off, the warm start is ignored.
    PgsOptions off;
    off.warm_start = false;
    CHECK(solve(pr, off, warm).stats.iterations == cold.stats.iterations);
  }
}

TEST_CASE("pgs: statuses and history") {
  SUBCASE("one sweep cannot converge on a sliding contact") {
    PgsOptions opt;
    opt.max_iterations = 1;
    const Result r = solve(particle(Vec3(-1, 2, 0), 0.5), opt);
    CHECK(r.stats.status == SolveStatus::MaxIterations);
    CHECK(r.stats.iterations == 1);
    REQUIRE(r.stats.residual_history.size() == 1);
    CHECK(r.stats.residual_history[0] > 1e-3);
  }
  SUBCASE("history records the natural map of each check; r_* are E.1 at exit") {
    const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    const Result r = solve(pr);
    REQUIRE(r.stats.status == SolveStatus::Converged);
    REQUIRE(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations);
    CHECK(r.stats.residual_history.back() <= 1e-6);
    CHECK(r.stats.residual_history.front() > r.stats.residual_history.back());
    CHECK(std::abs(r.stats.residual_history.back() - natural_map(pr, r.lambda, r.v)) < 1e-12);
    CHECK(r.stats.r_primal <= 1e-12);  // every iterate lies in K
    CHECK(r.stats.r_dual <= 1e-5);
    CHECK(r.stats.r_compl <= 1e-5);
  }
  SUBCASE("check_interval: residuals every k sweeps and after the last") {
    const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    const Result every = solve(pr);
    PgsOptions opt;
    opt.check_interval = 4;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(r.stats.iterations % 4 == 0);
    CHECK(r.stats.iterations >= every.stats.iterations);
    CHECK(r.stats.iterations < every.stats.iterations + 4);
    CHECK(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations / 4);
    opt.max_iterations = 6;
    const Result capped = solve(pr, opt);
    CHECK(capped.stats.status == SolveStatus::MaxIterations);
    CHECK(capped.stats.residual_history.size() == 2);  // after sweeps 4 and 6
  }
  SUBCASE("NaN input is a numerical failure with zero output") {
    for (int interval : {1, 3}) {
      PgsOptions opt;
      opt.check_interval = interval;
      const Result r = solve(particle(Vec3(-1, std::numeric_limits<double>::quiet_NaN(), 0), 0.5), opt);
      CHECK(r.stats.status == SolveStatus::NumericalFailure);
      for (double x : r.lambda) CHECK(x == 0);
      for (double x : r.v) CHECK(x == 0);
    }
    ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    pr.inv_mass[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK(solve(pr).stats.status == SolveStatus::NumericalFailure);
  }
  SUBCASE("empty problem") {
    ConstraintProblem pr;
    pr.resize(0, 0, 0, 0);
    const Result r = solve(pr);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(r.stats.iterations == 0);
    CHECK(r.lambda.empty());
  }
  SUBCASE("a workspace of another solver is misuse") {
    PgsSolver pgs;
    PadmmSolver padmm;
    auto ws = padmm.make_workspace();
    std::vector<Real> lambda, v;
    SolveStats stats;
    CHECK_THROWS_AS(pgs.solve(particle(Vec3(-1, 0, 0), 0.5), desaxce(), {}, *ws, lambda, v, stats),
                    std::invalid_argument);
  }
}

TEST_CASE("pgs: a reused workspace keeps its buffers (no allocation once sized)") {
  // tests/test_batch.cpp owns the global operator new replacement of the test
  // binary, so allocation is checked here through the buffers themselves:
  // same data pointers and capacities after solves of the same and smaller size.
  PgsSolver solver;
  const DeSaxceModel law;
  auto ws = solver.make_workspace();
  std::vector<Real> lambda, v;
  SolveStats stats;
  stats.record_history = true;
  const ConstraintProblem big = box(4, Vec3(0.1, 0, -1), Vec3::Zero(), 0.5, 1, 1);
  const ConstraintProblem small = particle(Vec3(-1, 2, 0), 0.5);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  auto& w = dynamic_cast<PgsWorkspace&>(*ws);
  auto snapshot = [&]() {
    return std::vector<const void*>{w.minv_jt_a.data(), w.minv_jt_b.data(), w.u.data(),     w.R.data(),
                                    w.step.data(),      w.v.data(),         w.contact_R.data(), w.shift.data(),
                                    w.proj.data(),      w.scratch6.data(),  lambda.data(),  v.data(),
                                    stats.residual_history.data()};
  };
  auto capacities = [&]() {
    return std::vector<size_t>{w.minv_jt_a.capacity(), w.u.capacity(), w.R.capacity(), w.step.capacity(),
                               w.v.capacity(), w.shift.capacity(), w.proj.capacity()};
  };
  const auto before = snapshot();
  const auto cap = capacities();
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  CHECK(snapshot() == before);
  solver.solve(small, law, {}, *ws, lambda, v, stats);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  CHECK(snapshot() == before);
  CHECK(capacities() == cap);
  CHECK(stats.status == SolveStatus::Converged);
}

TEST_CASE("pgs: option validation names the field") {
  struct Bad {
    const char* field;
    void (*set)(PgsOptions&);
  };
  const Bad bad[] = {{"max_iterations", [](PgsOptions& o) { o.max_iterations = 0; }},
                     {"tolerance", [](PgsOptions& o) { o.tolerance = -1; }},
                     {"tolerance", [](PgsOptions& o) { o.tolerance = std::numeric_limits<double>::quiet_NaN(); }},
                     {"check_interval", [](PgsOptions& o) { o.check_interval = 0; }},
                     {"relaxation", [](PgsOptions& o) { o.relaxation = 0; }},
                     {"relaxation", [](PgsOptions& o) { o.relaxation = 2; }},
                     {"relaxation", [](PgsOptions& o) { o.relaxation = std::numeric_limits<double>::quiet_NaN(); }}};
  CHECK(throw_message(PgsOptions{}).empty());
  for (const Bad& b : bad) {
    CAPTURE(b.field);
    PgsOptions o;
    b.set(o);
    const std::string msg = throw_message(o);
    CHECK(msg.find(std::string("PgsOptions.") + b.field + " ") != std::string::npos);
  }
  // solve() validates too.
  PgsOptions o;
  o.relaxation = 2.5;
  CHECK_THROWS_AS(solve(particle(Vec3(-1, 0, 0), 0.5), o), std::invalid_argument);
}

TEST_CASE("pgs: every option is bound under the prefix") {
  PgsSolver solver;
  CHECK(solver.name() == "pgs");
  std::string why;
  CHECK(solver.accepts(desaxce(), &why));
  OptionSet set;
  solver.bind_options(set, "pgs.");
  for (const char* key :
       {"max_iterations", "tolerance", "check_interval", "relaxation", "warm_start", "desaxce_frozen"}) {
    CAPTURE(key);
    CHECK(set.has(std::string("pgs.") + key));
  }
  set.set("pgs.relaxation", "1.4");
  set.set("pgs.check_interval", "5");
  set.set_assignment("pgs.desaxce_frozen=off");
  CHECK(solver.options.relaxation == 1.4);
  CHECK(solver.options.check_interval == 5);
  CHECK_FALSE(solver.options.desaxce_frozen);
  CHECK_THROWS_AS(set.set("pgs.max_iterations", "0"), std::invalid_argument);
  CHECK_THROWS_AS(set.set("pgs.relaxation", "3"), std::invalid_argument);
}
