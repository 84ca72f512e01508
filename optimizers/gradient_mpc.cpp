#include "optimizers/gradient_mpc.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "optimizers/control_objective.hpp"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

// The planner's world starts where the plant is: bodies, controls and time
// (its step counter stays 0, which the planned control table is keyed on).
void copy_plant_state(const Data& plant, Data& planner) {
  planner.x_W = plant.x_W;
  planner.q_WB = plant.q_WB;
  planner.v_W = plant.v_W;
  planner.w_W = plant.w_W;
  planner.ctrl = plant.ctrl;
  planner.time = plant.time;
}

}  // namespace

void GradientMpcOptions::Validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("GradientMpcOptions: " + what); };
  if (horizon < 1) bad("horizon must be >= 1");
  if (!(plan_dt > 0 && std::isfinite(plan_dt))) bad("plan_dt must be > 0");
  if (!(plant_dt > 0 && plant_dt <= plan_dt)) bad("plant_dt must be in (0, plan_dt]");
  const double ratio = plan_dt / plant_dt;
  if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio)
    bad("plan_dt (" + std::to_string(plan_dt) + " s) must be an integer multiple of plant_dt (" +
        std::to_string(plant_dt) + " s)");
  if (iterations < 0) bad("iterations must be >= 0");
  if (candidates < 1) bad("candidates must be >= 1");
  if (!(candidate_noise >= 0)) bad("candidate_noise must be >= 0");
  if (!(final_fraction >= 0 && final_fraction <= 1)) bad("final_fraction must be in [0, 1]");
  if (!(effort_weight >= 0)) bad("effort_weight must be >= 0");
  if (blocks.empty() && !(step > 0 && std::isfinite(step))) bad("step must be > 0");
  for (const ActuatorBlock& b : blocks) {
    if (b.actuators.empty()) bad("block '" + b.name + "' has no actuators");
    if (!(b.step > 0 && std::isfinite(b.step))) bad("block '" + b.name + "' step must be > 0");
  }
  adjoint.Validate();
}

struct GradientMpc::Impl {
  GradientMpcOptions options;
  std::vector<int> actuators;
  std::vector<Real> lo, hi;                 // per planned actuator (+-inf when not limited)
  std::vector<std::vector<int>> block_of;   // per block: columns (planned actuator slots)
  std::vector<Real> block_step;
  MatX warm;                                // H x planned actuators
  const Data* plant = nullptr;              // the state the next rollouts start from
  std::unique_ptr<ControlObjective> objective;
  std::mt19937_64 rng;

  int na() const { return static_cast<int>(actuators.size()); }
  int H() const { return options.horizon; }
  // Knots are actuator-major (ControlSpline): knot (a, t) at a * H + t.
  VecX pack(const MatX& u) const {
    VecX x(na() * H());
    for (int a = 0; a < na(); ++a)
      for (int t = 0; t < H(); ++t) x[a * H() + t] = u(t, a);
    return x;
  }
  void clamp(VecX& x) const {
    for (int a = 0; a < na(); ++a)
      for (int t = 0; t < H(); ++t) x[a * H() + t] = std::min(std::max(x[a * H() + t], lo[a]), hi[a]);
  }
  // Loss at x (+inf when the rollout diverges), with the gradient when asked.
  Real loss(const VecX& x, VecX* g) const {
    try {
      const Real l = objective->evaluate(x, g).loss;
      return std::isfinite(l) && (!g || g->allFinite()) ? l : std::numeric_limits<Real>::infinity();
    } catch (const std::runtime_error&) {
      return std::numeric_limits<Real>::infinity();
    }
  }
};

GradientMpc::GradientMpc(RolloutSpec spec, std::string loss, std::vector<std::string> actuator_names,
                         GradientMpcOptions options, VecX initial)
    : impl_(std::make_unique<Impl>()) {
  options.Validate();
  Impl& m = *impl_;
  m.options = options;
  m.rng.seed(options.seed);
  if (!spec.model) throw std::invalid_argument("GradientMpc: the spec has no model");
  const Model& model = *spec.model;
  if (actuator_names.empty())
    for (const Actuator& a : model.actuators) actuator_names.push_back(a.name);
  spec.dt = options.plan_dt;
  spec.duration.reset();
  spec.steps = options.horizon;
  ControlSpline spline(model, actuator_names, options.horizon, options.horizon);  // one knot per step: u_t = P_t
  m.actuators = spline.actuators();
  for (int idx : m.actuators) {
    const Actuator& a = model.actuators[idx];
    m.lo.push_back(a.ctrl_limited ? a.ctrl_lo : -std::numeric_limits<Real>::infinity());
    m.hi.push_back(a.ctrl_limited ? a.ctrl_hi : std::numeric_limits<Real>::infinity());
  }
  auto slot_of = [&](const std::string& name) {
    const int idx = model.find_actuator(name);
    for (int s = 0; s < m.na(); ++s)
      if (m.actuators[s] == idx) return s;
    throw std::invalid_argument("GradientMpc: block actuator '" + name + "' is not a planned actuator");
  };
  std::vector<int> covered(m.na(), 0);
  if (options.blocks.empty()) {
    m.block_of.emplace_back();
    for (int s = 0; s < m.na(); ++s) m.block_of.back().push_back(s), covered[s] = 1;
    m.block_step.push_back(options.step);
  }
  for (const ActuatorBlock& b : options.blocks) {
    m.block_of.emplace_back();
    for (const std::string& name : b.actuators) {
      const int s = slot_of(name);
      if (covered[s]++) throw std::invalid_argument("GradientMpc: actuator '" + name + "' is in two blocks");
      m.block_of.back().push_back(s);
    }
    m.block_step.push_back(b.step);
  }
  for (int s = 0; s < m.na(); ++s)
    if (!covered[s])
      throw std::invalid_argument("GradientMpc: actuator '" + model.actuators[m.actuators[s]].name +
                                  "' is in no block");
  if (initial.size() != 0 && initial.size() != m.na())
    throw std::invalid_argument("GradientMpc: the initial control has " + std::to_string(initial.size()) +
                                " values, there are " + std::to_string(m.na()) + " planned actuators");
  m.warm = MatX::Zero(options.horizon, m.na());
  for (int a = 0; a < m.na(); ++a)
    m.warm.col(a).setConstant(std::min(std::max(initial.size() ? initial[a] : Real(0), m.lo[a]), m.hi[a]));

  ControlObjectiveOptions oo;
  oo.effort_weight = options.effort_weight;
  oo.adjoint = options.adjoint;
  oo.hooks.edit_initial_state = [&m](const Model&, Data& d) {
    if (m.plant) copy_plant_state(*m.plant, d);
  };
  m.objective = std::make_unique<ControlObjective>(std::move(spec), loss, std::move(spline), oo);
}

GradientMpc::~GradientMpc() = default;
GradientMpc::GradientMpc(GradientMpc&&) noexcept = default;

const MatX& GradientMpc::warm_start() const { return impl_->warm; }
const std::vector<int>& GradientMpc::actuators() const { return impl_->actuators; }
const GradientMpcOptions& GradientMpc::options() const { return impl_->options; }

VecX GradientMpc::plan(const Data& plant, MpcCycle* report) {
  Impl& m = *impl_;
  const auto t0 = Clock::now();
  m.plant = &plant;
  const GradientMpcOptions& o = m.options;
  const VecX x0 = m.pack(m.warm);
  long rollouts = 1;
  const Real warm_loss = m.loss(x0, nullptr);
  Real best = warm_loss;
  VecX best_x = x0;
  int best_candidate = 0;
  std::normal_distribution<Real> noise(0, 1);
  VecX x, g;
  for (int c = 0; c < o.candidates; ++c) {
    x = x0;
    if (c > 0) {
      for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += o.candidate_noise * noise(m.rng);
      m.clamp(x);
    }
    for (int i = 0; i <= o.iterations; ++i) {
      const bool last = i == o.iterations;  // the final iterate: its loss only
      const Real l = m.loss(x, last ? nullptr : &g);
      ++rollouts;
      if (l < best) best = l, best_x = x, best_candidate = c;
      if (last || !std::isfinite(l)) break;  // a diverged rollout gives no direction
      const Real decay = o.final_fraction + (1 - o.final_fraction) * (1 + std::cos(kPi * i / o.iterations)) / 2;
      for (size_t b = 0; b < m.block_of.size(); ++b) {
        Real norm2 = 0;
        for (int a : m.block_of[b]) norm2 += g.segment(a * m.H(), m.H()).squaredNorm();
        if (!(norm2 > 0)) continue;
        const Real scale = m.block_step[b] * decay / std::sqrt(norm2);
        for (int a : m.block_of[b]) x.segment(a * m.H(), m.H()) -= scale * g.segment(a * m.H(), m.H());
      }
      m.clamp(x);
    }
  }
  m.plant = nullptr;
  if (!std::isfinite(best))
    throw std::runtime_error("GradientMpc: every planned rollout diverged (warm start included) at t = " +
                             std::to_string(plant.time) + " s");
  VecX applied(m.na());
  for (int a = 0; a < m.na(); ++a) {
    applied[a] = best_x[a * m.H()];
    // Shift: drop the applied control, repeat the last.
    for (int t = 0; t + 1 < m.H(); ++t) m.warm(t, a) = best_x[a * m.H() + t + 1];
    m.warm(m.H() - 1, a) = best_x[a * m.H() + m.H() - 1];
  }
  if (report) {
    report->time = plant.time;
    report->plan_loss = best;
    report->warm_loss = warm_loss;
    report->best_candidate = best_candidate;
    report->plan_s = std::chrono::duration<double>(Clock::now() - t0).count();
    report->rollouts = rollouts;
    report->applied = applied;
  }
  return applied;
}

MpcRunResult run_mpc(GradientMpc& mpc, PreparedRollout& plant, int cycles,
                     const std::function<bool(const MpcCycle&, const Data&)>& after_cycle) {
  const GradientMpcOptions& o = mpc.options();
  if (std::abs(plant.h - o.plant_dt) > 1e-12 * o.plant_dt)
    throw std::invalid_argument("run_mpc: the plant steps at " + std::to_string(plant.h) + " s, the options say " +
                                std::to_string(o.plant_dt) + " s");
  if (cycles < 0) throw std::invalid_argument("run_mpc: cycles must be >= 0");
  const long substeps = std::lround(o.plan_dt / o.plant_dt);
  MpcRunResult out;
  out.cycles.reserve(cycles);
  for (int c = 0; c < cycles; ++c) {
    MpcCycle rep;
    rep.cycle = c;
    const VecX u = mpc.plan(plant.sim.data(), &rep);
    for (long s = 0; s < substeps; ++s) {
      plant.sim.apply_scheduled_controls();
      plant.controls.apply(plant.sim.data());
      for (size_t a = 0; a < mpc.actuators().size(); ++a) plant.sim.data().ctrl[mpc.actuators()[a]] = u[a];
      plant.sim.step(plant.h);
    }
    out.cycles.push_back(rep);
    if (after_cycle && !after_cycle(out.cycles.back(), plant.sim.data())) {
      out.stopped_early = true;
      break;
    }
  }
  return out;
}

}  // namespace contactlab
