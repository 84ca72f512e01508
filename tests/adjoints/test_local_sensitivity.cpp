// LocalSensitivity (adjoints/local_sensitivity.hpp), its relations
// (adjoints/local_relations.hpp) and relaxed point (adjoints/local_relaxed_point.hpp):
// (a) each relation's partials against finite differences of its residual;
// (b) each kind against central differences of the map it linearises: exact
//     vs the hard map (closed form on the unit particle, tight PADMM on a box
//     on four corners), signorini and central_path vs their relaxed maps
//     (F_rho = 0 solved to 1e-12 at b +- eps; the central point checked
//     against PADMM under the central_path law); mu included;
// (c) forward/reverse dot-product tests with dA and dmu, singular A, the
//     Fig. 3 sweep of Kim et al. (jumps, continuity, rates as rho -> 0), the
//     cone check / continuation / fallback paths, options.
// Measured numbers: build/tests/contactlab_tests -tc="local_sensitivity:*" -s
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "adjoints/local_relations.hpp"
#include "adjoints/local_sensitivity.hpp"
#include "contact_models/central_path.hpp"
#include "contact_models/soc_smoothing.hpp"
#include "solvers/padmm.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

constexpr SensitivityKind kKinds[3] = {SensitivityKind::Exact, SensitivityKind::Signorini,
                                       SensitivityKind::CentralPath};

double inf_norm(const MatX& x) { return x.size() ? x.lpNorm<Eigen::Infinity>() : 0.0; }

// doctest prints a const char* as a pointer: names as strings.
std::string name_of(SensitivityKind kind) { return to_string(kind); }

// ---------------------------------------------------------------- problems

// The unit particle (tests/support particle()) in local form: A = I.
LocalProblem unit_particle(const Vec3& b, double mu) { return from_constraint_problem(particle(b, mu)); }

// de Saxce's answer on the unit particle, closed form: sticking lambda = -b
// when |b_t| <= -mu b_n; separating 0 when b_n >= 0; else sliding with
// lambda_n = -b_n against the slip b_t (sigma_t keeps b_t's direction).
Vec3 particle_lambda(const Vec3& b, double mu) {
  const double t = b.tail<2>().norm();
  if (t <= -mu * b[0]) return -b;
  if (b[0] >= 0) return Vec3::Zero();
  Vec3 l;
  l[0] = -b[0];
  l.tail<2>() = -mu * l[0] * b.tail<2>() / t;
  return l;
}

// PADMM run to its round-off floor (natural map ~1e-14 on the boxes below).
PadmmOptions tight_padmm() {
  PadmmOptions o;
  o.tol_primal = o.tol_dual = o.tol_compl = 1e-14;
  o.max_iterations = 100000;
  return o;
}

VecX padmm_lambda(const ConstraintProblem& pr, const ContactModel* law = nullptr,
                  const PadmmOptions& o = tight_padmm()) {
  const Result r = FreshSolve<PadmmSolver>{false}(pr, o, {}, law);
  REQUIRE(r.stats.status == SolveStatus::Converged);
  return Eigen::Map<const VecX>(r.lambda.data(), pr.num_rows());
}

// Box (tests/support box(), mu = 0.5) with compliance R = 1e-2 on every row,
// so A is regular and lambda unique. Scenes chosen with every mode >= 0.1
// (relative) from its boundaries.
ConstraintProblem compliant_box(const Vec3& v, const Vec3& w, int bilateral = 0, int limits = 0) {
  ConstraintProblem pr = box(4, v, w, 0.5, bilateral, limits);
  std::fill(pr.compliance.begin(), pr.compliance.end(), 1e-2);
  return pr;
}
// Corners: separating, sliding, sticking, separating.
ConstraintProblem mixed_box() { return compliant_box(Vec3(-0.2, -0.5, 0), Vec3(1.7, 0.5, 0.7)); }
// A rail (bilateral) and a stop (limit, active); corners: separating, separating, sliding, separating.
ConstraintProblem railed_box() { return compliant_box(Vec3(-0.2, -0.5, 0), Vec3(1.7, 0.5, 0.7), 1, 1); }
// The same with the stop separating.
ConstraintProblem railed_box_free_stop() { return compliant_box(Vec3(-0.2, 0.5, 0), Vec3(1.7, 0.5, 0.7), 1, 1); }

// ---------------------------------------------------------------- Jacobians

// Columns: d/db_i (i < m), then d/dmu_k.
struct Jacobian {
  MatX lambda, sigma;  // (m x (m + nc))
};

Jacobian tangent_jacobian(const LocalSensitivity& ls, int m, int nc) {
  Jacobian J{MatX(m, m + nc), MatX(m, m + nc)};
  VecX dl, ds;
  for (int j = 0; j < m + nc; ++j) {
    const VecX db = j < m ? VecX(VecX::Unit(m, j)) : VecX(VecX::Zero(m));
    const VecX dmu = j < m ? VecX(VecX::Zero(nc)) : VecX(VecX::Unit(nc, j - m));
    ls.tangent(db, nullptr, &dmu, dl, ds);
    J.lambda.col(j) = dl;
    J.sigma.col(j) = ds;
  }
  return J;
}

// A map (b, mu) -> (lambda, sigma).
using PointMap = std::function<std::pair<VecX, VecX>(const VecX& b, const VecX& mu)>;

Jacobian central_differences(const PointMap& f, const VecX& b, const VecX& mu, double eps) {
  const int m = static_cast<int>(b.size()), nc = static_cast<int>(mu.size());
  Jacobian J{MatX(m, m + nc), MatX(m, m + nc)};
  for (int j = 0; j < m + nc; ++j) {
    VecX bp = b, bm = b, mp = mu, mm = mu;
    if (j < m) {
      bp[j] += eps;
      bm[j] -= eps;
    } else {
      mp[j - m] += eps;
      mm[j - m] -= eps;
    }
    const auto p = f(bp, mp), q = f(bm, mm);
    J.lambda.col(j) = (p.first - q.first) / (2 * eps);
    J.sigma.col(j) = (p.second - q.second) / (2 * eps);
  }
  return J;
}

// The map a relaxed kind linearises: its relaxed point at (b, mu), Newton
// started from the hard solution lambda_h of the unperturbed problem (the
// modes it holds; the point does not depend on the start).
PointMap relaxed_map(const LocalProblem& lp, const VecX& lambda_h, const SensitivityOptions& o) {
  return [lp, lambda_h, o](const VecX& b, const VecX& mu) {
    LocalProblem q = lp;
    q.b = b;
    q.mu = mu;
    LocalSensitivity ls;
    ls.linearise(q, lambda_h, o);
    REQUIRE(ls.report().used == o.kind);
    REQUIRE(ls.report().newton_residual <= 1e-12);
    return std::make_pair(ls.lambda(), ls.sigma());
  };
}

// Max |analytic - FD| over both Jacobians, and the size of the analytic one.
struct Comparison {
  double error, size;
};
Comparison compare(const Jacobian& a, const Jacobian& fd) {
  return {std::max(inf_norm(a.lambda - fd.lambda), inf_norm(a.sigma - fd.sigma)),
          std::max(inf_norm(a.lambda), inf_norm(a.sigma))};
}

SensitivityOptions options_for(SensitivityKind kind, double rho) {
  SensitivityOptions o;
  o.kind = kind;
  o.rho = rho;
  return o;
}

// ---------------------------------------------------------------- Fig. 3

// Kim et al. Fig. 3: unit particle, mu = 0.5, b = (b_N, 1, 0): de Saxce
// sticks for b_N <= -2, slides for -2 < b_N < 0, separates for b_N >= 0.
// Returns (dlambda_n, dlambda_t1, dsigma_n, dsigma_t1) / db_N.
Eigen::Vector4d fig3_sensitivity(double b_n, SensitivityKind kind, double rho, SensitivityReport* report = nullptr) {
  const Vec3 b(b_n, 1, 0);
  LocalSensitivity ls;
  ls.linearise(unit_particle(b, 0.5), particle_lambda(b, 0.5), options_for(kind, rho));
  if (report) *report = ls.report();
  VecX dl, ds;
  ls.tangent(VecX::Unit(3, 0), nullptr, nullptr, dl, ds);
  return Eigen::Vector4d(dl[0], dl[1], ds[0], ds[1]);
}

}  // namespace

// ---------------------------------------------------------------- (a) relations

TEST_CASE("local_sensitivity: each relation's partials match central differences of its residual") {
  // Random (lambda, sigma), every kind, every mode (one contact per mode),
  // mu = 0 included, a bilateral row and an active and a separating limit.
  std::mt19937 gen(7);
  std::normal_distribution<double> normal(0, 1);
  LocalProblem pr;
  pr.num_bilateral = 1;
  pr.num_limit = 2;
  pr.num_contacts = 3;
  const int m = pr.num_rows();
  pr.A = MatX::Identity(m, m);
  pr.b = VecX::Zero(m);
  pr.mu = Eigen::Vector3d(0.3, 0.8, 0.0);
  local_relations::Modes modes;
  modes.limit_active = {true, false};
  const double eps = 1e-6;
  for (int trial = 0; trial < 3; ++trial) {
    modes.contact = {ContactMode(trial), ContactMode((trial + 1) % 3), ContactMode((trial + 2) % 3)};
    VecX l(m), s(m);
    for (int i = 0; i < m; ++i) {
      l[i] = normal(gen);
      s[i] = normal(gen);
    }
    for (SensitivityKind kind : kKinds) {
      CAPTURE(trial);
      const std::string kind_name = name_of(kind);
      CAPTURE(kind_name);
      const local_relations::Scales sc;
      local_relations::Linearisation L, P, Q;
      local_relations::evaluate(kind, pr, modes, 0.1, sc, l, s, L);
      double err = 0, size = 0;
      // Column j of dC/d(lambda, sigma, mu) against central differences of C.
      auto check_column = [&](const VecX& analytic, const VecX& lp, const VecX& lm, const VecX& sp, const VecX& sm,
                              const LocalProblem& pp, const LocalProblem& pm) {
        local_relations::evaluate(kind, pp, modes, 0.1, sc, lp, sp, P);
        local_relations::evaluate(kind, pm, modes, 0.1, sc, lm, sm, Q);
        err = std::max(err, inf_norm((P.residual - Q.residual) / (2 * eps) - analytic));
        size = std::max(size, inf_norm(analytic));
      };
      for (int j = 0; j < m; ++j) {
        const VecX e = eps * VecX::Unit(m, j);
        check_column(L.C_lambda.col(j), l + e, l - e, s, s, pr, pr);
        check_column(L.C_sigma.col(j), l, l, s + e, s - e, pr, pr);
      }
      for (int k = 0; k < pr.num_contacts; ++k) {
        LocalProblem pp = pr, pm = pr;
        pp.mu[k] += eps;
        pm.mu[k] -= eps;
        check_column(L.C_mu.col(k), l, l, s, s, pp, pm);
      }
      // The residuals are quadratic or |sigma_t|-smooth at O(1) points:
      // truncation ~eps^2 ~1e-12, round-off ~1e-16/eps = 1e-10.
      MESSAGE(kind_name << ", modes rotated " << trial << ": |partials - FD| = " << err);
      CHECK(err <= 1e-8);
      CHECK(size >= 0.5);  // guard: not all zero
    }
  }
}

// ---------------------------------------------------------------- (b) against the maps

TEST_CASE("local_sensitivity: exact on the unit particle matches the closed-form hard map in each mode") {
  struct Case {
    const char* name;
    Vec3 b;
    ContactMode mode;
  };
  const double mu = 0.5;
  const Case cases[] = {{"sticking", Vec3(-3, 1, 0), ContactMode::Sticking},
                        {"sliding (diagonal slip)", Vec3(-1, 0.6, 0.8), ContactMode::Sliding},
                        {"separating", Vec3(0.5, 0.3, -0.2), ContactMode::Separating}};
  for (const Case& c : cases) {
    const std::string case_name = c.name;
    CAPTURE(case_name);
    const LocalProblem lp = unit_particle(c.b, mu);
    LocalSensitivity ls;
    ls.linearise(lp, particle_lambda(c.b, mu), SensitivityOptions{});
    REQUIRE(ls.report().contact_modes[0] == c.mode);
    const PointMap hard = [&](const VecX& b, const VecX& m) {
      const Vec3 l = particle_lambda(b, m[0]);
      return std::make_pair(VecX(l), VecX(l + b));
    };
    const Jacobian a = tangent_jacobian(ls, 3, 1);
    const Jacobian fd = central_differences(hard, lp.b, lp.mu, 1e-6);
    const Comparison e = compare(a, fd);
    MESSAGE(std::string(c.name) << ": |exact - FD| = " << e.error << " (|J| = " << e.size << ")");
    // Piecewise rational map, b >= 0.5 from every mode boundary: truncation
    // ~eps^2 = 1e-12, round-off ~1e-16/eps = 1e-10.
    CHECK(e.error <= 1e-8);
    // Guards: the FD Jacobian is not the one of another mode. Sticking -I,
    // separating 0, and sliding with the slip direction d frozen (no P_d
    // term: dlambda_t = -mu d dlambda_n).
    const MatX stick = -MatX::Identity(3, 3), separate = MatX::Zero(3, 3);
    MatX frozen = MatX::Zero(3, 3);
    frozen(0, 0) = -1;
    frozen.block<2, 1>(1, 0) = mu * c.b.tail<2>().normalized();
    const MatX J = fd.lambda.leftCols(3);
    if (c.mode != ContactMode::Sticking) CHECK(inf_norm(J - stick) >= 0.4);
    if (c.mode != ContactMode::Separating) CHECK(inf_norm(J - separate) >= 0.4);
    if (c.mode == ContactMode::Sliding) CHECK(inf_norm(J - frozen) >= 0.2);
    // dlambda/dmu: -lambda_n d when sliding (nonzero), 0 otherwise.
    CHECK((c.mode == ContactMode::Sliding) == (inf_norm(fd.lambda.col(3)) > 0.5));
  }
}

TEST_CASE("local_sensitivity: exact on boxes with every row and mode matches central differences of tight PADMM") {
  struct Scene {
    const char* name;
    ConstraintProblem pr;
  };
  const Scene scenes[] = {
      {"mixed box", mixed_box()}, {"railed box", railed_box()}, {"railed box, free stop", railed_box_free_stop()}};
  int modes_seen[3] = {0, 0, 0}, limits_active = 0, limits_free = 0;
  for (const Scene& s : scenes) {
    const std::string scene = s.name;
    CAPTURE(scene);
    const LocalProblem lp = from_constraint_problem(s.pr);
    const VecX lambda = padmm_lambda(s.pr);
    LocalSensitivity ls;
    ls.linearise(lp, lambda, SensitivityOptions{});
    CHECK(!ls.report().singular);
    for (ContactMode mode : ls.report().contact_modes) ++modes_seen[int(mode)];
    for (bool a : ls.report().limit_active) (a ? limits_active : limits_free)++;
    const PointMap hard = [&](const VecX& b, const VecX& mu) {
      ConstraintProblem q = s.pr;
      q.v_free.assign(b.data(), b.data() + b.size());
      q.mu.assign(mu.data(), mu.data() + mu.size());
      const VecX l = padmm_lambda(q);
      return std::make_pair(l, VecX(lp.A * l + b));
    };
    const Jacobian a = tangent_jacobian(ls, lp.num_rows(), lp.num_contacts);
    const Jacobian fd = central_differences(hard, lp.b, lp.mu, 1e-5);
    const Comparison e = compare(a, fd);
    MESSAGE(std::string(s.name) << ": |exact - FD of PADMM| = " << e.error << " (|J| = " << e.size << ")");
    // PADMM's answers are exact to ~1e-14, so FD noise ~1e-14/eps = 1e-9;
    // truncation ~eps^2 |J''| ~1e-10 (measured <= 1.9e-10).
    CHECK(e.error <= 1e-7 * std::max(1.0, e.size));
    CHECK(e.size >= 0.5);
  }
  CHECK(modes_seen[0] > 0);  // every mode and both limit states were exercised
  CHECK(modes_seen[1] > 0);
  CHECK(modes_seen[2] > 0);
  CHECK(limits_active > 0);
  CHECK(limits_free > 0);
}

TEST_CASE("local_sensitivity: signorini and central_path match central differences of their relaxed maps") {
  struct Scene {
    const char* name;
    LocalProblem lp;
    VecX lambda;
  };
  std::vector<Scene> scenes;
  for (const Vec3& b : {Vec3(-3, 1, 0), Vec3(-1, 0.6, 0.8), Vec3(0.5, 0.3, -0.2)})
    scenes.push_back({"unit particle", unit_particle(b, 0.5), VecX(particle_lambda(b, 0.5))});
  scenes.push_back({"mixed box", from_constraint_problem(mixed_box()), padmm_lambda(mixed_box())});
  scenes.push_back({"railed box", from_constraint_problem(railed_box()), padmm_lambda(railed_box())});
  for (SensitivityKind kind : {SensitivityKind::Signorini, SensitivityKind::CentralPath}) {
    for (double rho : {1e-2, 1e-4}) {
      for (const Scene& s : scenes) {
        const std::string kind_name = name_of(kind);
        CAPTURE(kind_name);
        CAPTURE(rho);
        const std::string scene = s.name;
        CAPTURE(scene);
        const SensitivityOptions o = options_for(kind, rho);
        LocalSensitivity ls;
        ls.linearise(s.lp, s.lambda, o);
        const SensitivityReport& r = ls.report();
        REQUIRE(r.used == kind);
        CHECK(r.newton_converged);
        CHECK(r.cone_check_passed);
        CHECK(r.newton_residual <= 1e-12);
        const Jacobian a = tangent_jacobian(ls, s.lp.num_rows(), s.lp.num_contacts);
        const Jacobian fd = central_differences(relaxed_map(s.lp, s.lambda, o), s.lp.b, s.lp.mu, 1e-5);
        const Comparison e = compare(a, fd);
        MESSAGE(name_of(kind) << " rho " << rho << ", " << std::string(s.name)
                              << ": |relaxed - FD of relaxed map| = " << e.error << " (|J| = " << e.size << ", "
                              << r.newton_iterations << " Newton iterations)");
        // The relaxed map is smooth on the scale sqrt(rho) >= 1e-2 around
        // these points: truncation ~eps^2/rho ~1e-8 at rho = 1e-4; Newton
        // solves to round-off, noise ~1e-15/eps = 1e-10 (measured <= 1.8e-9).
        CHECK(e.error <= 2e-7 * std::max(1.0, e.size));
        // Guard: the relaxed Jacobian is not the exact one (it really is relaxed).
        LocalSensitivity exact;
        exact.linearise(s.lp, s.lambda, SensitivityOptions{});
        const Comparison d = compare(a, tangent_jacobian(exact, s.lp.num_rows(), s.lp.num_contacts));
        CHECK(d.error >= 10 * e.error);
      }
    }
  }
}

TEST_CASE(
    "local_sensitivity: the central-path point is the central_path law's solution (PADMM) and satisfies the relation") {
  // Independent solver: PADMM under CentralPathModel, penalty pinned to 1 so
  // its fixed point is the unit-step relation (contact_models/central_path.hpp).
  const ConstraintProblem pr = mixed_box();
  const LocalProblem lp = from_constraint_problem(pr);
  const VecX hard = padmm_lambda(pr);
  PadmmOptions cp = tight_padmm();
  cp.tol_compl = std::numeric_limits<double>::infinity();  // lambda^T sigma^ = rho at the point
  cp.balanced_penalty = false;
  cp.rho = 1;
  for (double rho : {1e-2, 1e-4, 1e-6}) {
    CAPTURE(rho);
    LocalSensitivity ls;
    ls.linearise(lp, hard, options_for(SensitivityKind::CentralPath, rho));
    REQUIRE(ls.report().used == SensitivityKind::CentralPath);
    CentralPathOptions co;
    co.rho = rho;
    const CentralPathModel law(co);
    const VecX other = padmm_lambda(pr, &law, cp);
    MESSAGE("central point vs PADMM (central_path law), rho " << rho << ": " << inf_norm(ls.lambda() - other));
    // Both to ~1e-14 of the same well-conditioned point (measured <= 2.1e-14).
    CHECK(inf_norm(ls.lambda() - other) <= 1e-10);
    CHECK(inf_norm(ls.sigma() - (lp.A * ls.lambda() + lp.b)) <= 1e-14);
    for (int k = 0; k < lp.num_contacts; ++k) {
      const Vec3 l = ls.lambda().segment<3>(3 * k), v = ls.sigma().segment<3>(3 * k);
      const Vec3 sh(v[0] + 0.5 * v.tail<2>().norm(), v[1], v[2]);
      Vec3 w;
      soc_smoothing::scaled_jordan(0.5, l.data(), sh.data(), w.data());
      CHECK(std::abs(w[0] - rho) <= 1e-12 * (rho + l.norm() * sh.norm()));
      CHECK(w.tail<2>().norm() <= 1e-12 * (rho + l.norm() * sh.norm()));
      CHECK(0.5 * l[0] > l.tail<2>().norm());  // S lambda ∈ int Q
      CHECK(v[0] > 0);                         // S^-1 sigma^ ∈ int Q
    }
  }
}

// ---------------------------------------------------------------- (c) structure

TEST_CASE("local_sensitivity: forward and reverse agree (dot-product test with db, dA, dmu) for every kind") {
  std::mt19937 gen(11);
  std::normal_distribution<double> normal(0, 1);
  struct Scene {
    const char* name;
    ConstraintProblem pr;
  };
  const Scene scenes[] = {{"mixed box", mixed_box()},
                          {"railed box", railed_box()},
                          {"sticking box, no compliance (singular A)", box(4, Vec3(0.05, 0, -1), Vec3::Zero(), 0.5)}};
  for (const Scene& s : scenes) {
    const LocalProblem lp = from_constraint_problem(s.pr);
    const VecX lambda = padmm_lambda(s.pr);
    const int m = lp.num_rows(), nc = lp.num_contacts;
    for (SensitivityKind kind : {kKinds[0], kKinds[1], kKinds[2], SensitivityKind::FrozenW}) {
      for (double rho : {1e-2, 1e-6}) {
        const std::string scene = s.name;
        CAPTURE(scene);
        const std::string kind_name = name_of(kind);
        CAPTURE(kind_name);
        CAPTURE(rho);
        LocalSensitivity ls;
        ls.linearise(lp, lambda, options_for(kind, rho));
        VecX db(m), lbar(m), sbar(m), dmu(nc);
        MatX dA(m, m);
        for (int i = 0; i < m; ++i) {
          db[i] = normal(gen);
          lbar[i] = normal(gen);
          sbar[i] = normal(gen);
          for (int j = 0; j < m; ++j) dA(i, j) = normal(gen);
        }
        for (int k = 0; k < nc; ++k) dmu[k] = normal(gen);
        VecX dl, ds, bbar, mubar;
        MatX Abar;
        ls.tangent(db, &dA, &dmu, dl, ds);
        ls.vjp(lbar, sbar, bbar, &Abar, &mubar);
        const double lhs = lbar.dot(dl) + sbar.dot(ds);
        const double terms[3] = {bbar.dot(db), (Abar.cwiseProduct(dA)).sum(), mubar.dot(dmu)};
        const double scale = lbar.cwiseAbs().dot(dl.cwiseAbs()) + sbar.cwiseAbs().dot(ds.cwiseAbs());
        // Both sides use one factorisation of K: they differ by round-off,
        // <= ~cond(K) eps relative; cond(K) reaches ~1e4-1e6 at rho = 1e-6
        // (measured <= 5.1e-14).
        CHECK(std::abs(lhs - (terms[0] + terms[1] + terms[2])) <= 1e-11 * scale);
        // Guards: every cotangent contributes (mu only through a sliding
        // contact's law, or through every contact on the central path).
        bool slides = false;
        for (ContactMode mode : ls.report().contact_modes) slides = slides || mode == ContactMode::Sliding;
        CHECK(std::abs(terms[0]) >= 1e-3);
        CHECK(std::abs(terms[1]) >= 1e-3);
        CHECK((std::abs(terms[2]) >= 1e-3) == (slides || kind == SensitivityKind::CentralPath));
        MESSAGE(std::string(s.name)
                << ", " << name_of(kind) << " rho " << rho
                << ": dot test |diff| / scale = " << std::abs(lhs - (terms[0] + terms[1] + terms[2])) / scale
                << (ls.report().singular ? " (singular K, rank " + std::to_string(ls.report().rank) + ")" : ""));
      }
    }
  }
}

TEST_CASE("local_sensitivity: singular A (box sticking on four corners): least squares gives the unique parts") {
  // A = J M^-1 J^T has rank 6 for 12 rows: lambda is not unique, but the
  // velocities sigma and the body impulse J^T lambda are. Perturbations
  // db = J du (a change of the free twist) keep the problem solvable.
  const ConstraintProblem pr = box(4, Vec3(0.05, 0, -1), Vec3::Zero(), 0.5);
  const LocalProblem lp = from_constraint_problem(pr);
  const int m = lp.num_rows();
  MatX J(m, 6);  // body_a is the world: row r of J is rows[r].J_b
  for (int r = 0; r < m; ++r) J.row(r) = pr.rows[r].J_b.transpose();
  LocalSensitivity ls;
  ls.linearise(lp, padmm_lambda(pr), SensitivityOptions{});
  CHECK(ls.report().singular);
  CHECK(ls.report().rank == 6);
  for (ContactMode mode : ls.report().contact_modes) CHECK(mode == ContactMode::Sticking);
  const double eps = 1e-5;
  for (int j = 0; j < 6; ++j) {
    CAPTURE(j);
    const VecX db = J.col(j);
    VecX dl, ds;
    ls.tangent(db, nullptr, nullptr, dl, ds);
    ConstraintProblem p = pr, q = pr;
    for (int r = 0; r < m; ++r) {
      p.v_free[r] += eps * db[r];
      q.v_free[r] -= eps * db[r];
    }
    const VecX lp_ = padmm_lambda(p), lq = padmm_lambda(q);
    const VecX fd_impulse = J.transpose() * (lp_ - lq) / (2 * eps);
    const VecX fd_sigma = (lp.A * (lp_ - lq) + 2 * eps * db) / (2 * eps);
    // PADMM lands on different lambda in the null space, but J^T lambda and
    // sigma are unique: FD noise ~1e-14/eps (measured <= 4.2e-11).
    MESSAGE("singular box, db = J e_" << j << ": |J^T dlambda - FD| = " << inf_norm(J.transpose() * dl - fd_impulse)
                                      << ", |dsigma - FD| = " << inf_norm(ds - fd_sigma));
    CHECK(inf_norm(J.transpose() * dl - fd_impulse) <= 1e-7);
    CHECK(inf_norm(ds - fd_sigma) <= 1e-7);
    CHECK(inf_norm(J.transpose() * dl) >= 0.05);  // guard (measured >= 0.087)
    // Minimum norm: dl has no component in null(J^T) (it lies in range(J)).
    const VecX in_range = J * J.colPivHouseholderQr().solve(dl);
    CHECK(inf_norm(dl - in_range) <= 1e-12 * std::max(1.0, inf_norm(dl)));
  }
}

// ---------------------------------------------------------------- Fig. 3

TEST_CASE("local_sensitivity: Kim et al. Fig. 3: exact jumps at the mode boundaries, central_path is continuous") {
  const double h = 0.01;
  // Exact: one-sided values on either side of b_N = -2 (stick | slide) and 0 (slide | separate).
  const Eigen::Vector4d stick(-1, 0, 0, 0), slide(-1, 0.5, 0, 0.5), separate(0, 0, 1, 0);
  CHECK(inf_norm(fig3_sensitivity(-2 - h, SensitivityKind::Exact, 1) - stick) <= 1e-14);
  CHECK(inf_norm(fig3_sensitivity(-2 + h, SensitivityKind::Exact, 1) - slide) <= 1e-14);
  CHECK(inf_norm(fig3_sensitivity(-h, SensitivityKind::Exact, 1) - slide) <= 1e-14);
  CHECK(inf_norm(fig3_sensitivity(h, SensitivityKind::Exact, 1) - separate) <= 1e-14);
  // Largest change between neighbouring samples of b_N ∈ [-3, 1].
  auto max_step = [&](SensitivityKind kind, double rho) {
    double jump = 0;
    Eigen::Vector4d prev = fig3_sensitivity(-3, kind, rho);
    for (int i = 1; i <= 400; ++i) {
      SensitivityReport r;
      const Eigen::Vector4d s = fig3_sensitivity(-3 + h * i, kind, rho, &r);
      REQUIRE(!r.fell_back_to_exact);
      jump = std::max(jump, inf_norm(s - prev));
      prev = s;
    }
    return jump;
  };
  const double exact_jump = max_step(SensitivityKind::Exact, 1);
  CHECK(exact_jump >= 0.99);  // dlambda_n/db_N and dsigma_n/db_N jump by 1 at b_N = 0
  for (double rho : {1e-1, 1e-2}) {
    const double jump = max_step(SensitivityKind::CentralPath, rho);
    MESSAGE("central_path rho " << rho << ": largest change between samples " << h << " apart = " << jump
                                << " (exact: " << exact_jump << ")");
    // A unit jump spread over the smoothing width ~sqrt(rho): per sample
    // <= h / sqrt(rho) (measured 0.011 and 0.035).
    CHECK(jump <= h / std::sqrt(rho));
  }
  // On a boundary the relaxed sensitivity tends to the mean of the two
  // one-sided exact ones, at O(sqrt(rho)) (degenerate point).
  double e[2];
  int j = 0;
  for (double rho : {1e-4, 1e-8}) {
    const Eigen::Vector4d at0 = fig3_sensitivity(0, SensitivityKind::CentralPath, rho);
    e[j++] = inf_norm(at0 - (slide + separate) / 2);
  }
  MESSAGE("central_path at b_N = 0: |s - mean of one-sided exact| = " << e[0] << " (rho 1e-4), " << e[1]
                                                                      << " (rho 1e-8)");
  CHECK(std::log10(e[0] / e[1]) / 4 == doctest::Approx(0.5).epsilon(0.05));
}

TEST_CASE("local_sensitivity: Kim et al. Fig. 3: away from the boundaries the relaxed kinds tend to exact as O(rho)") {
  struct Point {
    const char* name;
    double b_n;
  };
  const Point points[] = {{"sticking", -3}, {"sliding", -1}, {"separating", 0.5}};
  const double rhos[3] = {1e-2, 1e-4, 1e-6};
  for (SensitivityKind kind : {SensitivityKind::CentralPath, SensitivityKind::Signorini}) {
    for (const Point& p : points) {
      const Eigen::Vector4d exact = fig3_sensitivity(p.b_n, SensitivityKind::Exact, 1);
      double err[3];
      for (int j = 0; j < 3; ++j) err[j] = inf_norm(fig3_sensitivity(p.b_n, kind, rhos[j]) - exact);
      const double slope = std::log10(err[0] / err[2]) / 4;
      MESSAGE(name_of(kind) << ", " << std::string(p.name) << " (b_N = " << p.b_n << "): |relaxed - exact| = " << err[0]
                            << ", " << err[1] << ", " << err[2] << " at rho 1e-2, 1e-4, 1e-6; log-log slope " << slope);
      const std::string kind_name = name_of(kind);
      CAPTURE(kind_name);
      const std::string point = p.name;
      CAPTURE(point);
      for (int j = 0; j < 3; ++j) CHECK(err[j] <= 5 * rhos[j]);  // measured <= 3.6 rho
      CHECK(err[2] > 0);                                         // guard: relaxed, not exact
      CHECK(slope == doctest::Approx(1).epsilon(0.03));          // O(rho) in every mode, sticking included
    }
  }
}

// ---------------------------------------------------------------- Newton, cone check, fallback

TEST_CASE("local_sensitivity: cone check, continuation and fallback to exact") {
  SUBCASE("a root outside the cones is refused and continuation finds the central one") {
    // One limit row, A = 1, b = 1, started from the bad guess lambda = -5:
    // Newton on lambda (lambda + 1) = rho converges to the root with lambda,
    // sigma < 0; the cone check refuses it; continuation from the smoothed
    // natural-map point reaches lambda ~ rho, sigma ~ 1.
    LocalProblem lp;
    lp.num_limit = 1;
    lp.A = MatX::Ones(1, 1);
    lp.b = VecX::Ones(1);
    lp.mu.resize(0);
    SensitivityOptions o = options_for(SensitivityKind::CentralPath, 1e-3);
    LocalSensitivity ls;
    ls.linearise(lp, VecX::Constant(1, -5), o);
    const SensitivityReport& r = ls.report();
    CHECK(r.continuation_used);
    CHECK(r.continuation_reason.find("cone check") != std::string::npos);
    CHECK(r.cone_check_passed);
    CHECK(!r.fell_back_to_exact);
    CHECK(ls.lambda()[0] == doctest::Approx(1e-3 / ls.sigma()[0]).epsilon(1e-12));
    CHECK(ls.sigma()[0] > 0.99);
    // Without continuation the same start falls back to exact (dlambda = 0, separating).
    o.continuation_stages = 0;
    ls.linearise(lp, VecX::Constant(1, -5), o);
    CHECK(ls.report().fell_back_to_exact);
    CHECK(ls.report().used == SensitivityKind::Exact);
    CHECK(ls.report().fallback_reason.find("cone check") != std::string::npos);
    VecX dl, ds;
    ls.tangent(VecX::Ones(1), nullptr, nullptr, dl, ds);
    CHECK(dl[0] == 0);
    CHECK(ds[0] == 1);
  }
  SUBCASE("a degenerate start (lambda = sigma_n = 0) is recovered by continuation") {
    SensitivityReport r;
    fig3_sensitivity(0, SensitivityKind::CentralPath, 1e-2, &r);
    CHECK(r.continuation_used);
    CHECK(r.newton_converged);
    CHECK(r.cone_check_passed);
    CHECK(!r.fell_back_to_exact);
  }
  SUBCASE("signorini: a relaxed sliding point that would reverse the slip does not exist; exact is used") {
    // b_N = -1.98: hard sliding with |sigma_t| = 0.01; lambda_n sigma_n = 0.1
    // raises lambda_n by ~0.05 and mu lambda_n would exceed |b_t| = 1.
    SensitivityReport r;
    const Eigen::Vector4d s = fig3_sensitivity(-1.98, SensitivityKind::Signorini, 0.1, &r);
    CHECK(r.contact_modes[0] == ContactMode::Sliding);
    CHECK(r.fell_back_to_exact);
    CHECK(!r.fallback_reason.empty());
    CHECK(inf_norm(s - fig3_sensitivity(-1.98, SensitivityKind::Exact, 1)) == 0);
  }
  SUBCASE("too few Newton iterations: fallback with the reason") {
    SensitivityOptions o = options_for(SensitivityKind::CentralPath, 1e-2);
    o.newton_iterations = 1;
    LocalSensitivity ls;
    ls.linearise(unit_particle(Vec3(-1, 1, 0), 0.5), particle_lambda(Vec3(-1, 1, 0), 0.5), o);
    CHECK(ls.report().fell_back_to_exact);
    CHECK(ls.report().fallback_reason.find("did not converge") != std::string::npos);
  }
}

TEST_CASE("local_sensitivity: the normal offset delta shifts the relaxed map to b_N + delta") {
  // sigma = A lambda + b + delta E_N: the relaxed point and its sensitivities
  // at b equal those without offset at b + delta e_N (hard start taken there).
  const double delta = 0.3;
  for (SensitivityKind kind : {SensitivityKind::Signorini, SensitivityKind::CentralPath}) {
    const std::string kind_name = name_of(kind);
    CAPTURE(kind_name);
    const Vec3 b(-0.6, 1, 0), shifted = b + Vec3(delta, 0, 0);
    SensitivityOptions o = options_for(kind, 1e-2);
    LocalSensitivity with, without;
    o.delta = delta;
    with.linearise(unit_particle(b, 0.5), particle_lambda(shifted, 0.5), o);
    o.delta = 0;
    without.linearise(unit_particle(shifted, 0.5), particle_lambda(shifted, 0.5), o);
    const Jacobian a = tangent_jacobian(with, 3, 1), c = tangent_jacobian(without, 3, 1);
    CHECK(inf_norm(with.lambda() - without.lambda()) <= 1e-13);
    CHECK(inf_norm(a.lambda - c.lambda) <= 1e-12);
    CHECK(inf_norm(a.sigma - c.sigma) <= 1e-12);
    // Guard: the offset matters.
    LocalSensitivity plain;
    plain.linearise(unit_particle(b, 0.5), particle_lambda(b, 0.5), o);
    CHECK(inf_norm(plain.lambda() - with.lambda()) >= 0.1);
  }
}

// ---------------------------------------------------------------- interface

TEST_CASE("local_sensitivity: frozen_w is exact without sliding and Ostrich's frozen-weight friction with it") {
  // frozen_w holds a sliding contact's friction weight W = |sigma_t|/(mu
  // lambda_n) fixed (Ostrich's adjoint): its tangent map satisfies
  // d sigma_t + W d lambda_t = 0 on that contact's rows and equals exact's
  // wherever nothing slides. (Its partials leave out dW by design, so the
  // relations' finite-difference test above does not apply to it.)
  const ConstraintProblem sticking = compliant_box(Vec3(0.01, 0.0, -0.3), Vec3(0.3, 0, 0));
  const ConstraintProblem mixed = mixed_box();  // one corner slides
  auto jacobian = [](const ConstraintProblem& pr, SensitivityKind kind, LocalSensitivity& ls) {
    const LocalProblem lp = from_constraint_problem(pr);
    ls.linearise(lp, padmm_lambda(pr), options_for(kind, 1e-6));
    return tangent_jacobian(ls, lp.num_rows(), lp.num_contacts);
  };
  LocalSensitivity a, b;
  const Jacobian je = jacobian(sticking, SensitivityKind::Exact, a), jf = jacobian(sticking, SensitivityKind::FrozenW, b);
  for (ContactMode mode : a.report().contact_modes) REQUIRE(mode != ContactMode::Sliding);
  CHECK(inf_norm(je.lambda - jf.lambda) <= 1e-12 * inf_norm(je.lambda));
  CHECK(inf_norm(je.sigma - jf.sigma) <= 1e-12 * inf_norm(je.sigma));
  const Jacobian me = jacobian(mixed, SensitivityKind::Exact, a), mf = jacobian(mixed, SensitivityKind::FrozenW, b);
  int sliding = -1;
  for (size_t k = 0; k < b.report().contact_modes.size(); ++k)
    if (b.report().contact_modes[k] == ContactMode::Sliding) sliding = static_cast<int>(k);
  REQUIRE(sliding >= 0);
  const int t = mixed.contact_offset() + 3 * sliding + 1;
  const VecX& l = b.lambda();
  const VecX& sg = b.sigma();
  const double W = sg.segment<2>(t).norm() / (mixed.mu[sliding] * l[t - 1]);
  // The columns d/db (those d/dmu carry W's explicit mu: -(W/mu) lambda_t dmu).
  const int m = mixed.num_rows();
  const MatX relation = mf.sigma.block(t, 0, 2, m) + W * mf.lambda.block(t, 0, 2, m);
  CHECK(inf_norm(relation) <= 1e-10 * inf_norm(mf.sigma));
  CHECK(inf_norm(me.lambda - mf.lambda) >= 1e-2 * inf_norm(me.lambda));  // guard: an approximation
}

TEST_CASE("local_sensitivity: options, kind names and misuse") {
  check_validation_names_fields<SensitivityOptions>(
      "SensitivityOptions", {{"rho", [](SensitivityOptions& o) { o.rho = 0; }},
                             {"delta", [](SensitivityOptions& o) { o.delta = std::nan(""); }},
                             {"newton_iterations", [](SensitivityOptions& o) { o.newton_iterations = 0; }},
                             {"newton_tolerance", [](SensitivityOptions& o) { o.newton_tolerance = 0; }},
                             {"continuation_stages", [](SensitivityOptions& o) { o.continuation_stages = -1; }},
                             {"continuation_factor", [](SensitivityOptions& o) { o.continuation_factor = 1; }},
                             {"slip_threshold", [](SensitivityOptions& o) { o.slip_threshold = -1; }},
                             {"singular_tolerance", [](SensitivityOptions& o) { o.singular_tolerance = 1; }}});
  for (SensitivityKind kind : kKinds) CHECK(parse_sensitivity_kind(to_string(kind)) == kind);
  CHECK(parse_sensitivity_kind("frozen_w") == SensitivityKind::FrozenW);
  CHECK_THROWS_AS(parse_sensitivity_kind("central-path"), std::invalid_argument);

  LocalSensitivity ls;
  VecX dl, ds, bbar;
  CHECK_THROWS_AS(ls.tangent(VecX::Zero(3), nullptr, nullptr, dl, ds), std::logic_error);
  CHECK_THROWS_AS(ls.vjp(VecX::Zero(3), VecX::Zero(3), bbar, nullptr, nullptr), std::logic_error);
  const LocalProblem lp = unit_particle(Vec3(-1, 1, 0), 0.5);
  CHECK_THROWS_AS(ls.linearise(lp, VecX::Zero(2), SensitivityOptions{}), std::invalid_argument);
  LocalProblem bad = lp;
  bad.mu[0] = -1;
  CHECK_THROWS_AS(ls.linearise(bad, VecX::Zero(3), SensitivityOptions{}), std::invalid_argument);
  ls.linearise(lp, particle_lambda(lp.b, 0.5), SensitivityOptions{});
  CHECK_THROWS_AS(ls.tangent(VecX::Zero(2), nullptr, nullptr, dl, ds), std::invalid_argument);
  // An empty problem is a valid (empty) map.
  LocalProblem empty;
  empty.A.resize(0, 0);
  empty.b.resize(0);
  empty.mu.resize(0);
  ls.linearise(empty, VecX(), SensitivityOptions{});
  ls.tangent(VecX(), nullptr, nullptr, dl, ds);
  CHECK(dl.size() == 0);
}
