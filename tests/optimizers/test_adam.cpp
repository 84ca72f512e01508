// Adam through rollouts (optimizers/adam.hpp, control_objective.hpp) on
// problems with a known optimum: a contact-free point mass reaching a target
// (a quadratic in the knots, solved in closed form) and a box pushed along a
// frictional floor by a constant force (Coulomb's sliding law in closed form).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>

#include "optimizers/adam.hpp"
#include "optimizers/control_objective.hpp"
#include "support/point_mass.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {

constexpr long kSteps = 40;
constexpr int kKnots = 4;
constexpr Real kEffort = 1e-3;  // weight of h sum |u|^2
const char* kLoss = "sumsq:mass.pos=0.5,-0.3,1";

// The closed-form optimum of the point-mass problem: per actuator, with
// G = W^T g, g_t = (h^2 / m) (T - t), the loss (G^T c - d)^2 + r h c^T W^T W c
// is least at (G G^T + r h W^T W) c = d G.
VecX analytic_knots(const ControlSpline& s, Real& loss) {
  const Real h = test::kPointMassStep, m = test::kPointMass;
  const MatX& W = s.basis();
  VecX g(kSteps);
  for (long t = 0; t < kSteps; ++t) g[t] = h * h / m * Real(kSteps - t);
  const VecX G = W.transpose() * g;
  const MatX H = G * G.transpose() + kEffort * h * W.transpose() * W;
  const Real d[2] = {0.5, -0.3};
  VecX c(2 * kKnots);
  loss = 0;
  for (int a = 0; a < 2; ++a) {
    c.segment(a * kKnots, kKnots) = H.ldlt().solve(d[a] * G);
    const VecX ca = c.segment(a * kKnots, kKnots);
    loss += std::pow(G.dot(ca) - d[a], 2) + kEffort * h * (W * ca).squaredNorm();
  }
  return c;
}

}  // namespace

TEST_CASE("adam: point mass to a target, against the closed-form optimum of the knots") {
  const RolloutSpec spec = test::point_mass_spec(kSteps);
  ControlSpline spline(*spec.model, {}, kKnots, kSteps);
  ControlObjectiveOptions opt;
  opt.effort_weight = kEffort;
  const ControlObjective objective(spec, kLoss, spline, opt);
  Real best_loss = 0;
  const VecX c_star = analytic_knots(objective.spline(), best_loss);

  // The closed form is the rollout's: the loss at c* agrees to rounding
  // (1e-12 relative), and the gradient there vanishes (|g| <= 1e-9 against
  // |g| ~ 1 at the start: the quadratic's stationary point).
  VecX g;
  CHECK(objective.evaluate(c_star, &g).loss == doctest::Approx(best_loss).epsilon(1e-12));
  CHECK(g.norm() < 1e-9);

  // The rollout gradient (one backward pass, through the spline) against
  // central differences of the loss at a generic point: the loss is exactly
  // quadratic, so the difference is exact up to rounding (eps 1e-4 on
  // O(1) losses: ~1e-12 / 1e-4 = 1e-8 absolute), bound 1e-6 relative.
  VecX x(2 * kKnots);
  x << 3, -1, 5, 2, -4, 1, 0.5, -2;
  objective.evaluate(x, &g);
  for (int j = 0; j < x.size(); ++j) {
    VecX p = x, m = x;
    p[j] += 1e-4;
    m[j] -= 1e-4;
    const Real fd = (objective.evaluate(p, nullptr).loss - objective.evaluate(m, nullptr).loss) / 2e-4;
    CAPTURE(j);
    CHECK(std::abs(fd) > 1e-4);  // every knot moves the loss (guard against a zero gradient)
    CHECK(g[j] == doctest::Approx(fd).epsilon(1e-6));
  }

  // Adam from zero controls, one block per actuator.
  AdamOptions adam;
  adam.iterations = 400;
  adam.blocks = {{"fx", kKnots, 1.0}, {"fy", kKnots, 1.0}};
  adam.cosine_decay = true;
  const OptimiserResult r = adam_minimize(objective.function(), VecX::Zero(2 * kKnots), adam);
  REQUIRE(r.history.size() == 401);
  const Real initial = r.history.front().loss;  // 0.34 = 0.5^2 + 0.3^2
  CHECK(initial == doctest::Approx(0.34).epsilon(1e-12));
  MESSAGE("adam point mass: loss " << r.loss << " optimum " << best_loss << " rel gap "
                                   << (r.loss - best_loss) / best_loss << " knot error "
                                   << (r.x - c_star).norm() / c_star.norm());
  // Converged to the optimum: loss within 1e-9 relative, knots within 1e-4
  // relative (measured: 1.1e-5 on the knots; the bounds are ~10x the
  // measured gaps, so a regression of the step or the gradient fails them).
  CHECK(r.loss == doctest::Approx(best_loss).epsilon(1e-9));
  CHECK((r.x - c_star).norm() <= 1e-4 * c_star.norm());
  for (const IterationRecord& rec : r.history) CHECK(rec.forward_s > 0);
}
