// The laws' linearisation (ContactModel::contact_relations and friends;
// contact_models/cone_relations.hpp), through each built-in law's interface:
// (a) every kind's partials against central differences of the law's own
//     residual, with several contacts in one call (separating, sticking,
//     sliding; mu = 0 and > 0), for de Saxce's laws and the convex one;
// (b) the modes of closed-form hard solutions of both variants;
// (c) the cone check and the continuation start (which satisfies its
//     relation exactly inside the cones);
// (d) capabilities: has_linearisation, forward_sensitivity, misuse.
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/ccp.hpp"
#include "contact_models/central_path.hpp"
#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "contact_models/fischer_burmeister.hpp"
#include "core/sensitivity.hpp"
#include "support/problems.hpp"

using namespace contactlab;

namespace {

// The kinds whose partials are derivatives of their residual (frozen_w holds
// its weight W fixed: checked on its own below).
constexpr SensitivityKind kKinds[3] = {SensitivityKind::Exact, SensitivityKind::Signorini,
                                       SensitivityKind::CentralPath};

struct Law {
  std::string name;
  std::shared_ptr<const ContactModel> law;
  bool desaxce;  // shifted velocity sigma^ = sigma + Gamma(sigma)
};

std::vector<Law> laws() {
  return {{"desaxce", std::make_shared<DeSaxceModel>(), true},
          {"fischer_burmeister", std::make_shared<FischerBurmeisterModel>(), true},
          {"central_path", std::make_shared<CentralPathModel>(), true},
          {"ccp", std::make_shared<CcpModel>(), false}};
}

using Blocks = std::vector<ContactRelationBlock>;

Blocks relations(const ContactModel& law, SensitivityKind kind, const VecX& mu, const std::vector<ContactMode>& modes,
                 double rho, const VecX& lambda, const VecX& sigma) {
  const int nc = static_cast<int>(mu.size());
  Blocks out(nc);
  RelationScales s;
  s.velocity = 2;
  s.impulse = 3;
  law.contact_relations(kind, mu.data(), nc, modes.data(), rho, s, lambda.data(), sigma.data(), out.data());
  return out;
}

std::vector<ContactMode> modes_of(const ContactModel& law, const VecX& mu, const VecX& lambda, const VecX& sigma,
                                  double slip_speed = 0) {
  const int nc = static_cast<int>(mu.size());
  std::vector<ContactMode> m(nc);
  const std::vector<Real> step(nc, 1.0);
  law.contact_modes(mu.data(), nc, lambda.data(), sigma.data(), step.data(), slip_speed, m.data());
  return m;
}

// Hard solutions of the unit particle (A = I, so sigma = lambda + b): de
// Saxce's in closed form, the convex law's by Moreau (lambda = Pi_K(-b)).
void hard_solution(bool desaxce, const Vec3& b, double mu, Vec3& lambda, Vec3& sigma) {
  if (desaxce) {
    const double t = b.tail<2>().norm();
    if (t <= -mu * b[0]) {
      lambda = -b;
    } else if (b[0] >= 0) {
      lambda.setZero();
    } else {
      lambda[0] = -b[0];
      lambda.tail<2>() = -mu * lambda[0] * b.tail<2>() / t;
    }
  } else {
    lambda = -b;
    cone::project_primal(mu, lambda.data());
  }
  sigma = lambda + b;
}

std::string str(ContactMode m) { return to_string(m); }

}  // namespace

TEST_CASE("cone relations: every law's partials match central differences of its residual (several contacts)") {
  std::mt19937 gen(11);
  std::normal_distribution<double> normal(0, 1);
  const int nc = 3;
  const double eps = 1e-6, rho = 0.1;
  for (const Law& L : laws()) {
    CAPTURE(L.name);
    REQUIRE(L.law->has_linearisation());
    for (double mu0 : {0.0, 0.6}) {
      // One contact per mode, the modes rotated per trial; the last contact frictionless.
      const VecX mu = Eigen::Vector3d(mu0, 0.8, 0.0);
      for (int trial = 0; trial < 3; ++trial) {
        const std::vector<ContactMode> modes = {ContactMode(trial), ContactMode((trial + 1) % 3),
                                                ContactMode((trial + 2) % 3)};
        VecX l(3 * nc), s(3 * nc);
        for (int i = 0; i < 3 * nc; ++i) {
          l[i] = normal(gen);
          s[i] = normal(gen);
        }
        for (SensitivityKind kind : kKinds) {
          CAPTURE(mu0);
          CAPTURE(trial);
          CAPTURE(std::string(to_string(kind)));
          const Blocks B = relations(*L.law, kind, mu, modes, rho, l, s);
          double err = 0, size = 0, leak = 0;
          // Column j of every block's partials against central differences;
          // the other contacts' residuals must not move (one block each).
          auto check = [&](int k, const Blocks& P, const Blocks& Q, const Vec3& analytic) {
            for (int q = 0; q < nc; ++q) {
              const Vec3 fd = (P[q].residual - Q[q].residual) / (2 * eps);
              if (q == k) {
                err = std::max(err, (fd - analytic).lpNorm<Eigen::Infinity>());
                size = std::max(size, analytic.lpNorm<Eigen::Infinity>());
              } else {
                leak = std::max(leak, fd.lpNorm<Eigen::Infinity>());
              }
            }
          };
          for (int k = 0; k < nc; ++k) {
            for (int j = 0; j < 3; ++j) {
              VecX lp = l, lm = l, sp = s, sm = s;
              lp[3 * k + j] += eps;
              lm[3 * k + j] -= eps;
              sp[3 * k + j] += eps;
              sm[3 * k + j] -= eps;
              check(k, relations(*L.law, kind, mu, modes, rho, lp, s), relations(*L.law, kind, mu, modes, rho, lm, s),
                    B[k].C_lambda.col(j));
              check(k, relations(*L.law, kind, mu, modes, rho, l, sp), relations(*L.law, kind, mu, modes, rho, l, sm),
                    B[k].C_sigma.col(j));
            }
            // mu = 0 is differentiated one-sidedly-safe: the residuals are polynomial in mu.
            VecX mp = mu, mm = mu;
            mp[k] += eps;
            mm[k] -= eps;
            check(k, relations(*L.law, kind, mp, modes, rho, l, s), relations(*L.law, kind, mm, modes, rho, l, s),
                  B[k].C_mu);
            CHECK((B[k].scale.array() > 0).all());
          }
          // Truncation ~eps^2, round-off ~1e-16/eps (as test_local_sensitivity's relation test).
          CHECK(err <= 1e-8);
          CHECK(leak == 0);
          CHECK(size >= 0.5);  // guard: not all zero
        }
      }
    }
  }
}

TEST_CASE("cone relations: frozen_w is exact but for a sliding contact's frozen-weight friction rows") {
  std::mt19937 gen(13);
  std::normal_distribution<double> normal(0, 1);
  const int nc = 4;
  const double eps = 1e-6;
  // Contacts: sliding (mu > 0), sliding (mu = 0: no weight, exact), sticking, separating.
  const VecX mu = Eigen::Vector4d(0.7, 0.0, 0.5, 0.5);
  const std::vector<ContactMode> modes = {ContactMode::Sliding, ContactMode::Sliding, ContactMode::Sticking,
                                          ContactMode::Separating};
  for (const Law& L : laws()) {
    CAPTURE(L.name);
    VecX l(3 * nc), s(3 * nc);
    for (int i = 0; i < 3 * nc; ++i) {
      l[i] = normal(gen);
      s[i] = normal(gen);
    }
    for (int k = 0; k < nc; ++k) l[3 * k] = 0.2 + std::abs(l[3 * k]);  // the weight needs lambda_n > 0
    const Blocks F = relations(*L.law, SensitivityKind::FrozenW, mu, modes, 0.1, l, s);
    const Blocks E = relations(*L.law, SensitivityKind::Exact, mu, modes, 0.1, l, s);
    for (int k = 1; k < nc; ++k) {
      CAPTURE(k);
      CHECK((F[k].residual - E[k].residual).isZero(0));
      CHECK((F[k].C_lambda - E[k].C_lambda).isZero(0));
      CHECK((F[k].C_sigma - E[k].C_sigma).isZero(0));
      CHECK((F[k].C_mu - E[k].C_mu).isZero(0));
    }
    // Contact 0: normal row as exact; t rows sigma_t + W lambda_t, W = |sigma_t|/(mu lambda_n) frozen.
    const double W = s.segment<2>(1).norm() / (mu[0] * l[0]);
    CHECK(F[0].residual[0] == E[0].residual[0]);
    CHECK((F[0].C_sigma.row(0) - E[0].C_sigma.row(0)).isZero(0));
    CHECK((F[0].residual.tail<2>() - (s.segment<2>(1) + W * l.segment<2>(1))).norm() <= 1e-15);
    CHECK((F[0].C_sigma.bottomRightCorner<2, 2>() - Eigen::Matrix2d::Identity()).isZero(0));
    CHECK((F[0].C_lambda.bottomRightCorner<2, 2>() - W * Eigen::Matrix2d::Identity()).norm() <= 1e-15 * W);
    // Its explicit mu-dependence is the derivative of the residual in mu.
    VecX mp = mu, mm = mu;
    mp[0] += eps;
    mm[0] -= eps;
    const Vec3 fd = (relations(*L.law, SensitivityKind::FrozenW, mp, modes, 0.1, l, s)[0].residual -
                     relations(*L.law, SensitivityKind::FrozenW, mm, modes, 0.1, l, s)[0].residual) /
                    (2 * eps);
    CHECK((fd - F[0].C_mu).lpNorm<Eigen::Infinity>() <= 1e-8);
    CHECK(F[0].C_mu.tail<2>().norm() > 0.1);  // guard
  }
}

TEST_CASE("cone relations: the equations vanish at the law's own hard solution in its modes") {
  // Exact and frozen_w hold at a hard solution (in the modes read from it);
  // the convex law's sliding contacts glide (sigma_n = mu |sigma_t| > 0).
  const std::vector<Vec3> bs = {Vec3(-3, 1, 0.5), Vec3(-1, 0.6, 0.8), Vec3(0.5, 0.3, -0.2), Vec3(-0.4, 2, 1)};
  for (const Law& L : laws()) {
    CAPTURE(L.name);
    for (double mu0 : {0.0, 0.5}) {
      const int nc = static_cast<int>(bs.size());
      VecX mu = VecX::Constant(nc, mu0), l(3 * nc), s(3 * nc);
      for (int k = 0; k < nc; ++k) {
        Vec3 lk, sk;
        hard_solution(L.desaxce, bs[k], mu0, lk, sk);
        l.segment<3>(3 * k) = lk;
        s.segment<3>(3 * k) = sk;
      }
      const std::vector<ContactMode> modes = modes_of(*L.law, mu, l, s);
      for (SensitivityKind kind : {SensitivityKind::Exact, SensitivityKind::FrozenW}) {
        const Blocks B = relations(*L.law, kind, mu, modes, 0.1, l, s);
        for (int k = 0; k < nc; ++k) {
          CAPTURE(k);
          CAPTURE(str(modes[k]));
          CHECK(B[k].residual.lpNorm<Eigen::Infinity>() <= 1e-14);
        }
      }
      if (!L.desaxce && mu0 > 0) {  // b = (-1, 0.6, 0.8): the convex law's contact glides
        CHECK(modes[1] == ContactMode::Sliding);
        CHECK(s[3] > 0.1);
      }
    }
  }
}

TEST_CASE("cone relations: modes of closed-form hard solutions") {
  struct Case {
    Vec3 b;
    double mu;
    ContactMode mode;
  };
  const Case cases[] = {{Vec3(-3, 1, 0), 0.5, ContactMode::Sticking},   {Vec3(-1, 0.6, 0.8), 0.5, ContactMode::Sliding},
                        {Vec3(0.5, 0.3, -0.2), 0.5, ContactMode::Separating}, {Vec3(-1, 0.6, 0.8), 0.0, ContactMode::Sliding},
                        {Vec3(0.5, 0.3, 0), 0.0, ContactMode::Separating}};
  for (const Law& L : laws()) {
    CAPTURE(L.name);
    const int nc = static_cast<int>(std::size(cases));
    VecX mu(nc), l(3 * nc), s(3 * nc);
    for (int k = 0; k < nc; ++k) {
      Vec3 lk, sk;
      hard_solution(L.desaxce, cases[k].b, cases[k].mu, lk, sk);
      mu[k] = cases[k].mu;
      l.segment<3>(3 * k) = lk;
      s.segment<3>(3 * k) = sk;
    }
    const std::vector<ContactMode> m = modes_of(*L.law, mu, l, s);
    for (int k = 0; k < nc; ++k) {
      CAPTURE(k);
      CHECK(str(m[k]) == str(cases[k].mode));
    }
    // Below the slip speed a sliding contact is taken as sticking.
    const std::vector<ContactMode> slow = modes_of(*L.law, mu, l, s, 10.0);
    CHECK(str(slow[1]) == str(ContactMode::Sticking));
    CHECK(str(slow[2]) == str(ContactMode::Separating));
  }
}

TEST_CASE("cone relations: the continuation start satisfies its relation exactly inside the cones") {
  const std::vector<Vec3> bs = {Vec3(-3, 1, 0.5), Vec3(-1, 0.6, 0.8), Vec3(0.5, 0.3, -0.2), Vec3(-1, 0, 0)};
  for (const Law& L : laws()) {
    CAPTURE(L.name);
    for (double mu0 : {0.0, 0.5}) {
      CAPTURE(mu0);
      const int nc = static_cast<int>(bs.size());
      VecX mu = VecX::Constant(nc, mu0), l(3 * nc), s(3 * nc);
      for (int k = 0; k < nc; ++k) {
        Vec3 lk, sk;
        hard_solution(L.desaxce, bs[k], mu0, lk, sk);
        l.segment<3>(3 * k) = lk;
        s.segment<3>(3 * k) = sk;
      }
      const std::vector<ContactMode> modes = modes_of(*L.law, mu, l, s);
      // The hard solution is on the cones' boundary: not interior.
      CHECK_FALSE(L.law->contact_interior(SensitivityKind::CentralPath, mu.data(), nc, l.data(), s.data()));
      CHECK(L.law->contact_interior(SensitivityKind::Exact, mu.data(), nc, l.data(), s.data()));
      const std::vector<Real> step(nc, 0.5);
      const double rho = 1e-3;
      for (SensitivityKind kind : {SensitivityKind::CentralPath, SensitivityKind::Signorini}) {
        CAPTURE(std::string(to_string(kind)));
        VecX l0 = l, s0 = s;
        L.law->relaxed_start(kind, mu.data(), nc, modes.data(), step.data(), rho, l0.data(), s0.data());
        CHECK(L.law->contact_interior(kind, mu.data(), nc, l0.data(), s0.data()));
        const Blocks B = relations(*L.law, kind, mu, modes, rho, l0, s0);
        for (int k = 0; k < nc; ++k) {
          CAPTURE(k);
          // Central path: all three equations; signorini: the normal one.
          const int rows = kind == SensitivityKind::CentralPath ? 3 : 1;
          for (int i = 0; i < rows; ++i) CHECK(std::abs(B[k].residual[i]) <= 1e-12 * B[k].scale[i]);
        }
      }
    }
  }
}

TEST_CASE("cone relations: capabilities, forward_sensitivity and misuse") {
  for (const Law& L : laws()) CHECK(L.law->has_linearisation());
  const test_problems::TestLaw other("other", false, true, 0, 0);
  CHECK_FALSE(other.has_linearisation());
  const double mu = 0.5;
  const Vec3 l(1, 0, 0), s(0, 0, 0);
  ContactMode mode = ContactMode::Sticking;
  ContactRelationBlock out;
  const Real step = 1;
  CHECK_THROWS_AS(other.contact_modes(&mu, 1, l.data(), s.data(), &step, 0, &mode), std::logic_error);
  CHECK_THROWS_AS(other.contact_relations(SensitivityKind::Exact, &mu, 1, &mode, 0.1, RelationScales{}, l.data(),
                                          s.data(), &out),
                  std::logic_error);
  // A custom kind's relations are its own, not the law's.
  const DeSaxceModel desaxce;
  CHECK_THROWS_AS(desaxce.contact_relations(SensitivityKind::Custom, &mu, 1, &mode, 0.1, RelationScales{}, l.data(),
                                            s.data(), &out),
                  std::invalid_argument);

  // A relaxed forward law asks for its own relaxed point; the others leave the options.
  SensitivityOptions o;
  o.kind = SensitivityKind::FrozenW;
  o.rho = 0.25;
  for (const Law& L : laws()) {
    if (L.name == "central_path") continue;
    SensitivityOptions p = o;
    L.law->forward_sensitivity(p);
    CHECK(p.kind == SensitivityKind::FrozenW);
    CHECK(p.rho == 0.25);
  }
  CentralPathModel cp;
  cp.options.rho = 3e-5;
  SensitivityOptions p = o;
  cp.forward_sensitivity(p);
  CHECK(p.kind == SensitivityKind::CentralPath);
  CHECK(p.rho == 3e-5);
  cp.options.rho = 0;  // de Saxce's law: nothing to ask
  p = o;
  cp.forward_sensitivity(p);
  CHECK(p.kind == SensitivityKind::FrozenW);
  CHECK(p.rho == 0.25);
}
