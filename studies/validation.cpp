#include "studies/validation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/kinematics.hpp"
#include "core/metrics.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"

namespace contactlab {

namespace {

Simulation load(const std::string& scene, const PartChoice& parts, const std::vector<std::string>& options = {}) {
  Simulation sim(load_mjcf_file(resolve_scene(scene)), parts);
  for (const std::string& o : options) sim.set_option(o);
  return sim;
}

int body_id(const Model& m, const std::string& name) {
  const int b = m.find_body(name);
  if (b < 0) throw std::runtime_error("validation scene '" + m.name + "' has no body '" + name + "'");
  return b;
}

int first_geom_of(const Model& m, int body) {
  for (size_t g = 0; g < m.geoms.size(); ++g)
    if (m.geoms[g].body == body) return static_cast<int>(g);
  throw std::runtime_error("body '" + m.bodies[body].name + "' has no geom");
}

int floor_geom(const Model& m) {
  for (size_t g = 0; g < m.geoms.size(); ++g)
    if (m.geoms[g].type == GeomType::Plane) return static_cast<int>(g);
  throw std::runtime_error("scene '" + m.name + "' has no plane");
}

// Steps the simulation while recording solver statistics and wall time.
struct Stepper {
  Simulation& sim;
  double h;
  ValidationResult& result;
  double wall = 0, iterations = 0;
  void step() {
    sim.apply_scheduled_controls();
    const auto t0 = std::chrono::steady_clock::now();
    sim.step(h);
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    iterations += sim.data().metrics.iterations;
    result.max_iterations = std::max(result.max_iterations, sim.data().metrics.iterations);
    result.steps++;
  }
  void finish() {
    result.dt = h;
    result.wall_time_per_step = result.steps ? wall / result.steps : 0;
    result.mean_iterations = result.steps ? iterations / result.steps : 0;
  }
};

ValidationQuantity compare(const std::string& name, double measured, double reference, double tol,
                           const std::string& unit) {
  return {name, measured, reference, std::abs(measured - reference), tol, unit};
}
ValidationQuantity bound(const std::string& name, double measured, double limit, const std::string& unit) {
  return {name, measured, limit, measured, limit, unit};
}

}  // namespace

bool ValidationResult::pass() const {
  for (const auto& q : quantities)
    if (!q.pass()) return false;
  return !quantities.empty();
}

double elliptic_k(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 30 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return kPi / (2 * a);
}

ValidationResult validate_box_ramp(const PartChoice& parts, double h) {
  return validate_box_ramp(parts, h, ValidationSetup{});
}

ValidationResult validate_box_ramp(const PartChoice& parts, double h, const ValidationSetup& setup) {
  const ValidationTolerances& tol = setup.tolerances;
  Simulation sim = load("box_ramp", parts, setup.options);
  const Model& m = sim.model();
  ValidationResult r;
  r.name = "box_ramp";
  const int box = body_id(m, "box");
  const double mu = std::max(m.geoms[first_geom_of(m, box)].friction, m.geoms[floor_geom(m)].friction);
  const double g = -m.options.gravity.z(), mass = m.bodies[box].mass;
  if (m.control_schedules.empty()) throw std::runtime_error("box_ramp has no force schedule");
  const ControlSchedule& push = m.control_schedules.front();
  const auto peak = std::max_element(push.values.begin(), push.values.end());
  const double T_r = push.times[peak - push.values.begin()];
  const double beta = *peak * m.actuators[push.actuator].gear[0] / (mu * mass * g);
  // MATH.md E.2, general beta.
  const double t_slip = T_r / beta;
  const ScalarReference distance = box_ramp_sliding_distance(m);
  const double t_stop = distance.settled_time, x_total = distance.value;

  Stepper st{sim, h, r};
  const double x0 = sim.data().origin_position(m, box).x();
  double t_onset = -1, t_rest = -1, max_pen = 0;
  // Slip onset: the first step with |v_x| above 1e-4 m/s; analytically that speed
  // is reached sqrt(2e-4 T_r/(beta mu g)) after t_slip (~5e-3 s here, added below).
  const double v_detect = 1e-4;
  const double onset_delay = std::sqrt(2 * v_detect * T_r / (beta * mu * g));
  const long n = std::lround((t_stop + 0.5) / h);
  for (long i = 0; i < n; ++i) {
    st.step();
    const double vx = sim.data().v_W[box].x();
    if (t_onset < 0 && std::abs(vx) > v_detect) t_onset = sim.data().time;
    if (t_onset > 0 && t_rest < 0 && sim.data().time > T_r && std::abs(vx) < v_detect) t_rest = sim.data().time;
    max_pen = std::max(max_pen, sim.data().metrics.max_penetration);
  }
  st.finish();
  const double x_slide = sim.data().origin_position(m, box).x() - x0;
  // Semi-implicit Euler is first order: events are resolved to a step and the
  // force ramp is sampled at step starts, so timing errors of a few h and an
  // O(h/T_r) relative error on the distance (1% covers h <= 1e-2 T_r).
  r.quantities.push_back(compare("stick-slip time", t_onset, t_slip + onset_delay, tol.event_steps * h, "s"));
  r.quantities.push_back(compare("stop time", t_rest, t_stop, tol.event_steps * h, "s"));
  r.quantities.push_back(compare("total sliding distance", x_slide, x_total, tol.distance_relative * x_total, "m"));
  r.quantities.push_back(bound("max penetration", max_pen, tol.penetration, "m"));
  return r;
}

ValidationResult validate_bouncing_ball(const PartChoice& parts, double h) {
  return validate_bouncing_ball(parts, h, ValidationSetup{});
}

ValidationResult validate_bouncing_ball(const PartChoice& parts, double h, const ValidationSetup& setup) {
  const ValidationTolerances& tol = setup.tolerances;
  Simulation sim = load("bouncing_ball", parts, setup.options);
  const Model& m = sim.model();
  ValidationResult r;
  r.name = "bouncing_ball";
  const int ball = body_id(m, "ball");
  const int ball_geom = first_geom_of(m, ball);
  const double radius = m.geoms[ball_geom].size.x();
  const double e = m.restitution(ball_geom, floor_geom(m));
  const double g = -m.options.gravity.z();
  const double g0 = sim.data().x_W[ball].z() - radius;
  const double t1 = std::sqrt(2 * g0 / g), v1 = g * t1;

  Stepper st{sim, h, r};
  std::vector<double> impacts, apexes;
  double prev_vz = sim.data().v_W[ball].z(), apex = -1;
  const int bounces = 3;
  const double t_end = t1 + 2 * v1 / g * (1 + e + e * e) + 0.05;
  const long n = std::lround(t_end / h);
  double max_pen = 0;
  for (long i = 0; i < n; ++i) {
    const double t_before = sim.data().time;
    st.step();
    const double vz = sim.data().v_W[ball].z();
    const double z = sim.data().x_W[ball].z() - radius;
    if (prev_vz < 0 && vz > 0) {
      // The impact happens within this step; report its start (the contact closes during it).
      impacts.push_back(t_before);
      if (apex >= 0) apexes.push_back(apex);
      apex = 0;
    }
    if (apex >= 0) apex = std::max(apex, z);
    prev_vz = vz;
    max_pen = std::max(max_pen, sim.data().metrics.max_penetration);
  }
  st.finish();
  double t_k = t1;
  for (int k = 0; k < bounces; ++k) {
    const double measured = k < static_cast<int>(impacts.size()) ? impacts[k] : -1;
    // Timing error: up to one step per impact, accumulated over previous flights.
    r.quantities.push_back(
        compare("impact " + std::to_string(k + 1) + " time", measured, t_k, tol.impact_steps * (k + 1) * h, "s"));
    t_k += 2 * std::pow(e, k + 1) * v1 / g;  // flight after impact k+1 at speed e^(k+1) v1
  }
  for (int k = 1; k < bounces; ++k) {
    const double measured = k - 1 < static_cast<int>(apexes.size()) ? apexes[k - 1] : -1;
    const double ref = std::pow(e, 2 * k) * g0;
    // Apex after bounce k: the impact is resolved to one step, which changes the
    // rebound speed by at most g h (relative g h / v ~ 2e-3 here); 1% relative.
    r.quantities.push_back(
        compare("apex gap after bounce " + std::to_string(k), measured, ref, tol.apex_relative * ref, "m"));
  }
  r.quantities.push_back(bound("max penetration", max_pen, tol.penetration, "m"));
  return r;
}

ValidationResult validate_stacked_boxes(const PartChoice& parts, double mass_ratio, double h) {
  return validate_stacked_boxes(parts, mass_ratio, h, ValidationSetup{});
}

ValidationResult validate_stacked_boxes(const PartChoice& parts, double mass_ratio, double h,
                                        const ValidationSetup& setup) {
  const ValidationTolerances& tol = setup.tolerances;
  ValidationResult r;
  char label[64];
  std::snprintf(label, sizeof label, "stacked_boxes (top/bottom = %g)", mass_ratio);
  r.name = label;
  // Reference run: equal masses. The trajectory must not depend on the ratio.
  auto trajectory = [&](double ratio, ValidationResult* stats, double* max_pen, double* bottom_drift) {
    Simulation sim = load("stacked_boxes", parts, setup.options);
    const Model& m0 = sim.model();
    const int top = body_id(m0, "top"), bottom = body_id(m0, "bottom");
    const double m_bottom = m0.bodies[bottom].mass;
    sim.set_option("body.top.mass=" + std::to_string(m_bottom * ratio));
    sim.reset();
    const Model& m = sim.model();
    const Vec3 bottom0 = sim.data().x_W[bottom];
    ValidationResult scratch;
    Stepper st{sim, h, stats ? *stats : scratch};
    std::vector<double> z;
    const long n = std::lround(1.0 / h);
    double pen = 0, drift = 0;
    for (long i = 0; i < n; ++i) {
      st.step();
      z.push_back(sim.data().x_W[top].z());
      pen = std::max(pen, sim.data().metrics.max_penetration);
      drift = std::max(drift, (sim.data().x_W[bottom] - bottom0).norm());
    }
    st.finish();
    (void)m;
    if (max_pen) *max_pen = pen;
    if (bottom_drift) *bottom_drift = drift;
    return z;
  };
  double pen = 0, drift = 0;
  const std::vector<double> z = trajectory(mass_ratio, &r, &pen, &drift);
  const std::vector<double> z_ref = trajectory(1.0, nullptr, nullptr, nullptr);
  double diff = 0;
  for (size_t i = 0; i < z.size(); ++i) diff = std::max(diff, std::abs(z[i] - z_ref[i]));
  // Analytic rest height of the top box (on the bottom box, both of half-height 0.1).
  Simulation probe = load("stacked_boxes", parts);
  const Model& m = probe.model();
  const double rest = stacked_boxes_rest_height(m, probe.data()).value;
  // Velocities are exact up to the solver tolerance (1e-6 m/s); integrated over
  // the 1 s run that is 1e-6 m. Ten times that bounds positions that must not
  // depend on the masses. Penetration: the bound, 1 mm.
  r.quantities.push_back(bound("max |z_top - z_top(ratio 1)|", diff, tol.ratio_independence, "m"));
  r.quantities.push_back(compare("top box rest height", z.back(), rest, tol.rest_height, "m"));
  r.quantities.push_back(bound("bottom box displacement", drift, tol.bottom_drift, "m"));
  r.quantities.push_back(bound("max penetration", pen, tol.penetration, "m"));
  return r;
}

ValidationResult validate_four_bar(const PartChoice& parts, double h) {
  return validate_four_bar(parts, h, ValidationSetup{});
}

ValidationResult validate_four_bar(const PartChoice& parts, double h, const ValidationSetup& setup) {
  const ValidationTolerances& tol = setup.tolerances;
  ValidationResult r;
  char label[64];
  std::snprintf(label, sizeof label, "four_bar (%g Hz)", 1.0 / h);
  r.name = label;
  double max_residual = 0;
  {
    // With the scheme's default Baumgarte stabilisation: the loop residual.
    Simulation sim = load("four_bar", parts, setup.options);
    Stepper st{sim, h, r};
    const long n = std::lround(2.0 / h);
    for (long i = 0; i < n; ++i) {
      st.step();
      max_residual = std::max(max_residual, sim.data().metrics.joint_violation);
    }
    st.finish();
  }
  // Drift per step of a velocity-level constraint is ~ h^2 v^2 / L (curvature of
  // the loop, bar length L = 0.4 m, speeds v < 2 m/s); Baumgarte removes a
  // fraction alpha = 0.1 per step, so the residual settles near h^2 v^2 / (L alpha):
  // 6e-4 m at 400 Hz, 1e-4 m at 1 kHz. Tolerance 1 mm at 400 Hz scaled by h^2.
  const double residual_tol = tol.loop_residual_400hz * (h / 2.5e-3) * (h / 2.5e-3);
  r.quantities.push_back(bound("max position-level loop residual", max_residual, residual_tol, "m|rad"));

  // Energy: with Baumgarte off the step is a pure velocity-level projection,
  // which only removes kinetic energy normal to the constraint manifold: E must
  // not increase from one step to the next (allowance: round-off, 1e-12 |E|).
  // (Baumgarte's position feedback injects energy: docs/validation.md.)
  Simulation sim = load("four_bar", parts, setup.options);
  for (const std::string& o : setup.energy_options) sim.set_option(o);
  const Model& m = sim.model();
  ValidationResult scratch;
  Stepper st{sim, h, scratch};
  const double e0 = mechanical_energy(m, sim.data());
  double e_prev = e0, max_rise = -1e300;
  const long n = std::lround(2.0 / h);
  for (long i = 0; i < n; ++i) {
    st.step();
    const double e = mechanical_energy(m, sim.data());
    max_rise = std::max(max_rise, e - e_prev);
    e_prev = e;
  }
  r.quantities.push_back(bound("largest one-step energy change (Baumgarte off)", max_rise,
                               tol.energy_rise_relative * std::abs(e0), "J"));
  return r;
}

ValidationResult validate_pendulum(const PartChoice& parts, double h) {
  return validate_pendulum(parts, h, ValidationSetup{});
}

ValidationResult validate_pendulum(const PartChoice& parts, double h, const ValidationSetup& setup) {
  const ValidationTolerances& tol = setup.tolerances;
  Simulation sim = load("pendulum", parts, setup.options);
  const Model& m = sim.model();
  ValidationResult r;
  r.name = "pendulum";
  const int pole = body_id(m, "pole");
  int joint = -1;
  for (size_t j = 0; j < m.joints.size(); ++j)
    if (m.joints[j].body == pole) joint = static_cast<int>(j);
  if (joint < 0) throw std::runtime_error("pendulum has no hinge");
  const double period = pendulum_period(m, sim.data()).value;

  Stepper st{sim, h, r};
  std::vector<double> crossings;  // upward zero crossings of the angle, linearly interpolated
  double q_prev = joint_position(m, sim.data(), joint);
  const long n = std::lround(5.5 * period / h);
  for (long i = 0; i < n; ++i) {
    const double t_prev = sim.data().time;
    st.step();
    const double q = joint_position(m, sim.data(), joint);
    if (q_prev < 0 && q >= 0) crossings.push_back(t_prev + h * (-q_prev) / (q - q_prev));
    q_prev = q;
  }
  st.finish();
  const double measured =
      crossings.size() >= 2 ? (crossings.back() - crossings.front()) / (crossings.size() - 1) : -1;
  // Semi-implicit Euler is symplectic: its period error is O(h^2), about
  // (omega h)^2/24 = 4e-7 relative at h = 1 ms; the zero-crossing interpolation
  // is O(h^2) too. 1e-5 relative leaves a factor of 25.
  r.quantities.push_back(compare("period", measured, period, tol.period_relative * period, "s"));
  return r;
}

std::vector<ValidationResult> validation_suite(const PartChoice& parts) {
  std::vector<ValidationResult> out;
  out.push_back(validate_box_ramp(parts));
  out.push_back(validate_bouncing_ball(parts));
  for (double ratio : {1.0, 100.0, 1000.0, 0.01, 0.001}) out.push_back(validate_stacked_boxes(parts, ratio));
  out.push_back(validate_four_bar(parts, 1.0 / 400));
  out.push_back(validate_four_bar(parts, 1.0 / 1000));
  out.push_back(validate_pendulum(parts));
  return out;
}

// ---- Reference quantities for comparisons (studies/comparison.cpp) ----

namespace {

int hinge_of(const Model& m, int body) {
  for (size_t j = 0; j < m.joints.size(); ++j)
    if (m.joints[j].body == body && m.joints[j].type == JointType::Hinge) return static_cast<int>(j);
  throw std::runtime_error("body '" + m.bodies[body].name + "' has no hinge");
}

// A body swinging on its hinge: pivot and axis in world, the com offset from
// the pivot across the axis, and the moment of inertia about the axis.
struct Swing {
  Vec3 pivot_W, axis_W, d_W;
  double inertia = 0;
};

Swing swing_of(const Model& m, const Data& d, int body) {
  const Joint& j = m.joints[hinge_of(m, body)];
  Swing s;
  s.pivot_W = d.origin_position(m, body) + d.q_WB[body] * j.anchor_B;
  s.axis_W = (d.q_WB[body] * j.axis_B).normalized();
  const Vec3 r = d.x_W[body] - s.pivot_W;
  s.d_W = r - r.dot(s.axis_W) * s.axis_W;
  const Mat3 R = d.q_WB[body].toRotationMatrix();
  s.inertia = s.axis_W.dot(R * m.bodies[body].inertia_B * R.transpose() * s.axis_W) + m.bodies[body].mass * s.d_W.squaredNorm();
  return s;
}

}  // namespace

ScalarReference box_ramp_sliding_distance(const Model& m) {
  const int box = body_id(m, "box");
  const double mu = std::max(m.geoms[first_geom_of(m, box)].friction, m.geoms[floor_geom(m)].friction);
  const double g = -m.options.gravity.z(), mass = m.bodies[box].mass;
  if (m.control_schedules.empty()) throw std::runtime_error("box_ramp has no force schedule");
  const ControlSchedule& push = m.control_schedules.front();
  const auto peak = std::max_element(push.values.begin(), push.values.end());
  const double T_r = push.times[peak - push.values.begin()];
  const double beta = *peak * m.actuators[push.actuator].gear[0] / (mu * mass * g);
  const double t_stop = T_r * (1 + (beta - 1) * (beta - 1) / (2 * beta));
  const double x_total = mu * g * T_r * T_r * std::pow(beta - 1, 3) * (3 * beta + 1) / (24 * beta * beta);
  return {"total sliding distance", x_total, "m", t_stop};
}

ScalarReference bouncing_ball_first_apex(const Model& m, const Data& d) {
  const int ball = body_id(m, "ball");
  const int ball_geom = first_geom_of(m, ball);
  const double e = m.restitution(ball_geom, floor_geom(m));
  const double g = -m.options.gravity.z();
  const double g0 = d.x_W[ball].z() - m.geoms[ball_geom].size.x();
  const double t1 = std::sqrt(2 * g0 / g), v1 = g * t1;
  return {"apex gap after bounce 1", e * e * g0, "m", t1 + e * v1 / g};
}

ScalarReference stacked_boxes_rest_height(const Model& m, const Data& d) {
  const int top = body_id(m, "top"), bottom = body_id(m, "bottom");
  const double rest = d.x_W[bottom].z() + m.geoms[first_geom_of(m, bottom)].size.z() + m.geoms[first_geom_of(m, top)].size.z();
  const double fall = std::sqrt(2 * std::max(0.0, d.x_W[top].z() - rest) / -m.options.gravity.z());
  return {"top box rest height", rest, "m", fall};
}

Vec3 incline_downhill(const Model& m) {
  const Geom& plane = m.geoms[floor_geom(m)];
  return plane.quat_BG * Vec3::UnitX();  // world geoms: pose in world axes
}

namespace {
double incline_angle(const Model& m) {
  const Geom& plane = m.geoms[floor_geom(m)];
  const Vec3 n = plane.quat_BG * Vec3::UnitZ();
  return std::acos(std::clamp(n.dot(-m.options.gravity.normalized()), -1.0, 1.0));
}
}  // namespace

ScalarReference incline_box_displacement(const Model& m) {
  const int box = body_id(m, "box");
  const double mu = std::max(m.geoms[first_geom_of(m, box)].friction, m.geoms[floor_geom(m)].friction);
  if (mu < std::tan(incline_angle(m))) throw std::runtime_error("incline_box: mu < tan(phi), the box slides");
  return {"displacement down the incline", 0.0, "m", 0.0};
}

ScalarReference incline_sphere_distance(const Model& m, double duration) {
  const int ball = body_id(m, "ball");
  const Geom& g = m.geoms[first_geom_of(m, ball)];
  const double mu = std::max(g.friction, m.geoms[floor_geom(m)].friction);
  const double phi = incline_angle(m), r = g.size.x(), mass = m.bodies[ball].mass;
  const double k = m.bodies[ball].inertia_B(0, 0) / (mass * r * r);  // 2/5 for a solid ball
  if (mu < k * std::tan(phi) / (1 + k)) throw std::runtime_error("incline_sphere: mu below the rolling threshold");
  const double a = m.options.gravity.norm() * std::sin(phi) / (1 + k);
  return {"distance rolled down the incline", 0.5 * a * duration * duration, "m", 0.0};
}

ScalarReference sliding_box_distance(const Model& m, const Data& d) {
  const int box = body_id(m, "box");
  const double mu = std::max(m.geoms[first_geom_of(m, box)].friction, m.geoms[floor_geom(m)].friction);
  const double g = -m.options.gravity.z(), v0 = d.origin_velocity(m, box).x();
  return {"total sliding distance", v0 * v0 / (2 * mu * g), "m", std::abs(v0) / (mu * g)};
}

ScalarReference pendulum_period(const Model& m, const Data& d) {
  const int pole = body_id(m, "pole");
  const Swing s = swing_of(m, d, pole);
  const double theta0 = std::abs(joint_position(m, d, hinge_of(m, pole)));
  const double period = 4 * std::sqrt(s.inertia / (m.bodies[pole].mass * m.options.gravity.norm() * s.d_W.norm())) *
                        elliptic_k(std::sin(theta0 / 2));
  return {"period", period, "s", period};
}

ScalarReference four_bar_period(const Model& m, const Data& d) {
  const int crank = body_id(m, "crank"), rocker = body_id(m, "rocker"), coupler = body_id(m, "coupler");
  const Swing c = swing_of(m, d, crank), r = swing_of(m, d, rocker);
  // The coupler translates with the crank tip (its hinge anchor): a point mass
  // on a lever L from the crank pivot.
  const Joint& cj = m.joints[hinge_of(m, coupler)];
  const Vec3 tip = d.origin_position(m, coupler) + d.q_WB[coupler] * cj.anchor_B - c.pivot_W;
  const Vec3 L = tip - tip.dot(c.axis_W) * c.axis_W;
  const double m_cp = m.bodies[coupler].mass;
  const double inertia = c.inertia + r.inertia + m_cp * L.squaredNorm();
  const Vec3 moment = m.bodies[crank].mass * c.d_W + m.bodies[rocker].mass * r.d_W + m_cp * L;  // kg m
  const Vec3 down = m.options.gravity.normalized();
  const double theta0 = std::atan2(moment.cross(down).norm(), moment.dot(down));
  const double period = 4 * std::sqrt(inertia / (m.options.gravity.norm() * moment.norm())) * elliptic_k(std::sin(theta0 / 2));
  return {"period", period, "s", period};
}


}  // namespace contactlab
