// Rollout gradients through the rows of joint springs, fixed tendons (spring,
// damper, limit) and joint equalities, against central finite differences of
// the same forward runs, for the velocity, Moreau and backward Euler schemes.
// Tight forward solves (1e-12) so the differences measure the exact step map.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sim/gradcheck.hpp"
#include "sim/rollout.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {

RolloutSpec data_scene(const std::string& file, const std::string& scheme) {
  RolloutSpec s;
  s.scene = std::string(CONTACTLAB_TEST_DATA) + "/" + file;
  s.model = test::scene_model(s.scene);
  s.scheme = scheme;
  s.sets = {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12", "solver.max_iterations=5000"};
  return s;
}

// Every entry within `tol` relative of its central difference; at least one
// non-zero and one not bit-identical (the two are computed independently).
void check(const RolloutSpec& spec, const std::string& loss, const std::string& wrt, double tol) {
  const GradientResult analytic = rollout_gradient(spec, loss, wrt, {});
  PreparedRollout r = prepare_rollout(spec);
  const auto inputs = parse_grad_inputs(wrt, r.sim.model());
  const std::vector<Real> fd = finite_difference_gradient(spec, loss, inputs, 1e-6);
  bool any_nonzero = false, any_differs = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    CAPTURE(inputs[i].text);
    const double a = analytic.gradient[i], f = fd[i];
    CAPTURE(a);
    CAPTURE(f);
    const double scale = std::max(std::abs(a), std::abs(f));
    if (scale > 1e-8) CHECK(std::abs(a - f) <= tol * scale);
    any_nonzero = any_nonzero || std::abs(a) > 1e-6;
    any_differs = any_differs || a != f;
  }
  CHECK(any_nonzero);
  CHECK(any_differs);
}

}  // namespace

TEST_CASE("gradients rows: a stiff joint and a joint equality") {
  // joint_equality_pendulums.xml: a spring on h1 (k = 2) and h2 = 0.5 h1 + 0.2 h1^2.
  // 1e-5: the tight solves leave FD noise ~1e-12 / 1e-6 = 1e-6 relative to O(1) losses.
  for (const char* scheme : {"velocity", "moreau"}) {
    CAPTURE(scheme);
    RolloutSpec s = data_scene("joint_equality_pendulums.xml", scheme);
    s.steps = 100;
    s.ctrls = {"push=0.3"};
    check(s, "final:p1.wy + 2*final:p2.wy", "init:p1.wy,param:body.p1.mass,param:body.p2.mass,ctrl:push",
          1e-5);
  }
}

TEST_CASE("gradients rows: a fixed tendon's spring and damper and limit") {
  // tendon_pendulums.xml from its keyframe: the tendon L = q1 - q2 swings into
  // its limit (0.3) within the 150 steps (the forward check below), so the limit
  // row is active for part of the run. Bound as above.
  for (const char* scheme : {"velocity", "moreau"}) {
    CAPTURE(scheme);
    RolloutSpec s = data_scene("tendon_pendulums.xml", scheme);
    s.keyframe = "swing";
    s.steps = 150;
    s.ctrls = {"push=0.5"};
    check(s, "final:p1.wy + 2*final:p2.wy", "init:p2.wy,param:body.p1.mass,ctrl:push", 1e-5);
  }
}
