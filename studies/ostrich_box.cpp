// Study `ostrich_box`: Ostrich's control synthesis over the box (Kucera &
// Zimmermann, Fig. 4; ../shared/docs/STUDIES.md 1.4 and 1.5). The built-in
// `wheeled_pallet` robot starts from a perturbed pose and must drive over the
// step box to a random target pose at x = 3 m and stop there in 6 s. Decision
// variables: a 10-knot Catmull-Rom spline of the velocity command per wheel
// (30 parameters), optimised by Adam (lr 0.3) from a noisy constant forward
// command, or by evolution strategies on the same forward pass.
//
// Loss (the suggested weights of STUDIES.md 1.4, final state only):
//   |p_T - p*|^2 + 2 |n_T - n*|^2 + 0.5 |v_T|^2 + 1e-4 |knots|^2,
// p the chassis origin (target height 0.35 m, the axle height on the floor),
// n a "nose" site 0.5 m ahead of it: 2 |n - n*|^2 = 2 (2 * 0.5 sin(dpsi/2))^2
// ~ 0.5 dpsi^2, the heading term for small errors, here without a wrap at
// +-pi. The per-step straight-line term is not included (losses act on the
// final state only, adjoints/loss.hpp); docs/studies.md says so.
//
// Success (the paper's gate): horizontal distance of the chassis origin to the
// target < 0.2 m and chassis speed < 0.3 m/s, at the best iterate.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "core/math.hpp"
#include "io/number_text.hpp"
#include "io/output_file.hpp"
#include "io/scene_library.hpp"
#include "optimizers/adam.hpp"
#include "optimizers/control_objective.hpp"
#include "optimizers/evolution_strategies.hpp"
#include "studies/comparison_plot.hpp"
#include "studies/ostrich_box_plots.hpp"
#include "studies/sample_quantile.hpp"
#include "studies/study.hpp"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kHorizon = 6.0;     // s
constexpr int kKnots = 10;           // per wheel
constexpr double kRideHeight = 0.35; // m, chassis origin above the floor on its wheels
constexpr double kNose = 0.5;        // m, the heading site ahead of the chassis origin
constexpr double kKnotWeight = 1e-4;
constexpr double kInitialCommand = 1.5;  // rad/s: 0.525 m/s, 3.15 m in 6 s on flat ground
constexpr double kInitialNoise = 0.1;    // rad/s, per knot
constexpr double kErrorGate = 0.2, kSpeedGate = 0.3;  // m, m/s
// The loss an optimiser sees for a rollout that diverged (the simulation
// threw, or the loss is not finite), with a zero gradient: the optimisers
// refuse non-finite values, and this is above any finite loss of the task
// (the robot cannot end 1000 m from the target in 6 s), so the best iterate
// is never a diverged one. Counted as diverged_rollouts.
constexpr double kDivergedLoss = 1e6;

const char* const kWheels[] = {"drive_left", "drive_right", "drive_rear"};

struct ArmSetup {
  std::string scheme = "backward_euler", contact = "fischer_burmeister", solver = "newton";
  double dt = 0.1;
  bool evolution = false;
  StepAdjointOptions adjoint;
};

ArmSetup arm_setup(const std::string& arm) {
  ArmSetup a;
  if (arm == "kamino_2ms" || arm == "kamino_10ms") {
    a.scheme = "velocity";
    a.contact = "desaxce";
    a.solver = "padmm";
    a.dt = arm == "kamino_2ms" ? 0.002 : 0.01;
  } else if (arm == "central_path") {
    a.adjoint.sensitivity.kind = SensitivityKind::CentralPath;
  } else if (arm == "signorini") {
    a.adjoint.sensitivity.kind = SensitivityKind::Signorini;
  } else if (arm == "truncated") {
    a.adjoint.truncated = true;
  } else if (arm == "ostrich_adjoint") {
    a.adjoint.geometric_stiffness = false;  // Ostrich's E_delta = I adjoint
  } else if (arm == "es") {
    a.evolution = true;
  } else if (arm != "ostrich") {
    throw std::invalid_argument("ostrich_box: unknown arm '" + arm + "'");
  }
  return a;
}

// A trial's random draws (STUDIES.md 1.4's suggested distributions).
struct TrialDraw {
  double dx = 0, dy = 0, yaw0 = 0;          // start offset (m) and heading (rad)
  double target_y = 0, target_yaw = 0;      // target at x = 3 m
  VecX knots;                               // the initial guess
};

TrialDraw draw_trial(std::mt19937_64 rng, int parameters) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> n(0, 1);
  TrialDraw d;
  d.dx = 0.2 * u(rng);
  d.dy = 0.2 * u(rng);
  d.yaw0 = 10 * kPi / 180 * u(rng);
  d.target_y = 0.5 * u(rng);
  d.target_yaw = 30 * kPi / 180 * u(rng);
  d.knots.resize(parameters);
  for (int i = 0; i < parameters; ++i) d.knots[i] = kInitialCommand + kInitialNoise * n(rng);
  return d;
}

// The scene with the robot moved rigidly to the drawn start pose (every body
// moves with the chassis, so the joints stay closed) and a "nose" site.
std::shared_ptr<const Model> trial_model(const Model& base, const TrialDraw& d) {
  Model m = base;
  const int chassis = m.find_body("chassis");
  if (chassis < 0) throw std::runtime_error("ostrich_box: the scene has no body 'chassis'");
  const Vec3 pivot = m.bodies[chassis].pos0_W;
  const Quat turn(Eigen::AngleAxis<Real>(d.yaw0, Vec3::UnitZ()));
  const Vec3 shift(d.dx, d.dy, 0);
  for (Body& b : m.bodies) {
    if (b.fixed) continue;
    b.pos0_W = pivot + shift + turn * (b.pos0_W - pivot);
    b.quat0_WB = (turn * b.quat0_WB).normalized();
  }
  Site nose;
  nose.name = "nose";
  nose.body = chassis;
  nose.pos_B = Vec3(kNose, 0, 0);
  m.sites.push_back(nose);
  return std::make_shared<const Model>(std::move(m));
}

struct Target {
  Vec3 p, nose;
};

Target target_of(const TrialDraw& d) {
  Target t;
  t.p = Vec3(3.0, d.target_y, kRideHeight);
  t.nose = t.p + kNose * Vec3(std::cos(d.target_yaw), std::sin(d.target_yaw), 0);
  return t;
}

std::string vec_text(const Vec3& v) {
  return shortest_text(v.x()) + "," + shortest_text(v.y()) + "," + shortest_text(v.z());
}

std::string loss_text(const Target& t) {
  return "sumsq:chassis.pos=" + vec_text(t.p) + "+2*sumsq:site.nose.pos=" + vec_text(t.nose) +
         "+0.5*sumsq:chassis.vel=0,0,0";
}

// The gate's two numbers of a final state.
struct FinalState {
  double error = std::numeric_limits<double>::infinity();  // m, horizontal
  double speed = std::numeric_limits<double>::infinity();  // m/s
  bool success() const { return error < kErrorGate && speed < kSpeedGate; }
};

FinalState final_state(const Model& model, const Data& data, const Target& t) {
  const int c = model.find_body("chassis");
  const Vec3 p = data.origin_position(model, c);
  FinalState f;
  f.error = std::hypot(p.x() - t.p.x(), p.y() - t.p.y());
  f.speed = data.origin_velocity(model, c).norm();
  return f;
}

// What one trial of one arm produced.
struct TrialResult {
  TrialDraw draw;
  FinalState best;                 // at the best iterate
  double best_loss = 0;
  long rollouts = 0;               // forward passes, population and line evaluations included
  long rollouts_to_success = -1;   // at the first iterate that passes the gate (-1: none)
  long diverged = 0;               // rollouts that threw (loss +inf, gradient 0)
  long nonfinite_gradients = 0;    // gradient entries zeroed
  double seconds = 0;              // optimisation wall time
  int iterations = 0;
  std::vector<IterationRecord> history;
  std::vector<long> history_rollouts;  // rollouts spent up to each history row
  PathRecord path;                 // the best iterate's rollout
};

// Replays the best iterate's controls step by step for its path and solver statistics.
PathRecord replay(const ControlObjective& objective, const VecX& knots) {
  PreparedRollout r = objective.prepare(knots);
  PathRecord p;
  const Model& m = r.sim.model();
  const int c = m.find_body("chassis");
  for (long s = 0; s <= r.steps; ++s) {
    const Data& d = r.sim.data();
    const Vec3 o = d.origin_position(m, c);
    const Vec3 fwd = d.q_WB[c] * Vec3::UnitX();
    p.t.push_back(s * r.h);
    p.x.push_back(o.x());
    p.y.push_back(o.y());
    p.yaw.push_back(std::atan2(fwd.y(), fwd.x()));
    if (s == r.steps) break;
    r.sim.apply_scheduled_controls();
    r.controls.apply(r.sim.data());
    r.sim.step(r.h);
    p.unconverged += r.sim.data().metrics.converged ? 0 : 1;
    p.max_penetration = std::max<double>(p.max_penetration, r.sim.data().metrics.max_penetration);
  }
  return p;
}

// The paper's 50 Adam iterations; the short scale takes 10 (one trial per
// arm by default) to stay within two minutes here.
int iterations_for(const StudyContext& ctx) { return ctx.full() ? 50 : 10; }
// The small-step arms tape 600 or 3000 steps: at the paper's scale they run
// 5 trials (the first 5 of the others'; STUDIES.md 1.4's CPU note) unless
// --trials asks otherwise.
int trials_for(const StudyContext& ctx, const std::string& arm) {
  const bool small_step = arm == "kamino_2ms" || arm == "kamino_10ms";
  return ctx.full() && small_step && ctx.options().trials == 0 ? std::min(5, ctx.trials()) : ctx.trials();
}
int es_pairs_for(const StudyContext& ctx) { return ctx.full() ? 32 : 8; }  // population 64 as the paper's

TrialResult run_trial(const StudyContext& ctx, const std::string& arm, int trial, const Model& base) {
  const ArmSetup setup = arm_setup(arm);
  RolloutSpec spec;
  spec.scene = "wheeled_pallet";
  spec.contact = setup.contact;
  spec.solver = setup.solver;
  spec.scheme = setup.scheme;
  spec.dt = setup.dt;
  spec.steps = std::lround(kHorizon / setup.dt);
  const ControlSpline spline(base, {kWheels[0], kWheels[1], kWheels[2]}, kKnots, *spec.steps);

  TrialResult res;
  res.draw = draw_trial(ctx.rng(trial), spline.num_parameters());
  spec.model = trial_model(base, res.draw);
  const Target target = target_of(res.draw);

  FinalState last;
  ControlObjectiveOptions oo;
  oo.adjoint = setup.adjoint;
  oo.on_final_state = [&](const Model& m, const Data& d) { last = final_state(m, d, target); };
  const ControlObjective objective(spec, loss_text(target), spline, oo);

  // Every rollout goes through here: divergence becomes +inf, non-finite
  // gradient entries become 0 (counted), the knot regulariser is added.
  auto evaluate = [&](const VecX& x, VecX* g) {
    Evaluation e;
    last = FinalState();
    ++res.rollouts;
    try {
      e = objective.evaluate(x, g);
    } catch (const std::runtime_error&) {
      e.loss = kDivergedLoss;
      if (g) g->setZero(x.size());
    }
    if (!std::isfinite(e.loss) || e.loss >= kDivergedLoss) {
      ++res.diverged;
      e.loss = kDivergedLoss;
      if (g) g->setZero(x.size());
    }
    if (g)
      for (Eigen::Index i = 0; i < g->size(); ++i)
        if (!std::isfinite((*g)[i])) (*g)[i] = 0, ++res.nonfinite_gradients;
    e.loss += kKnotWeight * x.squaredNorm();
    if (g) *g += 2 * kKnotWeight * x;
    return e;
  };
  // An iterate's evaluation: its gate is checked and the rollouts counted.
  GradientObjective iterate = [&](const VecX& x, VecX* g) {
    const Evaluation e = evaluate(x, g);
    if (res.rollouts_to_success < 0 && last.success()) res.rollouts_to_success = res.rollouts;
    res.history_rollouts.push_back(res.rollouts);
    return e;
  };

  IterationLogOptions log;
  log.progress = false;
  const auto t0 = Clock::now();
  OptimiserResult opt;
  if (setup.evolution) {
    EvolutionOptions es;
    es.iterations = iterations_for(ctx);
    es.pairs = es_pairs_for(ctx);
    es.sigma = 0.3;  // rad/s (STUDIES.md 1.5's suggestion)
    es.learning_rate = 0.3;
    es.seed = ctx.rng(trial, 1)();
    PopulationObjective population = [&](const std::vector<VecX>& xs, std::vector<Real>& losses) {
      for (size_t i = 0; i < xs.size(); ++i) losses[i] = evaluate(xs[i], nullptr).loss;
    };
    opt = evolution_minimize(iterate, res.draw.knots, es, log, population);
  } else {
    AdamOptions adam;
    adam.iterations = iterations_for(ctx);
    adam.learning_rate = 0.3;  // the paper's best for Ostrich
    opt = adam_minimize(iterate, res.draw.knots, adam, log);
  }
  res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  res.iterations = opt.iterations;
  res.history = opt.history;
  res.best_loss = opt.best_loss;
  // The best iterate's gate, from a fresh rollout (not counted: it is the report).
  FinalState best;
  oo.on_final_state = [&](const Model& m, const Data& d) { best = final_state(m, d, target); };
  try {
    const ControlObjective check(spec, loss_text(target), spline, oo);
    check.evaluate(opt.best_x, nullptr);
    res.path = replay(check, opt.best_x);
  } catch (const std::runtime_error&) {
    // best stays at +inf: a best iterate that diverges cannot pass the gate
  }
  res.best = best;
  return res;
}

void summarise(StudySummary& s, const std::string& arm, const std::vector<TrialResult>& trials) {
  std::vector<double> error, speed, loss, per_iter, to_success;
  double pass = 0, pos_gate = 0, speed_gate = 0, total = 0, rollouts = 0, diverged = 0, nonfinite = 0;
  for (const TrialResult& t : trials) {
    error.push_back(t.best.error);
    speed.push_back(t.best.speed);
    loss.push_back(t.best_loss);
    per_iter.push_back(t.seconds / std::max(1, t.iterations));
    pass += t.best.success();
    pos_gate += t.best.error < kErrorGate;
    speed_gate += t.best.speed < kSpeedGate;
    total += t.seconds;
    rollouts += t.rollouts;
    diverged += t.diverged;
    nonfinite += t.nonfinite_gradients;
    if (t.rollouts_to_success >= 0) to_success.push_back(static_cast<double>(t.rollouts_to_success));
  }
  const double n = static_cast<double>(trials.size());
  const std::string task = "pallet";
  s.add(task, arm, "trials", n);
  s.add(task, arm, "success_rate", pass / n);
  s.add(task, arm, "position_gate_rate", pos_gate / n);
  s.add(task, arm, "speed_gate_rate", speed_gate / n);
  s.add(task, arm, "final_error_median_m", quantile(error, 0.5));
  s.add(task, arm, "final_error_q25_m", quantile(error, 0.25));
  s.add(task, arm, "final_error_q75_m", quantile(error, 0.75));
  s.add(task, arm, "final_speed_median_mps", quantile(speed, 0.5));
  s.add(task, arm, "best_loss_median", quantile(loss, 0.5));
  s.add(task, arm, "time_per_iteration_s", quantile(per_iter, 0.5));
  s.add(task, arm, "total_s", total);
  s.add(task, arm, "rollouts_per_trial", rollouts / n);
  s.add(task, arm, "rollouts_to_success_median", quantile(to_success, 0.5));
  s.add(task, arm, "diverged_rollouts", diverged);
  s.add(task, arm, "nonfinite_gradient_entries", nonfinite);
}

void write_trials(const StudyContext& ctx, const std::map<std::string, std::vector<TrialResult>>& results,
                  const std::vector<std::string>& arms) {
  OutputFile trials(ctx.path("trials.csv"));
  OutputFile curves(ctx.path("loss_curves.csv"));
  OutputFile paths(ctx.path("paths.csv"));
  std::ostream& tr = *trials.open();
  std::ostream& lc = *curves.open();
  std::ostream& pa = *paths.open();
  tr << "arm,trial,start_dx_m,start_dy_m,start_yaw_deg,target_x_m,target_y_m,target_yaw_deg,best_loss,"
        "final_error_m,final_speed_mps,success,iterations,rollouts,rollouts_to_success,diverged_rollouts,"
        "nonfinite_gradient_entries,unconverged_steps,max_penetration_m,seconds\n";
  lc << "arm,trial,iteration,rollouts,loss,best_loss,grad_norm,forward_s,backward_s\n";
  pa << "arm,trial,t,x,y,yaw\n";
  for (const std::string& arm : arms)
    for (size_t k = 0; k < results.at(arm).size(); ++k) {
      const TrialResult& t = results.at(arm)[k];
      const Target target = target_of(t.draw);
      tr << arm << ',' << k << ',' << shortest_text(t.draw.dx) << ',' << shortest_text(t.draw.dy) << ','
         << shortest_text(t.draw.yaw0 * 180 / kPi) << ',' << shortest_text(target.p.x()) << ','
         << shortest_text(target.p.y()) << ',' << shortest_text(t.draw.target_yaw * 180 / kPi) << ','
         << shortest_text(t.best_loss) << ',' << shortest_text(t.best.error) << ',' << shortest_text(t.best.speed)
         << ',' << (t.best.success() ? 1 : 0) << ',' << t.iterations << ',' << t.rollouts << ','
         << t.rollouts_to_success << ',' << t.diverged << ',' << t.nonfinite_gradients << ','
         << t.path.unconverged << ',' << shortest_text(t.path.max_penetration) << ',' << shortest_text(t.seconds)
         << '\n';
      double running = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < t.history.size(); ++i) {
        const IterationRecord& r = t.history[i];
        running = std::min<double>(running, r.loss);
        const long spent = i < t.history_rollouts.size() ? t.history_rollouts[i] : t.rollouts;
        lc << arm << ',' << k << ',' << r.iteration << ',' << spent << ',' << shortest_text(r.loss) << ','
           << shortest_text(running) << ',' << shortest_text(r.grad_norm) << ',' << shortest_text(r.forward_s) << ','
           << shortest_text(r.backward_s) << '\n';
      }
      for (size_t i = 0; i < t.path.t.size(); ++i)
        pa << arm << ',' << k << ',' << shortest_text(t.path.t[i]) << ',' << shortest_text(t.path.x[i]) << ','
           << shortest_text(t.path.y[i]) << ',' << shortest_text(t.path.yaw[i]) << '\n';
    }
  trials.commit();
  curves.commit();
  paths.commit();
}

void run_ostrich_box(StudyContext& ctx) {
  const Model base = load_scene("wheeled_pallet");
  std::map<std::string, std::vector<TrialResult>> results;
  // kamino_2ms tapes 3000 steps (about 10 s per iteration here): the short
  // scale runs it only when --arms names it.
  std::vector<std::string> arms;
  for (const std::string& arm : ctx.arms()) {
    if (arm == "kamino_2ms" && !ctx.full() && ctx.options().arms.empty()) {
      std::fprintf(stderr, "study ostrich_box: arm kamino_2ms runs with --full or --arms kamino_2ms (short scale)\n");
      continue;
    }
    arms.push_back(arm);
  }
  long total = 0, done = 0;
  for (const std::string& arm : arms) total += trials_for(ctx, arm);
  for (const std::string& arm : arms) {
    const long before = done;
    try {
      for (int k = 0; k < trials_for(ctx, arm); ++k) {
        ctx.progress(done, total, arm + " trial " + std::to_string(k));
        results[arm].push_back(run_trial(ctx, arm, k, base));
        ++done;
      }
    } catch (const std::invalid_argument& e) {
      // The arm's parts refuse its option (backward Euler has no truncated
      // pull-back): a row says so, the reason goes to stderr, no numbers.
      std::fprintf(stderr, "study ostrich_box: arm %s is not available: %s\n", arm.c_str(), e.what());
      ctx.summary().add("pallet", arm, "available", 0);
      results.erase(arm);
      done = before + trials_for(ctx, arm);
      continue;
    }
    ctx.summary().add("pallet", arm, "available", 1);
    summarise(ctx.summary(), arm, results[arm]);
  }
  ctx.progress(done, total, "plots");
  std::vector<std::string> ran;
  for (const std::string& arm : arms)
    if (results.count(arm)) ran.push_back(arm);
  write_trials(ctx, results, ran);
  std::vector<ArmCurves> curves;
  for (const std::string& arm : ran) {
    ArmCurves c;
    c.arm = arm;
    for (const TrialResult& t : results[arm]) {
      c.histories.push_back(t.history);
      c.paths.push_back(t.path);
      c.targets.push_back({target_of(t.draw).p.x(), target_of(t.draw).p.y()});
      c.successes += t.best.success();
    }
    curves.push_back(std::move(c));
  }
  if (!curves.empty()) plot_ostrich_box(ctx.staging_dir(), curves);  // nothing to draw when no arm ran
}

}  // namespace

StudyDefinition ostrich_box_study() {
  StudyDefinition s;
  s.name = "ostrich_box";
  s.summary = "Ostrich Fig. 4: wheeled robot over the box to a target pose, 30 spline knots, Adam vs arms";
  s.tasks = {"pallet"};
  s.arms = {"ostrich", "kamino_2ms", "kamino_10ms", "central_path", "signorini", "truncated", "es"};
  s.accepts_extra_arm = [](const std::string& arm) {
    return arm == "ostrich_adjoint" ? std::string() : std::string("extra arm: ostrich_adjoint");
  };
  s.default_trials = 1;
  s.full_trials = 25;
  s.run = run_ostrich_box;
  return s;
}

}  // namespace contactlab
