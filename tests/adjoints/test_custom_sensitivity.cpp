// User-defined sensitivity kinds (CustomSensitivity, core/sensitivity.hpp;
// SensitivityOptions::kind = Custom) through the dense reference and the
// paired adjoints:
// (a) a kind that reproduces `exact` through the interface (the law's own
//     exact relations) equals the built-in exact kind to 1e-14, for de
//     Saxce's law and the convex one, in LocalSensitivity and in every pairing
//     (convex_newton's Hessian pairing hands a custom kind to the reference);
// (b) a genuinely different relaxed kind, Signorini's normal complementarity
//     written with the Fischer-Burmeister function
//       phi(lambda_n, g) = lambda_n + g - sqrt(lambda_n^2 + g^2 + 2 rho) = 0
//     (<=> lambda_n, g > 0, lambda_n g = rho; g the law's normal gap), the
//     tangential rows exact by mode: its partials against central differences
//     of its own relations, its relaxed point by the damped Newton, and its
//     sensitivity against the built-in signorini's (the same relaxed map
//     written by other equations);
// (c) options and misuse.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "adjoints/local_relations.hpp"
#include "adjoints/local_sensitivity.hpp"
#include "adjoints/solve_adjoint.hpp"
#include "contact_models/ccp.hpp"
#include "contact_models/desaxce.hpp"
#include "sim/registry.hpp"
#include "solvers/convex_newton.hpp"
#include "solvers/nonsmooth_newton.hpp"
#include "solvers/padmm.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

// (a) exact, through the interface.
class ExactAgain final : public CustomSensitivity {
 public:
  std::string name() const override { return "exact_again"; }
  bool relaxed() const override { return false; }
  void contact_relations(const ContactModel& law, const Real* mu, int nc, const ContactMode* modes, Real rho,
                         const RelationScales& scales, const Real* lambda, const Real* sigma,
                         ContactRelationBlock* out) const override {
    law.contact_relations(SensitivityKind::Exact, mu, nc, modes, rho, scales, lambda, sigma, out);
  }
};

// (b) Signorini's normal relation by Fischer-Burmeister. The law gives the
// normal gap g and its partials (its exact normal row of a sticking contact)
// and the tangential rows (its exact rows in the contact's mode).
class FbSignorini final : public CustomSensitivity {
 public:
  std::string name() const override { return "fb_signorini"; }
  bool relaxed() const override { return true; }
  void contact_relations(const ContactModel& law, const Real* mu, int nc, const ContactMode* modes, Real rho,
                         const RelationScales& scales, const Real* lambda, const Real* sigma,
                         ContactRelationBlock* out) const override {
    const std::vector<ContactMode> sticking(nc, ContactMode::Sticking);
    std::vector<ContactRelationBlock> gap(nc);
    law.contact_relations(SensitivityKind::Exact, mu, nc, sticking.data(), rho, scales, lambda, sigma, gap.data());
    law.contact_relations(SensitivityKind::Exact, mu, nc, modes, rho, scales, lambda, sigma, out);
    for (int k = 0; k < nc; ++k) {
      const Real l = lambda[3 * k], g = gap[k].residual[0];
      const Real q = std::sqrt(l * l + g * g + 2 * rho);
      // phi = l + g - q = 2 (l g - rho)/(l + g + q), the second form without cancellation;
      // dphi/dl = 1 - l/q = (g^2 + 2 rho)/(q (q + l)), dphi/dg = (l^2 + 2 rho)/(q (q + g)).
      const Real dl = (g * g + 2 * rho) / (q * (q + l)), dg = (l * l + 2 * rho) / (q * (q + g));
      ContactRelationBlock& o = out[k];
      o.residual[0] = 2 * (l * g - rho) / (l + g + q);
      o.C_lambda.row(0).setZero();
      o.C_lambda(0, 0) = dl;
      o.C_sigma.row(0) = dg * gap[k].C_sigma.row(0);
      o.C_mu[0] = dg * gap[k].C_mu[0];
      o.scale[0] = 2 * rho / (std::abs(l) + std::abs(g) + q);  // |phi|/scale ~ |l g - rho|/rho
    }
  }
};

std::shared_ptr<const CustomSensitivity> exact_again() { return std::make_shared<ExactAgain>(); }
std::shared_ptr<const CustomSensitivity> fb_signorini() { return std::make_shared<FbSignorini>(); }

SensitivityOptions custom_options(std::shared_ptr<const CustomSensitivity> kind, double rho = 1e-4) {
  SensitivityOptions o;
  o.kind = SensitivityKind::Custom;
  o.custom = std::move(kind);
  o.rho = rho;
  return o;
}

SensitivityOptions built_in(SensitivityKind kind, double rho = 1e-4) {
  SensitivityOptions o;
  o.kind = kind;
  o.rho = rho;
  return o;
}

double inf_norm(const MatX& x) { return x.size() ? x.lpNorm<Eigen::Infinity>() : 0.0; }

PadmmOptions tight_padmm() {
  PadmmOptions o;
  o.tol_primal = o.tol_dual = o.tol_compl = 1e-14;
  o.max_iterations = 100000;
  return o;
}

ConstraintProblem compliant(ConstraintProblem pr, double c = 1e-2) {
  std::fill(pr.compliance.begin(), pr.compliance.end(), c);
  return pr;
}

struct Case {
  std::string name;
  ConstraintProblem pr;
};

// Boxes with every row and mode (as test_solve_adjoint.cpp).
std::vector<Case> boxes() {
  return {{"mixed", compliant(box(4, Vec3(-0.2, -0.5, 0), Vec3(1.7, 0.5, 0.7), 0.5))},
          {"railed", compliant(box(4, Vec3(-0.2, -0.5, 0), Vec3(1.7, 0.5, 0.7), 0.5, 1, 1))},
          {"sticking", compliant(box(4, Vec3(0.01, 0.0, -0.3), Vec3(0.3, 0, 0), 0.8))}};
}

VecX solve_lambda(const ConstraintProblem& pr, const Solver& solver, const ContactModel& law) {
  const Result r = solve_once(solver, pr, law);
  REQUIRE(r.stats.status == SolveStatus::Converged);
  return Eigen::Map<const VecX>(r.lambda.data(), pr.num_rows());
}

// d(lambda, sigma)/d(b, mu) of a linearised map, column by column.
MatX jacobian(const LocalSensitivity& ls, int m, int nc) {
  MatX J(2 * m, m + nc);
  VecX dl, ds;
  for (int j = 0; j < m + nc; ++j) {
    const VecX db = j < m ? VecX(VecX::Unit(m, j)) : VecX(VecX::Zero(m));
    const VecX dmu = j < m ? VecX(VecX::Zero(nc)) : VecX(VecX::Unit(nc, j - m));
    ls.tangent(db, nullptr, &dmu, dl, ds);
    J.col(j) << dl, ds;
  }
  return J;
}

struct Cotangents {
  VecX b_bar, mu_bar;
};

Cotangents run(SolveAdjoint& adjoint, const ConstraintProblem& pr, const ContactModel& law, const VecX& lambda,
               const SensitivityOptions& options) {
  VecX u_bar(pr.twist_size());
  for (int i = 0; i < u_bar.size(); ++i) u_bar[i] = 0.3 + 0.1 * i * (i % 2 ? -1 : 1);
  VecX g(pr.twist_size()), lambda_bar(pr.num_rows());
  pr.apply_Minv(u_bar.data(), g.data());
  pr.apply_J(g.data(), lambda_bar.data());
  adjoint.linearise(pr, law, lambda, options);
  Cotangents c;
  adjoint.vjp(u_bar, lambda_bar, c.b_bar, c.mu_bar);
  return c;
}

double rel(const VecX& a, const VecX& b) {
  const double s = std::max({a.lpNorm<Eigen::Infinity>(), b.lpNorm<Eigen::Infinity>(), 1e-300});
  return (a - b).lpNorm<Eigen::Infinity>() / s;
}

}  // namespace

// ---------------------------------------------------------------- (a)

TEST_CASE("custom sensitivity: exact through the interface equals the built-in exact kind") {
  CcpOptions co;
  co.compliance = 1e-3;
  const CcpModel ccp(co);
  const PadmmSolver padmm(tight_padmm());
  for (const Case& c : boxes()) {
    CAPTURE(c.name);
    struct Law {
      const char* name;
      const ContactModel* law;
    };
    for (const Law& L : {Law{"desaxce", &desaxce()}, Law{"ccp", &ccp}}) {
      CAPTURE(std::string(L.name));
      const VecX lambda = solve_lambda(c.pr, padmm, *L.law);
      const LocalProblem lp = local_problem_of(c.pr, *L.law, true);
      LocalSensitivity ref, got;
      ref.linearise(lp, lambda, built_in(SensitivityKind::Exact));
      got.linearise(lp, lambda, custom_options(exact_again()));
      CHECK(got.report().requested == SensitivityKind::Custom);
      CHECK(got.report().used == SensitivityKind::Custom);
      const int m = lp.num_rows(), nc = lp.num_contacts;
      const MatX Jr = jacobian(ref, m, nc), Jg = jacobian(got, m, nc);
      CHECK(inf_norm(Jr) > 0.1);  // guard
      CHECK(inf_norm(Jg - Jr) <= 1e-14 * inf_norm(Jr));
      VecX bb_r, bb_g, mb_r, mb_g;
      const VecX lbar = VecX::LinSpaced(m, -1, 1), sbar = VecX::LinSpaced(m, 2, -0.5);
      ref.vjp(lbar, sbar, bb_r, nullptr, &mb_r);
      got.vjp(lbar, sbar, bb_g, nullptr, &mb_g);
      CHECK(rel(bb_g, bb_r) <= 1e-14);
      CHECK(rel(mb_g, mb_r) <= 1e-14);
    }
  }
}

TEST_CASE("custom sensitivity: the paired adjoints honour a custom kind") {
  const PadmmSolver dense_padmm(tight_padmm());
  PadmmOptions mf = tight_padmm();
  mf.delassus = PadmmOptions::kMatrixFree;
  const PadmmSolver matrix_free_padmm(mf);
  NonsmoothNewtonSolver newton;
  for (const Case& c : boxes()) {
    CAPTURE(c.name);
    const VecX lambda = solve_lambda(c.pr, dense_padmm, desaxce());
    for (const Solver* solver : {static_cast<const Solver*>(&dense_padmm),
                                 static_cast<const Solver*>(&matrix_free_padmm), static_cast<const Solver*>(&newton)}) {
      auto exact = make_solve_adjoint(*solver, AdjointSolve::Paired);
      auto custom = make_solve_adjoint(*solver, AdjointSolve::Paired);
      const Cotangents e = run(*exact, c.pr, desaxce(), lambda, built_in(SensitivityKind::Exact));
      const Cotangents g = run(*custom, c.pr, desaxce(), lambda, custom_options(exact_again()));
      CAPTURE(std::string(custom->name()));
      CHECK(custom->stats().method == exact->stats().method);
      CHECK_FALSE(custom->stats().fell_back_to_reference);
      CHECK(custom->report().used == SensitivityKind::Custom);
      CHECK(e.b_bar.lpNorm<Eigen::Infinity>() > 1e-3);  // guard
      CHECK(rel(g.b_bar, e.b_bar) <= 1e-14);
      CHECK(rel(g.mu_bar, e.mu_bar) <= 1e-14);
      // The relaxed custom kind through the same pairing and the reference.
      auto relaxed = make_solve_adjoint(*solver, AdjointSolve::Paired);
      auto reference = make_reference_solve_adjoint();
      const Cotangents r = run(*relaxed, c.pr, desaxce(), lambda, custom_options(fb_signorini()));
      const Cotangents rr = run(*reference, c.pr, desaxce(), lambda, custom_options(fb_signorini()));
      CHECK(relaxed->report().used == SensitivityKind::Custom);
      CHECK(reference->report().used == SensitivityKind::Custom);
      CHECK(rel(r.b_bar, rr.b_bar) < 1e-8);
      CHECK((r.mu_bar - rr.mu_bar).lpNorm<Eigen::Infinity>() <= 1e-8 * (1 + rr.mu_bar.lpNorm<Eigen::Infinity>()));
    }
  }
  // convex_newton's Hessian pairing answers the exact kind only: a custom kind goes to the reference.
  CcpOptions co;
  co.compliance = 1e-3;
  const CcpModel ccp(co);
  ConvexNewtonOptions cn;
  cn.tolerance = 1e-14;
  cn.max_iterations = 200;
  const ConvexNewtonSolver solver(cn);
  const ConstraintProblem pr = boxes()[0].pr;
  const VecX lambda = solve_lambda(pr, solver, ccp);
  auto paired = make_solve_adjoint(solver, AdjointSolve::Paired);
  auto reference = make_reference_solve_adjoint();
  const Cotangents g = run(*paired, pr, ccp, lambda, custom_options(exact_again()));
  const Cotangents r = run(*reference, pr, ccp, lambda, built_in(SensitivityKind::Exact));
  CHECK(paired->stats().fell_back_to_reference);
  CHECK(paired->report().used == SensitivityKind::Custom);
  CHECK(rel(g.b_bar, r.b_bar) <= 1e-14);
}

// ---------------------------------------------------------------- (b)

TEST_CASE("custom sensitivity: the Fischer-Burmeister Signorini kind's partials match differences of its relations") {
  std::mt19937 gen(17);
  std::normal_distribution<double> normal(0, 1);
  CcpModel ccp;
  const FbSignorini kind;
  const int nc = 3;
  const double eps = 1e-6, rho = 0.05;
  const VecX mu = Eigen::Vector3d(0.4, 0.0, 0.9);
  for (const ContactModel* law : {static_cast<const ContactModel*>(&desaxce()), static_cast<const ContactModel*>(&ccp)}) {
    CAPTURE(law->name());
    for (int trial = 0; trial < 3; ++trial) {
      const std::vector<ContactMode> modes = {ContactMode(trial), ContactMode((trial + 1) % 3),
                                              ContactMode((trial + 2) % 3)};
      VecX l(3 * nc), s(3 * nc);
      for (int i = 0; i < 3 * nc; ++i) {
        l[i] = normal(gen);
        s[i] = normal(gen);
      }
      for (int k = 0; k < nc; ++k) l[3 * k] = 0.1 + std::abs(l[3 * k]);  // away from phi's 0/0 form (l, g < 0, l g = rho)
      const RelationScales sc;
      auto eval = [&](const VecX& mu_, const VecX& l_, const VecX& s_) {
        std::vector<ContactRelationBlock> out(nc);
        kind.contact_relations(*law, mu_.data(), nc, modes.data(), rho, sc, l_.data(), s_.data(), out.data());
        return out;
      };
      const auto B = eval(mu, l, s);
      double err = 0, size = 0;
      for (int k = 0; k < nc; ++k) {
        for (int j = 0; j < 3; ++j) {
          VecX lp = l, lm = l, sp = s, sm = s;
          lp[3 * k + j] += eps;
          lm[3 * k + j] -= eps;
          sp[3 * k + j] += eps;
          sm[3 * k + j] -= eps;
          const Vec3 fl = (eval(mu, lp, s)[k].residual - eval(mu, lm, s)[k].residual) / (2 * eps);
          const Vec3 fs = (eval(mu, l, sp)[k].residual - eval(mu, l, sm)[k].residual) / (2 * eps);
          err = std::max({err, (fl - B[k].C_lambda.col(j)).lpNorm<Eigen::Infinity>(),
                          (fs - B[k].C_sigma.col(j)).lpNorm<Eigen::Infinity>()});
          size = std::max({size, B[k].C_lambda.col(j).lpNorm<Eigen::Infinity>()});
        }
        VecX mp = mu, mm = mu;
        mp[k] += eps;
        mm[k] -= eps;
        const Vec3 fm = (eval(mp, l, s)[k].residual - eval(mm, l, s)[k].residual) / (2 * eps);
        err = std::max(err, (fm - B[k].C_mu).lpNorm<Eigen::Infinity>());
      }
      MESSAGE(law->name() << ", modes rotated " << trial << ": |partials - FD| = " << err);
      CHECK(err <= 1e-8);
      CHECK(size >= 0.1);  // guard
    }
  }
}

TEST_CASE("custom sensitivity: the Fischer-Burmeister Signorini kind reaches its relaxed point and the signorini map") {
  CcpOptions co;
  co.compliance = 1e-3;
  const CcpModel ccp(co);
  const PadmmSolver padmm(tight_padmm());
  for (const Case& c : boxes()) {
    CAPTURE(c.name);
    for (const ContactModel* law : {static_cast<const ContactModel*>(&desaxce()), static_cast<const ContactModel*>(&ccp)}) {
      CAPTURE(law->name());
      const VecX lambda = solve_lambda(c.pr, padmm, *law);
      const LocalProblem lp = local_problem_of(c.pr, *law, true);
      for (double rho : {1e-2, 1e-4}) {
        CAPTURE(rho);
        LocalSensitivity sig, fb;
        sig.linearise(lp, lambda, built_in(SensitivityKind::Signorini, rho));
        fb.linearise(lp, lambda, custom_options(fb_signorini(), rho));
        REQUIRE(sig.report().used == SensitivityKind::Signorini);
        REQUIRE(fb.report().used == SensitivityKind::Custom);
        CHECK(fb.report().newton_converged);
        CHECK(fb.report().cone_check_passed);
        CHECK(fb.report().newton_residual <= 1e-12);
        // The same relaxed point (lambda_n g = rho with the tangential law by mode) ...
        CHECK(inf_norm(fb.lambda() - sig.lambda()) <= 1e-9 * inf_norm(sig.lambda()));
        // ... and so the same derivative, written by other equations.
        const int m = lp.num_rows(), nc = lp.num_contacts;
        const MatX Js = jacobian(sig, m, nc), Jf = jacobian(fb, m, nc);
        CHECK(inf_norm(Jf - Js) <= 1e-7 * inf_norm(Js));
        // Not the exact one (guard: the relaxation is visible at this rho).
        LocalSensitivity ex;
        ex.linearise(lp, lambda, built_in(SensitivityKind::Exact));
        if (rho == 1e-2) CHECK(inf_norm(jacobian(ex, m, nc) - Jf) > 1e-4);
      }
    }
  }
}

// ---------------------------------------------------------------- (c)

TEST_CASE("custom sensitivity: options and misuse") {
  SensitivityOptions o;
  o.kind = SensitivityKind::Custom;
  CHECK_THROWS_WITH_AS(o.Validate(), "SensitivityOptions.custom must be set when kind is custom (got null)",
                       std::invalid_argument);
  o.custom = fb_signorini();
  CHECK_NOTHROW(o.Validate());
  CHECK(is_relaxed(o));
  CHECK(kind_name(o) == "fb_signorini");
  CHECK(std::string(to_string(o.kind)) == "custom");
  CHECK_FALSE(is_relaxed(SensitivityKind::Custom));
  o.custom = exact_again();
  CHECK_FALSE(is_relaxed(o));
  o.kind = SensitivityKind::CentralPath;  // the object is ignored for the built-in kinds
  CHECK(is_relaxed(o));
  CHECK(kind_name(o) == "central_path");
  CHECK_THROWS_AS(parse_sensitivity_kind("custom"), std::invalid_argument);  // names are the registry's (sim/)
  // A hand-made call without the object.
  const LocalProblem lp = from_constraint_problem(particle(Vec3(-1, 0.5, 0), 0.5));
  local_relations::Modes modes;
  modes.contact = {ContactMode::Sliding};
  local_relations::Linearisation L;
  CHECK_THROWS_AS(local_relations::evaluate(SensitivityKind::Custom, lp, modes, 0.1, local_relations::Scales{},
                                            VecX::Zero(3), VecX::Zero(3), L),
                  std::invalid_argument);
  // A law without a linearisation has no local problem.
  const TestLaw other("other", false, true, 0, 0);
  LocalProblem bad = lp;
  bad.law = &other;
  CHECK_THROWS_WITH_AS(bad.check(),
                       "LocalProblem: contact law 'other' has no linearisation (ContactModel::has_linearisation)",
                       std::invalid_argument);
}
