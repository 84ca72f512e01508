// One arm of kamino_mechanisms on one task: the rollout and its per-step
// metrics (studies/kamino_mechanisms.hpp). Our solvers' metrics come from the
// step (core/metrics.hpp); the contact NCP group is measured again on the
// contact rows alone, as Kamino's table omits the joints from it. MuJoCo's
// state is measured with the same code: contactlab's collision pass and rows
// at the state it reached.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "contact_models/desaxce.hpp"
#include "core/metrics.hpp"
#include "core/residuals.hpp"
#include "io/scene_library.hpp"
#include "schemes/assembly.hpp"
#include "sim/peer_engine.hpp"
#include "sim/run_parameters.hpp"
#include "sim/simulation.hpp"
#include "studies/kamino_mechanisms.hpp"

namespace contactlab {

namespace {

constexpr double kSetpointHold = 0.2;  // s, one random setpoint per hip per hold

PartChoice arm_parts(const std::string& arm) {
  if (arm == "padmm") return PartChoice{"desaxce", "padmm", "velocity"};
  if (arm == "newton") return PartChoice{"fischer_burmeister", "newton", "velocity"};
  if (arm == "pgs") return PartChoice{"desaxce", "pgs", "velocity"};
  throw std::invalid_argument("kamino_mechanisms: unknown arm '" + arm + "' (padmm, newton, pgs, mujoco)");
}

void apply_setpoints(const std::vector<double>& setpoints, Data& d) {
  const int na = static_cast<int>(d.ctrl.size());
  if (setpoints.empty() || na == 0) return;
  const long rows = static_cast<long>(setpoints.size()) / na;
  const long row = std::min(rows - 1, static_cast<long>(std::floor(d.time / kSetpointHold)));
  for (int a = 0; a < na; ++a) d.ctrl[a] = setpoints[row * na + a];
}

// The metrics of one step, NaN where not measured (no contacts, or MuJoCo's impulses).
struct StepValues {
  std::array<double, kMechanismMetrics> v;
  StepValues() { v.fill(std::numeric_limits<double>::quiet_NaN()); }
};

void record(const StepValues& s, double time, MechanismSamples& out, std::ostream* csv) {
  for (int k = 0; k < kMechanismMetrics; ++k)
    if (!std::isnan(s.v[k])) out.values[k].push_back(s.v[k]);
  if (!csv) return;
  *csv << time;
  for (int k = 0; k < kMechanismMetrics; ++k) {
    *csv << ',';
    if (!std::isnan(s.v[k])) *csv << s.v[k];
  }
  *csv << '\n';
}

// Contact-only r_primal, r_dual, r_cmpl, r_vi of the step's solution, with
// buffers kept between steps.
struct ContactResiduals {
  DeSaxceModel law;  // Coulomb cones and de Saxce's shift: the same measure for every arm
  ConstraintProblem rows;
  std::vector<Real> lambda, v;
  ResidualScratch scratch;

  ConstraintResiduals operator()(const Data& d) {
    const ConstraintProblem& p = d.problem;
    const int off = p.contact_offset(), n = 3 * p.num_contacts;
    rows.num_contacts = p.num_contacts;
    rows.mu.assign(p.mu.begin(), p.mu.begin() + p.num_contacts);
    lambda.assign(d.lambda.begin() + off, d.lambda.begin() + off + n);
    v.assign(d.v_plus.begin() + off, d.v_plus.begin() + off + n);
    return constraint_residuals(rows, law, lambda, v, scratch);
  }
};

// A diverged rollout is a result (the solver's failure on that trial): it
// ends the trial, keeping the samples of the steps before.
void record_divergence(const MechanismTask& task, const std::string& arm, long step, const std::exception& e,
                       MechanismSamples& out) {
  out.diverged++;
  out.divergence = "task " + task.name + ", arm " + arm + ", step " + std::to_string(step) + ": " + e.what();
}

void run_ours(const MechanismTask& task, const std::string& arm, const std::vector<double>& setpoints,
              MechanismSamples& out, std::ostream* csv) {
  Simulation sim(load_scene(task.scene), arm_parts(arm));
  Data& d = sim.data();
  const long n = steps_for_duration(task.duration, task.dt, "task " + task.name);
  for (std::vector<double>& v : out.values) v.reserve(v.size() + n);
  out.measured.fill(true);
  ContactResiduals contact;
  for (long s = 0; s < n; ++s) {
    sim.apply_scheduled_controls();
    apply_setpoints(setpoints, d);
    try {
      sim.step(task.dt);
    } catch (const std::runtime_error& e) {
      record_divergence(task, arm, s, e, out);
      return;
    }
    const StepMetrics& mt = d.metrics;
    out.wall_s += d.solve_stats.wall_time_s;
    out.steps++;
    out.not_converged += mt.converged ? 0 : 1;
    StepValues sv;
    sv.v[0] = mt.joint_violation;
    sv.v[1] = mt.r_kin;
    if (mt.num_contacts > 0) {
      const ConstraintResiduals r = contact(d);
      sv.v[2] = mt.max_penetration;
      sv.v[3] = mt.r_v;
      sv.v[4] = r.r_primal;
      sv.v[5] = r.r_dual;
      sv.v[6] = r.r_compl;
      sv.v[7] = r.r_vi;
    }
    record(sv, d.time, out, csv);
  }
}

void run_mujoco(const MechanismTask& task, const std::vector<double>& setpoints, MechanismSamples& out,
                std::ostream* csv) {
  const Model model = load_scene(task.scene);
  const std::unique_ptr<PeerEngine> peer = make_peer_engine("mujoco", task.scene, model);
  peer->set_timestep(task.dt);
  peer->reset();
  // contactlab's world carries the controls and the state read back, and measures it.
  Simulation sim(model, PartChoice{"desaxce", "padmm", "velocity"});
  const Model& m = sim.model();
  Data& d = sim.data();
  peer->read_state(d);
  const long n = steps_for_duration(task.duration, task.dt, "task " + task.name);
  for (std::vector<double>& v : out.values) v.reserve(v.size() + n);
  out.measured = {true, true, true, true, false, false, false, false};
  const DeSaxceModel law;
  std::vector<Real> u(6 * m.num_bodies(), 0.0);
  StepMetrics mt;
  for (long s = 0; s < n; ++s) {
    sim.apply_scheduled_controls();
    apply_setpoints(setpoints, d);
    try {
      peer->step(d.ctrl);
      peer->read_state(d);
      check_finite_state(m, d);
    } catch (const std::runtime_error& e) {
      record_divergence(task, "mujoco", s, e, out);
      return;
    }
    out.steps++;
    // Touching contacts only (margin 0): MuJoCo has no speculative contacts to measure.
    detect_contacts(m, d, 0);
    compute_free_velocity(m, d, task.dt, false);
    StepValues sv;
    sv.v[0] = assemble_problem(m, d, task.dt, RowBiasOptions{});
    for (int b = 0; b < m.num_bodies(); ++b) {
      if (m.bodies[b].fixed) continue;
      for (int k = 0; k < 3; ++k) {
        u[6 * b + k] = d.v_W[b][k];
        u[6 * b + 3 + k] = d.w_W[b][k];
      }
    }
    velocity_residuals(d.problem, law, u.data(), d.residual_scratch, mt);
    sv.v[1] = mt.r_kin;
    if (!d.contacts.empty()) {
      double pen = 0;
      for (const Contact& c : d.contacts) pen = std::max(pen, static_cast<double>(-c.gap));
      sv.v[2] = pen;
      sv.v[3] = mt.r_v;
    }
    record(sv, d.time, out, csv);
  }
}

}  // namespace

const std::array<const char*, kMechanismMetrics>& mechanism_metric_names() {
  static const std::array<const char*, kMechanismMetrics> names = {"r_J",      "r_kin",  "r_C",    "r_v",
                                                                   "r_primal", "r_dual", "r_cmpl", "r_vi"};
  return names;
}

std::vector<double> random_setpoints(std::mt19937_64& rng, int actuators, double duration, double hold) {
  std::uniform_real_distribution<double> draw(-0.5, 0.5);
  const long holds = static_cast<long>(std::ceil(duration / hold)) + 1;
  std::vector<double> out(static_cast<size_t>(holds * actuators));
  for (double& x : out) x = draw(rng);
  return out;
}

void run_mechanism_arm(const MechanismTask& task, const std::string& arm, const std::vector<double>& setpoints,
                       MechanismSamples& out, std::ostream* series_csv) {
  if (arm == "mujoco")
    run_mujoco(task, setpoints, out, series_csv);
  else
    run_ours(task, arm, setpoints, out, series_csv);
}

}  // namespace contactlab
