// Local sensitivities of the convex law (ccp's plain cone complementarity,
// LocalProblem::law = a CcpModel) on an isotropic particle, A = a I, where the
// maps are closed form: the hard solution is lambda = Pi_K(-b/a) (Moreau) and
// the central-path point is soc_smoothing::friction(mu, rho/a, -b/a).
#include <doctest/doctest.h>

#include "adjoints/local_sensitivity.hpp"
#include "contact_models/ccp.hpp"
#include "contact_models/cone.hpp"
#include "contact_models/soc_smoothing.hpp"

using namespace contactlab;

namespace {

constexpr double kA = 2.0, kMu = 0.5;

const CcpModel& convex_law() {
  static const CcpModel law;
  return law;
}

LocalProblem particle(const Vec3& b, double mu = kMu) {
  LocalProblem p;
  p.A = kA * MatX::Identity(3, 3);
  p.b = b;
  p.mu = VecX::Constant(1, mu);
  p.num_contacts = 1;
  p.law = &convex_law();
  return p;
}

Vec3 hard(const Vec3& b, double mu = kMu) {
  Vec3 x = -b / kA;
  cone::project_primal(mu, x.data());
  return x;
}

Vec3 relaxed(const Vec3& b, double rho, double mu = kMu) {
  const Vec3 x = -b / kA;
  Vec3 y, s;
  soc_smoothing::friction(mu, rho / kA, x.data(), y.data(), s.data());
  return y;
}

template <class Map>
Mat3 fd_jacobian(const Vec3& b, Map map, double eps) {
  Mat3 J;
  for (int j = 0; j < 3; ++j) {
    Vec3 e = Vec3::Zero();
    e[j] = eps;
    J.col(j) = (map(b + e) - map(b - e)) / (2 * eps);
  }
  return J;
}

Mat3 tangent_jacobian(const LocalSensitivity& s) {
  Mat3 J;
  for (int j = 0; j < 3; ++j) {
    VecX dl, ds;
    s.tangent(VecX::Unit(3, j), nullptr, nullptr, dl, ds);
    J.col(j) = dl;
  }
  return J;
}

}  // namespace

TEST_CASE("local_sensitivity (convex law): exact per mode against the closed-form hard map") {
  struct Case {
    const char* name;
    Vec3 b;
    ContactMode mode;
  };
  const Case cases[] = {{"sticking", Vec3(-3, 0.5, 0), ContactMode::Sticking},
                        {"sliding", Vec3(-1, 2, 0.5), ContactMode::Sliding},
                        {"separating", Vec3(1, 0.3, 0), ContactMode::Separating}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const Vec3 lambda = hard(c.b);
    LocalSensitivity s;
    SensitivityOptions o;
    s.linearise(particle(c.b), lambda, o);
    REQUIRE(s.report().contact_modes[0] == c.mode);
    const Mat3 fd = fd_jacobian(c.b, [](const Vec3& b) { return hard(b); }, 1e-6);
    // Tolerance: a piecewise smooth map evaluated >= 0.2 from its boundaries:
    // truncation ~eps^2, rounding ~1e-16/eps = 1e-10.
    CHECK((tangent_jacobian(s) - fd).cwiseAbs().maxCoeff() < 1e-8);
    // d/dmu too.
    VecX dl, ds;
    const VecX dmu = VecX::Ones(1);
    s.tangent(VecX::Zero(3), nullptr, &dmu, dl, ds);
    const Vec3 fd_mu = (hard(c.b, kMu + 1e-6) - hard(c.b, kMu - 1e-6)) / 2e-6;
    CHECK((Vec3(dl) - fd_mu).cwiseAbs().maxCoeff() < 1e-8);
  }
  // The sliding contact glides (sigma_n = mu |sigma_t| > 0), unlike de Saxce's.
  const Vec3 b(-1, 2, 0.5);
  const Vec3 sigma = kA * hard(b) + b;
  CHECK(sigma[0] == doctest::Approx(kMu * sigma.tail<2>().norm()).epsilon(1e-12));
  CHECK(sigma[0] > 0.1);
}

TEST_CASE("local_sensitivity (convex law): central path against the closed-form relaxed map, and -> exact") {
  const Vec3 points[] = {Vec3(-3, 0.5, 0), Vec3(-1, 2, 0.5), Vec3(1, 0.3, 0)};
  for (const Vec3& b : points) {
    CAPTURE(b.transpose());
    double previous = 1e300;
    for (double rho : {1e-2, 1e-4, 1e-6}) {
      CAPTURE(rho);
      LocalSensitivity s;
      SensitivityOptions o;
      o.kind = SensitivityKind::CentralPath;
      o.rho = rho;
      s.linearise(particle(b), hard(b), o);
      REQUIRE_FALSE(s.report().fell_back_to_exact);
      CHECK((s.lambda() - relaxed(b, rho)).norm() < 1e-10);  // the relaxed point itself
      const Mat3 fd = fd_jacobian(b, [rho](const Vec3& bb) { return relaxed(bb, rho); }, 1e-7);
      // Smooth on the scale sqrt(rho) >= 1e-3: truncation eps^2/rho ~ 1e-8.
      CHECK((tangent_jacobian(s) - fd).cwiseAbs().maxCoeff() < 1e-6);
      // Tends to the exact sensitivity as rho falls.
      LocalSensitivity e;
      e.linearise(particle(b), hard(b), SensitivityOptions{});
      const double error = (tangent_jacobian(s) - tangent_jacobian(e)).cwiseAbs().maxCoeff();
      CHECK(error < previous);
      CHECK(error > 0);  // guard: relaxed, not exact
      previous = error;
    }
    CHECK(previous < 1e-4);
  }
}

TEST_CASE("local_sensitivity (convex law): forward and reverse modes are transposes (all kinds)") {
  const Vec3 b(-1, 2, 0.5);
  for (SensitivityKind kind : {SensitivityKind::Exact, SensitivityKind::Signorini, SensitivityKind::CentralPath}) {
    CAPTURE(static_cast<int>(kind));
    LocalSensitivity s;
    SensitivityOptions o;
    o.kind = kind;
    o.rho = 1e-3;
    s.linearise(particle(b), hard(b), o);
    const VecX db = Vec3(0.3, -0.7, 0.2), dmu = VecX::Constant(1, 0.4);
    const VecX lbar = Vec3(1.1, 0.2, -0.5), sbar = Vec3(-0.3, 0.8, 0.6);
    VecX dl, ds, bbar, mubar;
    s.tangent(db, nullptr, &dmu, dl, ds);
    s.vjp(lbar, sbar, bbar, nullptr, &mubar);
    const double lhs = lbar.dot(dl) + sbar.dot(ds), rhs = bbar.dot(db) + mubar.dot(dmu);
    // One factorisation of a 3x3 system: ~cond * eps.
    CHECK(lhs == doctest::Approx(rhs).epsilon(1e-12));
    CHECK(std::abs(lhs) > 1e-3);  // guard: a non-trivial pairing
  }
}
