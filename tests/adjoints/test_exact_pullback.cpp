// The exact position pull-back (StepProblem::evaluate_tangent): the step's
// data and its directional derivative in one dual-number pass of the forward
// code (core/dual.hpp; assembly, kinematics and the closed-form narrow phase
// templated on the scalar). Checked against central differences of the
// double evaluation along random seeds of the state and the controls, on
// steps of scenes that exercise joints, servos, limits, loop closures and
// every closed-form contact pair; its values against the double evaluation.
//
// Tolerances: central differences of step 1e-7 carry rounding ~1e-16/1e-7 =
// 1e-9 relative to the data's size, and O(eps) where an entry is only C^1
// (a resting box-box manifold: 1.3e-7); bound 1e-6 relative to the largest
// derivative entry. Measured: joints 3e-10 - 3.5e-9, contacts <= 1.7e-7.
// The contact rows' biases are left out (their slop kink, where resting
// contacts sit, is straddled by any difference); the contacts' gaps, normals
// and points are checked against the narrow phase directly, second case.
// Resting box-box manifolds (stacked_boxes) are left out: their corners tie
// in the reduction, so a difference may keep other corners than the step
// did, and its derivative is then not the step's.
// The dual values equal the double evaluation's up to the renormalisation of
// a seeded quaternion (1e-12).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "adjoints/step_problem.hpp"
#include "core/contact_model.hpp"
#include "core/kinematics.hpp"
#include "geometry/collision.hpp"
#include "io/mjcf.hpp"
#include "schemes/assembly.hpp"
#include "schemes/velocity_scheme.hpp"
#include "sim/rollout.hpp"
#include "sim/rollout_setup.hpp"
#include "support/pairs.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {

struct Case {
  std::string scene, keyframe;
  long steps;  // the step checked (after this many)
};

}  // namespace

TEST_CASE("exact pull-back: the dual-number derivative of the step data matches central differences") {
  const std::string data = CONTACTLAB_TEST_DATA;
  const Case cases[] = {
      {"cart_pole", "", 20},                          // slide, hinge, slide limit, motor
      {"four_bar", "", 30},                           // loop closure (connect equality)
      {"box_ramp", "", 1500},                         // box on a tilted plane, four corners, push motor
      {data + "/boxes_oblique.xml", "go", 14},        // box-box in a generic pose, two points
      {"wheeled_pallet", "", 5},                      // cylinders on a plane, hinges, velocity servos
      {data + "/impact_ball.xml", "init", 25},        // sphere-plane at a positive gap
      {data + "/balls_oblique.xml", "init", 12},      // sphere-sphere, oblique
      {data + "/capsule_ball.xml", "init", 15},       // capsule-sphere
  };
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0, 1);
  for (const Case& c : cases) {
    CAPTURE(c.scene);
    RolloutSpec spec;
    spec.scene = c.scene;
    spec.model = test::scene_model(spec.scene);
    spec.keyframe = c.keyframe;
    spec.steps = c.steps + 1;
    PreparedRollout r = prepare_rollout(spec);
    for (long i = 0; i < c.steps; ++i) {
      r.sim.apply_scheduled_controls();
      r.controls.apply(r.sim.data());
      r.sim.step(r.h);
    }
    r.sim.apply_scheduled_controls();
    r.controls.apply(r.sim.data());
    StepInputs in = capture_inputs(r.sim.model(), r.sim.data());
    r.sim.step(r.h);
    in.contacts = r.sim.data().contacts;
    const auto& scheme = dynamic_cast<const VelocityScheme&>(r.sim.scheme());
    const Model& model = r.sim.model();
    StepProblem step;
    step.capture(model, in, scheme.options,
                 r.sim.contact_model().penetration_recovery(scheme.options.contact_baumgarte), r.h);

    StepProblemData y0, y, dy, plus, minus;
    step.evaluate(model, nullptr, nullptr, y0);
    const int nb = model.num_bodies(), na = static_cast<int>(model.actuators.size());
    for (int trial = 0; trial < 3; ++trial) {
      CAPTURE(trial);
      std::vector<Real> seed(12 * nb), ctrl_seed(na);
      for (Real& s : seed) s = normal(rng);
      for (Real& s : ctrl_seed) s = normal(rng);
      const bool exact = step.evaluate_tangent(model, seed.data(), ctrl_seed.data(), 1e-7, y, dy);
      // Every pair in contact here is closed form (the pallet's wheels are on
      // its floor plane at step 5), so every tangent is dual.
      CHECK(exact);
      REQUIRE(y.size() == y0.size());
      CHECK((y.y - y0.y).lpNorm<Eigen::Infinity>() <= 1e-12 * (1 + y0.y.lpNorm<Eigen::Infinity>()));
      // Some entries are only C^1 where a box-box manifold rests (central
      // differences then converge at O(eps): measured 8e-6, 7e-7, 1.3e-7 at
      // eps = 1e-5, 1e-6, 1e-7 on stacked_boxes, the dual unchanged).
      const double eps = 1e-7;
      std::vector<Real> sp(12 * nb), sm(12 * nb), cp(na), cm(na);
      for (int i = 0; i < 12 * nb; ++i) {
        sp[i] = eps * seed[i];
        sm[i] = -eps * seed[i];
      }
      for (int a = 0; a < na; ++a) {
        cp[a] = in.ctrl[a] + eps * ctrl_seed[a];
        cm[a] = in.ctrl[a] - eps * ctrl_seed[a];
      }
      step.evaluate(model, sp.data(), cp.data(), plus);
      step.evaluate(model, sm.data(), cm.data(), minus);
      REQUIRE(plus.size() == dy.size());
      VecX fd = (plus.y - minus.y) / (2 * eps);
      VecX dual = dy.y;
      // The contact rows' biases have the one-sided kink of the slop band
      // where resting contacts sit: central differences straddle it. Their
      // gaps are checked at the contact level below.
      const int off = dy.num_rows - 3 * dy.num_contacts;
      for (int k = 0; k < dy.num_contacts; ++k)
        for (int j = 0; j < 3; ++j) fd[dy.bias_at() + off + 3 * k + j] = dual[dy.bias_at() + off + 3 * k + j] = 0;
      const double scale = dual.lpNorm<Eigen::Infinity>();
      CHECK(scale > 1e-3);  // guard: a non-trivial derivative
      VecX diff = dual - fd;
      int worst = 0;
      diff.cwiseAbs().maxCoeff(&worst);
      const double err = diff.cwiseAbs().maxCoeff();
      CAPTURE(worst);
      MESSAGE(c.scene << " trial " << trial << ": |dual - central differences| / |dual| = " << err / scale);
      CHECK(err <= 1e-6 * scale);
    }
  }
}

TEST_CASE("exact pull-back: the closed-form narrow phase in dual numbers matches central differences") {
  // Every closed-form pair in generic turned poses a few mm apart; both
  // bodies moved along a random twist seed; the dual contacts' points,
  // normals, tangents and gaps against central differences of the double
  // narrow phase (step 1e-7; bound 1e-6 of the largest tangent, measured
  // below 1e-7).
  const char* shapes[] = {"sphere", "capsule", "box", "cylinder"};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (int i = -1; i < 4; ++i) {
    for (int j = std::max(i, 0); j < 4; ++j) {
      const std::string a = i < 0 ? "plane" : shapes[i], b = shapes[j];
      CAPTURE(a);
      CAPTURE(b);
      const Model model = load_mjcf_string(test_pairs::pair_scene_xml(a, b), "pair");
      if (!pair_closed_form(model.geoms[0].type, model.geoms[1].type)) continue;
      const int nb = model.num_bodies();
      Data d;
      d.init(model);
      test_pairs::pose_pair_at_gap(model, d, rng, 0.003);  // 3 mm apart
      // A random twist of every body: x' = x + t dx, q' = Exp(t dth) q.
      std::vector<Vec3> dx(nb), dth(nb);
      for (int k = 0; k < nb; ++k) {
        dx[k] = Vec3(u(rng), u(rng), u(rng));
        dth[k] = Vec3(u(rng), u(rng), u(rng));
      }
      auto contacts_at = [&](double t) {
        Data m;
        m.init(model);
        for (int k = 0; k < nb; ++k) {
          m.x_W[k] = d.x_W[k] + t * dx[k];
          m.q_WB[k] = integrate_quaternion(d.q_WB[k], t * dth[k], 1.0);
        }
        std::vector<Contact> out;
        GeomPose p0, p1;
        geom_world_pose(model, m, 0, p0.pos_W, p0.R_WG);
        geom_world_pose(model, m, 1, p1.pos_W, p1.R_WG);
        collide_geoms(model.geoms[0], p0, 0, model.geoms[1], p1, 1, 0.01, out);
        return out;
      };
      std::vector<Vec3T<Dual>> x(nb), v(nb, Vec3T<Dual>::Zero()), w(nb, Vec3T<Dual>::Zero());
      std::vector<QuatT<Dual>> q(nb);
      for (int k = 0; k < nb; ++k) {
        x[k] = d.x_W[k].cast<Dual>();
        for (int c = 0; c < 3; ++c) x[k][c].d = dx[k][c];
        q[k] = integrate_quaternion_t<Dual>(d.q_WB[k].cast<Dual>(),
                                            Vec3T<Dual>(Dual(0, dth[k][0]), Dual(0, dth[k][1]), Dual(0, dth[k][2])),
                                            Dual(1.0));
      }
      const BodyStatesT<Dual> s{x, q, v, w};
      GeomPoseT<Dual> p0, p1;
      geom_world_pose_t<Dual>(model, s, 0, p0.pos_W, p0.R_WG);
      geom_world_pose_t<Dual>(model, s, 1, p1.pos_W, p1.R_WG);
      std::vector<ContactT<Dual>> dual;
      collide_geoms_t<Dual>(model.geoms[0], p0, 0, model.geoms[1], p1, 1, 0.01, dual);
      const double eps = 1e-7;
      const std::vector<Contact> plus = contacts_at(eps), minus = contacts_at(-eps), base = contacts_at(0);
      REQUIRE(!dual.empty());
      REQUIRE(dual.size() == base.size());
      REQUIRE(plus.size() == dual.size());
      REQUIRE(minus.size() == dual.size());
      double err = 0, scale = 0;
      auto compare = [&](const Vec3T<Dual>& a3, const Vec3& p, const Vec3& m) {
        for (int c = 0; c < 3; ++c) {
          err = std::max(err, std::abs(a3[c].d - (p[c] - m[c]) / (2 * eps)));
          scale = std::max(scale, std::abs(a3[c].d));
        }
      };
      for (size_t k = 0; k < dual.size(); ++k) {
        CHECK(std::abs(dual[k].gap.v - base[k].gap) <= 1e-15);
        compare(dual[k].point_W, plus[k].point_W, minus[k].point_W);
        compare(dual[k].normal_W, plus[k].normal_W, minus[k].normal_W);
        compare(dual[k].tangent1_W, plus[k].tangent1_W, minus[k].tangent1_W);
        compare(dual[k].tangent2_W, plus[k].tangent2_W, minus[k].tangent2_W);
        err = std::max(err, std::abs(dual[k].gap.d - (plus[k].gap - minus[k].gap) / (2 * eps)));
      }
      MESSAGE(a << "-" << b << ": " << dual.size() << " contacts, |dual - central differences| / |dual| = " << err / scale);
      CHECK(scale > 1e-3);
      CHECK(err <= 1e-6 * scale);
      ++checked;
    }
  }
  CHECK(checked == 14);  // every pair but plane-plane (the searched four through argmin_01_t)
}
