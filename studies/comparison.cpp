#include "studies/comparison.hpp"


#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "core/kinematics.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/peer_engine.hpp"
#include "sim/run_parameters.hpp"

namespace contactlab {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// The built-in name `scene` stands for, or "" for a file (resolve_scene
// prefers an existing file of that name, and so does this).
std::string builtin_name(const std::string& scene) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(scene, ec)) return "";
  for (const std::string& n : builtin_scene_names())
    if (n == scene) return n;
  return "";
}

int body_named(const Model& m, const std::string& name) {
  const int b = m.find_body(name);
  if (b < 0) throw std::runtime_error("scene '" + m.name + "' has no body '" + name + "'");
  return b;
}

int hinge_of_body(const Model& m, int body) {
  for (size_t j = 0; j < m.joints.size(); ++j)
    if (m.joints[j].body == body && m.joints[j].type == JointType::Hinge) return static_cast<int>(j);
  throw std::runtime_error("body '" + m.bodies[body].name + "' has no hinge");
}

// Measures, step by step, the quantity of a scene's analytic reference.
class Probe {
 public:
  Probe(const std::string& scene, const Model& m, const Data& d, const ScalarReference& ref) {
    if (scene == "box_ramp" || scene == "sliding_box") {
      kind_ = Kind::DisplacementX;
      body_ = body_named(m, "box");
      start_ = d.origin_position(m, body_).x();
    } else if (scene == "incline_box" || scene == "incline_sphere") {
      kind_ = Kind::DisplacementAlong;
      body_ = body_named(m, scene == "incline_box" ? "box" : "ball");
      direction_ = incline_downhill(m);
      start_point_ = d.origin_position(m, body_);
    } else if (scene == "bouncing_ball") {
      kind_ = Kind::FirstApex;
      body_ = body_named(m, "ball");
      for (const Geom& g : m.geoms)
        if (g.body == body_) radius_ = g.size.x();
    } else if (scene == "stacked_boxes") {
      kind_ = Kind::FinalHeight;
      body_ = body_named(m, "top");
    } else if (scene == "pendulum" || scene == "four_bar") {
      kind_ = Kind::Period;
      joint_ = hinge_of_body(m, body_named(m, scene == "pendulum" ? "pole" : "crank"));
      // Turning points closer than a quarter period are solver jitter near a
      // turning point, not a new half swing.
      min_spacing_ = 0.25 * ref.value;
      w_prev_ = joint_velocity(m, d, joint_);
    } else {
      throw std::logic_error("no analytic probe for scene '" + scene + "'");
    }
  }

  void after_step(const Model& m, const Data& d, double t_prev, double h) {
    if (kind_ == Kind::FirstApex) {
      // Impact: the fall (vz < 0) turns into vz >= 0. The apex is the highest
      // gap between the first and the second impact (a ball that does not
      // rebound measures ~0).
      const double vz = d.v_W[body_].z(), gap = d.x_W[body_].z() - radius_;
      if (phase_ == 0) {
        if (vz < 0) falling_ = true;
        if (falling_ && vz >= 0) phase_ = 1, falling_ = false, apex_ = gap;
      } else if (phase_ == 1) {
        apex_ = std::max(apex_, gap);
        if (vz < 0) falling_ = true;
        if (falling_ && vz >= 0) phase_ = 2;
      }
    } else if (kind_ == Kind::Period) {
      // Turning points: sign changes of the hinge rate, interpolated linearly
      // within the step (the rate is linear in t near a turning point).
      const double w = joint_velocity(m, d, joint_);
      if (w_prev_ != 0 && w * w_prev_ <= 0 && w != w_prev_) {
        const double t = t_prev + h * w_prev_ / (w_prev_ - w);
        if (turns_.empty() || t - turns_.back() >= min_spacing_) turns_.push_back(t);
      }
      w_prev_ = w;
    }
  }

  double value(const Model& m, const Data& d) const {
    switch (kind_) {
      case Kind::DisplacementX: return d.origin_position(m, body_).x() - start_;
      case Kind::DisplacementAlong: return (d.origin_position(m, body_) - start_point_).dot(direction_);
      case Kind::FirstApex: return phase_ >= 1 ? apex_ : kNaN;
      case Kind::FinalHeight: return d.x_W[body_].z();
      case Kind::Period:
        // Successive turning points are half a period apart.
        return turns_.size() >= 2 ? 2 * (turns_.back() - turns_.front()) / (turns_.size() - 1) : kNaN;
    }
    return kNaN;
  }

 private:
  enum class Kind { DisplacementX, DisplacementAlong, FirstApex, FinalHeight, Period } kind_ = Kind::DisplacementX;
  Vec3 direction_ = Vec3::UnitX(), start_point_ = Vec3::Zero();
  int body_ = -1, joint_ = -1;
  double start_ = 0, radius_ = 0;
  int phase_ = 0;
  bool falling_ = false;
  double apex_ = 0;
  double min_spacing_ = 0, w_prev_ = 0;
  std::vector<double> turns_;
};

// Samples moving bodies' origins at multiples of `interval`.
class Sampler {
 public:
  Sampler(const Model& m, const Data& d, SampledTrajectory& out) : out_(out) {
    for (int b = 0; b < m.num_bodies(); ++b)
      if (!m.bodies[b].fixed) bodies_.push_back(b);
    out_.samples.clear();
    prev_ = positions(m, d);
    out_.samples.push_back(prev_);
  }
  void after_step(const Model& m, const Data& d, double t_prev) {
    const std::vector<Vec3> now = positions(m, d);
    const double t_now = d.time;
    while (true) {
      const double t = out_.samples.size() * out_.interval;
      if (t > t_now + 1e-9 * out_.interval) break;
      const double s = t_now > t_prev ? std::clamp((t - t_prev) / (t_now - t_prev), 0.0, 1.0) : 1.0;
      std::vector<Vec3> p(now.size());
      for (size_t i = 0; i < now.size(); ++i) p[i] = prev_[i] + s * (now[i] - prev_[i]);
      out_.samples.push_back(std::move(p));
    }
    prev_ = now;
  }

 private:
  std::vector<Vec3> positions(const Model& m, const Data& d) const {
    std::vector<Vec3> p;
    p.reserve(bodies_.size());
    for (int b : bodies_) p.push_back(d.origin_position(m, b));
    return p;
  }
  SampledTrajectory& out_;
  std::vector<int> bodies_;
  std::vector<Vec3> prev_;
};

double trajectory_distance(const SampledTrajectory& a, const SampledTrajectory& b) {
  const size_t n = std::min(a.samples.size(), b.samples.size());
  if (n == 0) return kNaN;
  double worst = 0;
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < std::min(a.samples[k].size(), b.samples[k].size()); ++i)
      worst = std::max(worst, (a.samples[k][i] - b.samples[k][i]).norm());
  return worst;
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string csv_field(const std::string& s, bool always_quote = false) {
  if (!always_quote && s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return q + "\"";
}

}  // namespace

Combo parse_combo(const std::string& text) {
  const std::vector<std::string> parts = split(text, '+');
  if (parts.size() != 3 || parts[0].empty() || parts[1].empty() || parts[2].empty())
    throw std::invalid_argument("bad combination '" + text + "': expected scheme+contact+solver (e.g. velocity+desaxce+padmm)");
  Combo c{parts[0], parts[1], parts[2]};
  // The factories throw naming the unknown part and listing the known ones.
  make_scheme(c.scheme);
  make_contact_model(c.contact);
  make_solver(c.solver);
  return c;
}

std::string combo_refusal(const Combo& c) {
  return combination_refusal(*make_scheme(c.scheme), *make_contact_model(c.contact), *make_solver(c.solver));
}

std::vector<Combo> valid_combos(std::vector<std::string>* refused) {
  std::vector<Combo> out;
  for (const PartInfo& sc : scheme_names())
    for (const PartInfo& law : contact_model_names())
      for (const PartInfo& so : solver_names()) {
        const Combo c{sc.name, law.name, so.name};
        const std::string why = combo_refusal(c);
        if (why.empty()) out.push_back(c);
        else if (refused) refused->push_back(c.label() + ": " + why);
      }
  return out;
}

ComboAtDt parse_combo_at_dt(const std::string& text) {
  const size_t at = text.rfind('@');
  if (at == std::string::npos)
    throw std::invalid_argument("bad reference '" + text + "': expected COMBO@DT (e.g. velocity+desaxce+padmm@0.0001)");
  ComboAtDt r;
  r.combo = parse_combo(text.substr(0, at));
  const std::string dt = text.substr(at + 1);
  char* end = nullptr;
  r.dt = std::strtod(dt.c_str(), &end);
  if (dt.empty() || *end != '\0' || !std::isfinite(r.dt) || r.dt <= 0)
    throw std::invalid_argument("bad time step '" + dt + "' in reference '" + text + "': expected a positive number of seconds");
  check_time_step(r.dt, "--reference " + text + ": time step");
  return r;
}

std::string scene_label(const std::string& scene) {
  const std::string builtin = builtin_name(scene);
  if (!builtin.empty()) return builtin;
  std::string stem = std::filesystem::path(scene).stem().string();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return stem.empty() ? "scene" : stem;
}

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Analytic: return "analytic";
    case ErrorKind::ReferenceRun: return "reference_run";
    case ErrorKind::None: break;
  }
  return "none";
}

std::string SceneReference::describe() const {
  switch (kind) {
    case ErrorKind::Analytic:
      return "error = |measured " + analytic.quantity + " - " + format_number(analytic.value) + " " + analytic.unit +
             "| (analytic reference), in " + analytic.unit;
    case ErrorKind::ReferenceRun:
      return "error = max over moving bodies and t = 0, " + format_number(trajectory.interval) +
             ", ... s of the origin's distance to the reference run " + run_label + ", in m" +
             (note.empty() ? "" : " (" + note + ")");
    case ErrorKind::None: break;
  }
  return "no error reference: " + note;
}

bool analytic_reference(const std::string& scene, const Model& model, double duration, ScalarReference* out,
                        std::string* note) {
  const std::string name = builtin_name(scene);
  if (name.empty()) return false;
  // The initial state (keyframe included) as every run starts from it.
  const Simulation sim(model, PartChoice{});
  const Data& d = sim.data();
  ScalarReference r;
  if (name == "box_ramp") r = box_ramp_sliding_distance(model);
  else if (name == "bouncing_ball") r = bouncing_ball_first_apex(model, d);
  else if (name == "stacked_boxes") r = stacked_boxes_rest_height(model, d);
  else if (name == "pendulum") r = pendulum_period(model, d);
  else if (name == "four_bar") r = four_bar_period(model, d);
  else if (name == "incline_box") r = incline_box_displacement(model);
  else if (name == "incline_sphere") r = incline_sphere_distance(model, duration);
  else if (name == "sliding_box") r = sliding_box_distance(model, d);
  else return false;
  // 10 % beyond the analytic event: a coarse step resolves it a few steps late.
  if (duration < 1.1 * r.settled_time) {
    if (note)
      *note = "the analytic " + r.quantity + " needs --duration >= " + format_number(1.1 * r.settled_time) +
              " s, error against a reference run instead";
    return false;
  }
  *out = r;
  return true;
}

namespace {

// How far the moving bodies got from their start: origin distance and rotation.
class MotionTracker {
 public:
  MotionTracker(const Model& m, const Data& d) {
    for (int b = 0; b < m.num_bodies(); ++b)
      if (!m.bodies[b].fixed) bodies_.push_back(b);
    for (int b : bodies_) start_p_.push_back(d.origin_position(m, b)), start_q_.push_back(d.q_WB[b]);
  }
  void after_step(const Model& m, const Data& d) {
    for (size_t i = 0; i < bodies_.size(); ++i) {
      travel_ = std::max(travel_, static_cast<double>((d.origin_position(m, bodies_[i]) - start_p_[i]).norm()));
      rotation_ = std::max(rotation_, static_cast<double>(start_q_[i].angularDistance(d.q_WB[bodies_[i]])));
    }
  }
  double travel() const { return travel_; }
  double rotation() const { return rotation_; }

 private:
  std::vector<int> bodies_;
  std::vector<Vec3> start_p_;
  std::vector<Quat> start_q_;
  double travel_ = 0, rotation_ = 0;
};

// What every run records besides its own metrics: the analytic probe or the
// sampled trajectory, and from them the run's error at the end.
class RunObservers {
 public:
  RunObservers(const SceneReference& reference, const Model& m, Data& d, SampledTrajectory* trajectory)
      : reference_(reference), trajectory_(trajectory), motion_(m, d) {
    if (reference.kind == ErrorKind::Analytic) probe_ = std::make_unique<Probe>(reference.scene, m, d, reference.analytic);
    if (reference.kind == ErrorKind::ReferenceRun || trajectory) {
      if (reference.kind == ErrorKind::ReferenceRun) local_.interval = reference.trajectory.interval;
      sampler_ = std::make_unique<Sampler>(m, d, trajectory ? *trajectory : local_);
    }
  }
  void after_step(const Model& m, const Data& d, double t_prev, double dt) {
    if (probe_) probe_->after_step(m, d, t_prev, dt);
    if (sampler_) sampler_->after_step(m, d, t_prev);
    motion_.after_step(m, d);
    steps_ = true;
  }
  // travel and rotation so far (also of a run that failed on a later step).
  void record_motion(ComparisonRun& r) const {
    if (!steps_) return;
    r.travel = motion_.travel();
    r.rotation = motion_.rotation();
  }
  // Sets simulated_time, error_kind, measured and error of a run that completed.
  void finish(ComparisonRun& r, const Model& m, const Data& d) {
    r.simulated_time = d.time;
    r.error_kind = reference_.kind;
    record_motion(r);
    if (probe_) {
      r.measured = probe_->value(m, d);
      r.error = std::abs(r.measured - reference_.analytic.value);
    } else if (reference_.kind == ErrorKind::ReferenceRun) {
      r.error = trajectory_distance(trajectory_ ? *trajectory_ : local_, reference_.trajectory);
    }
    r.ok = true;
  }

 private:
  const SceneReference& reference_;
  SampledTrajectory* trajectory_;
  SampledTrajectory local_;
  std::unique_ptr<Probe> probe_;
  std::unique_ptr<Sampler> sampler_;
  MotionTracker motion_;
  bool steps_ = false;
};

void mark_failed(ComparisonRun& r, const std::exception& e, double dt) {
  r.ok = false;
  r.message = e.what();
  r.error_kind = ErrorKind::None;
  r.simulated_time = r.steps * dt;
}

void set_averages(ComparisonRun& r, double wall, double iterations) {
  r.wall_per_step = r.steps ? wall / r.steps : 0;
  r.wall_per_sim = r.simulated_time > 0 ? wall / r.simulated_time : 0;
  r.mean_iterations = r.steps ? iterations / r.steps : 0;
}

}  // namespace

ComparisonRun run_comparison(const Model& model, const std::string& scene, const Combo& combo, double dt,
                             double duration, const SceneReference& reference, SampledTrajectory* trajectory) {
  ComparisonRun r;
  r.scene = scene_label(scene);
  r.combo = combo.label();
  r.dt = dt;
  double wall = 0, iterations = 0, solve = 0;
  try {
    if (!(dt > 0) || !std::isfinite(dt)) throw std::invalid_argument("time step must be positive");
    Simulation sim(model, combo.parts());
    const Model& m = sim.model();
    Data& d = sim.data();
    d.solve_stats.record_history = true;  // cheap next to a solve; copied out below only on a new maximum
    const long n = std::max(1L, steps_for_duration(duration, dt, "a duration of " + std::to_string(duration) + " s"));
    RunObservers observers(reference, m, d, trajectory);

    for (long s = 0; s < n; ++s) {
      sim.apply_scheduled_controls();
      const double t_prev = d.time;
      const auto t0 = std::chrono::steady_clock::now();
      sim.step(dt);
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const StepMetrics& mt = d.metrics;
      r.steps++;
      iterations += mt.iterations;
      r.not_converged += mt.converged ? 0 : 1;
      r.max_iterations = std::max(r.max_iterations, mt.iterations);
      r.max_r_vi = std::max(r.max_r_vi, static_cast<double>(mt.r_vi));
      r.max_penetration = std::max(r.max_penetration, static_cast<double>(mt.max_penetration));
      r.max_joint_violation = std::max(r.max_joint_violation, static_cast<double>(mt.joint_violation));
      solve += d.solve_stats.wall_time_s;
      if (r.residual_step == 0 || mt.iterations > r.residual_iterations) {
        r.residual_step = d.step;
        r.residual_iterations = mt.iterations;
        r.residual_history.assign(d.solve_stats.residual_history.begin(), d.solve_stats.residual_history.end());
      }
      observers.after_step(m, d, t_prev, dt);
    }
    observers.finish(r, m, d);
  } catch (const std::exception& e) {
    mark_failed(r, e, dt);
  }
  set_averages(r, wall, iterations);
  r.solve_per_step = r.steps ? solve / r.steps : 0;
  return r;
}

ComparisonRun run_peer_comparison(const Model& model, const std::string& scene, double dt, double duration,
                                  const SceneReference& reference, SampledTrajectory* trajectory) {
  ComparisonRun r;
  r.scene = scene_label(scene);
  r.combo = "mujoco";
  r.dt = dt;
  double wall = 0, iterations = 0;
  try {
    if (!(dt > 0) || !std::isfinite(dt)) throw std::invalid_argument("time step must be positive");
    const std::unique_ptr<PeerEngine> engine = make_peer_engine("mujoco", resolve_scene(scene), model);
    PeerEngine& peer = *engine;
    r.combo = peer.label();
    peer.set_timestep(dt);
    peer.reset();
    // contactlab's world only carries the control schedule and the state read back.
    Simulation sim(model, PartChoice{"desaxce", "padmm", "velocity"});
    const Model& m = sim.model();
    Data& d = sim.data();
    peer.read_state(d);
    const long n = std::max(1L, steps_for_duration(duration, dt, "a duration of " + std::to_string(duration) + " s"));
    RunObservers observers(reference, m, d, trajectory);
    for (long s = 0; s < n; ++s) {
      sim.apply_scheduled_controls();
      const double t_prev = d.time;
      const auto t0 = std::chrono::steady_clock::now();
      peer.step(d.ctrl);
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      peer.read_state(d);
      check_finite_state(m, d);  // as contactlab's own runs: a failed row naming the step and body
      r.steps++;
      iterations += peer.solver_iterations();
      r.max_iterations = std::max(r.max_iterations, peer.solver_iterations());
      r.max_penetration = std::max(r.max_penetration, peer.max_penetration());
      observers.after_step(m, d, t_prev, dt);
    }
    observers.finish(r, m, d);
  } catch (const std::exception& e) {
    mark_failed(r, e, dt);
  }
  set_averages(r, wall, iterations);
  return r;
}

std::vector<UsableStep> usable_steps(const std::vector<ComparisonRun>& runs) {
  std::vector<UsableStep> out;
  for (const ComparisonRun& r : runs) {
    if (std::none_of(out.begin(), out.end(), [&](const UsableStep& u) { return u.combo == r.combo; }))
      out.push_back(UsableStep{r.combo});
  }
  for (UsableStep& u : out) {
    for (const ComparisonRun& r : runs)
      if (r.combo == u.combo && r.ok && std::isfinite(r.error) && !(r.error >= u.floor)) u.floor = r.error;
    if (!std::isfinite(u.floor)) continue;
    for (const ComparisonRun& r : runs)
      if (r.combo == u.combo && r.ok && std::isfinite(r.error) && r.error <= 2 * u.floor && !(r.dt <= u.dt)) {
        u.dt = r.dt;
        u.wall_per_sim = r.wall_per_sim;
      }
  }
  return out;
}

bool is_dt_sweep(const std::vector<double>& dts) {
  std::vector<double> d(dts);
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  if (d.size() < 4) return false;
  const double max_ratio = std::pow(10.0, 0.25) * (1 + 1e-9);  // rounding of e.g. 1.5 x 1e-3
  for (size_t i = 1; i < d.size(); ++i)
    if (d[i] > max_ratio * d[i - 1]) return false;
  return true;
}

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string format_short(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

void flag_runs(std::vector<ComparisonRun*> runs, const FlagThresholds& thresholds) {
  // Below these a scene is at rest (a settling stack moves ~1e-7 m, a sliding
  // box turns ~1e-5 rad by solver noise): no
  // "did not move" where nothing is expected to.
  constexpr double kRestTravel = 1e-6, kRestRotation = 1e-3;  // m, rad
  std::vector<double> travels, rotations;
  for (const ComparisonRun* r : runs)
    if (r->ok && std::isfinite(r->travel)) travels.push_back(r->travel), rotations.push_back(r->rotation);
  const double typical_travel = median(travels), typical_rotation = median(rotations);
  const bool scene_moves = typical_travel > kRestTravel || typical_rotation > kRestRotation;
  for (ComparisonRun* r : runs) {
    r->flags.clear();
    if (!r->ok) continue;
    std::vector<std::string> f;
    if (r->not_converged > 0)
      f.push_back("not converged on " + std::to_string(r->not_converged) + " of " + std::to_string(r->steps) +
                  " steps");
    const bool still_t = !(typical_travel > kRestTravel) || r->travel < thresholds.still_fraction * typical_travel;
    const bool still_r =
        !(typical_rotation > kRestRotation) || r->rotation < thresholds.still_fraction * typical_rotation;
    if (scene_moves && std::isfinite(r->travel) && still_t && still_r) f.push_back("did not move");
    if (r->max_penetration > thresholds.penetration)
      f.push_back("penetration " + format_short(r->max_penetration) + " m > " + format_short(thresholds.penetration) +
                  " m");
    for (size_t i = 0; i < f.size(); ++i) r->flags += (i ? "; " : "") + f[i];
  }
}

SceneComparison compare_scene(const std::string& scene, const CompareSettings& settings,
                              const std::function<void(const ComparisonRun&)>& on_run) {
  for (double dt : settings.dts)
    if (!(dt > 0) || !std::isfinite(dt)) throw std::invalid_argument("time steps must be positive");
  for (double f : settings.dt_factors)
    if (!(f > 0) || !std::isfinite(f)) throw std::invalid_argument("time step factors must be positive");
  ComboAtDt explicit_reference;
  if (!settings.reference.empty()) explicit_reference = parse_combo_at_dt(settings.reference);

  SceneComparison sc;
  sc.scene = scene;
  sc.label = scene_label(scene);
  Model model;
  std::string load_error;
  try {
    MjcfLoadOptions load_options;
    load_options.allow_unsupported = settings.allow_unsupported;
    model = load_mjcf_file(resolve_scene(scene), load_options);
    model.validate();
  } catch (const std::exception& e) {
    load_error = e.what();
  }
  sc.dts = settings.dts;
  if (sc.dts.empty() && load_error.empty())
    for (double f : settings.dt_factors) sc.dts.push_back(f * model.options.timestep);
  if (!load_error.empty()) {
    // Reported run by run, like any other failure.
    sc.reference.note = "scene not loaded";
    for (double dt : sc.dts.empty() ? std::vector<double>{0.0} : sc.dts)
      for (const Combo& c : settings.combos) {
        ComparisonRun r;
        r.scene = sc.label;
        r.combo = c.label();
        r.dt = dt;
        r.message = load_error;
        sc.runs.push_back(r);
        if (on_run) on_run(r);
      }
    return sc;
  }
  sc.duration = settings.duration >= 0 ? settings.duration : model.default_duration;

  ScalarReference analytic;
  std::string note;
  bool has_analytic = false;
  try {
    has_analytic = analytic_reference(scene, model, sc.duration, &analytic, &note);
  } catch (const std::exception& e) {
    note = std::string("analytic reference unavailable (") + e.what() + ")";
  }
  if (has_analytic) {
    sc.reference.kind = ErrorKind::Analytic;
    sc.reference.scene = builtin_name(scene);
    sc.reference.analytic = analytic;
  } else {
    ComboAtDt ref = explicit_reference;
    if (settings.reference.empty()) {
      ref.combo = Combo{"velocity", "desaxce", "padmm"};
      ref.dt = *std::min_element(sc.dts.begin(), sc.dts.end()) / 10;
    }
    char label[160];
    std::snprintf(label, sizeof label, "%s@%g", ref.combo.label().c_str(), ref.dt);
    SampledTrajectory trajectory;
    sc.reference_run = run_comparison(model, scene, ref.combo, ref.dt, sc.duration, SceneReference{}, &trajectory);
    if (on_run) on_run(sc.reference_run);
    if (sc.reference_run.ok) {
      sc.reference.kind = ErrorKind::ReferenceRun;
      sc.reference.run_label = label;
      sc.reference.trajectory = std::move(trajectory);
      sc.reference.note = note;
    } else {
      sc.reference.note = (note.empty() ? "" : note + "; ") + "the reference run " + label +
                          " failed: " + sc.reference_run.message;
    }
  }

  for (double dt : sc.dts) {
    for (const Combo& c : settings.combos) {
      sc.runs.push_back(run_comparison(model, scene, c, dt, sc.duration, sc.reference));
      if (on_run) on_run(sc.runs.back());
    }
    if (settings.peer_mujoco) {
      sc.runs.push_back(run_peer_comparison(model, scene, dt, sc.duration, sc.reference));
      if (on_run) on_run(sc.runs.back());
    }
  }
  std::vector<ComparisonRun*> all;
  if (sc.reference_run.steps > 0) all.push_back(&sc.reference_run);
  for (ComparisonRun& r : sc.runs) all.push_back(&r);
  flag_runs(all, settings.flags);
  return sc;
}

const char* const kRunsCsvHeader =
    "scene,combo,dt,steps,wall_per_step_s,wall_per_sim_s,mean_iterations,max_iterations,not_converged,max_r_vi,"
    "max_penetration,max_joint_violation,error,error_kind,status,solve_per_step_s,measured,travel_m,rotation_rad,"
    "flags";

void write_runs_csv(std::ostream& out, const std::vector<SceneComparison>& scenes) {
  out << kRunsCsvHeader << "\n";
  for (const SceneComparison& sc : scenes)
    for (const ComparisonRun& r : sc.runs) {
      const bool stats = r.steps > 0;  // a run refused before its first step has no statistics
      auto num = [&](double v) { return stats ? csv_number(v) : std::string(); };
      out << csv_field(r.scene) << ',' << csv_field(r.combo) << ',' << csv_number(r.dt) << ',' << r.steps << ','
          << num(r.wall_per_step) << ',' << num(r.wall_per_sim) << ',' << num(r.mean_iterations) << ','
          << (stats ? std::to_string(r.max_iterations) : "") << ',' << (stats ? std::to_string(r.not_converged) : "")
          << ',' << num(r.max_r_vi) << ',' << num(r.max_penetration) << ',' << num(r.max_joint_violation) << ','
          << (r.ok ? csv_number(r.error) : "") << ',' << to_string(r.ok ? r.error_kind : ErrorKind::None) << ','
          << (r.ok ? "ok" : csv_field("failed: " + r.message, true)) << ',' << num(r.solve_per_step) << ','
          << (r.ok && std::isfinite(r.measured) ? csv_number(r.measured) : "") << ','
          << (std::isfinite(r.travel) ? csv_number(r.travel) : "") << ','
          << (std::isfinite(r.rotation) ? csv_number(r.rotation) : "") << ','
          << (r.flags.empty() ? "" : csv_field(r.flags, true)) << "\n";
    }
}

std::vector<size_t> representative_runs(const SceneComparison& scene) {
  std::vector<std::string> solvers;
  std::vector<size_t> best;
  for (size_t i = 0; i < scene.runs.size(); ++i) {
    const ComparisonRun& r = scene.runs[i];
    if (r.residual_history.empty()) continue;
    const std::string solver = r.combo.substr(r.combo.rfind('+') + 1);
    const auto it = std::find(solvers.begin(), solvers.end(), solver);
    if (it == solvers.end()) {
      solvers.push_back(solver);
      best.push_back(i);
    } else if (r.residual_iterations > scene.runs[best[it - solvers.begin()]].residual_iterations) {
      best[it - solvers.begin()] = i;
    }
  }
  return best;
}

void write_residuals_csv(std::ostream& out, const SceneComparison& scene) {
  out << "solver,combo,dt,step,iteration,residual\n";
  for (size_t i : representative_runs(scene)) {
    const ComparisonRun& r = scene.runs[i];
    const std::string solver = r.combo.substr(r.combo.rfind('+') + 1);
    const size_t n = r.residual_history.size();
    for (size_t k = 0; k < n; ++k) {
      // A solver that checks its residual every few iterations (PGS
      // check_interval) records fewer entries than iterations: spread them.
      const long iteration = n == static_cast<size_t>(r.residual_iterations)
                                 ? static_cast<long>(k + 1)
                                 : std::lround(double(k + 1) * r.residual_iterations / n);
      out << solver << ',' << r.combo << ',' << csv_number(r.dt) << ',' << r.residual_step << ',' << iteration << ','
          << csv_number(r.residual_history[k]) << "\n";
    }
  }
}

}  // namespace contactlab
