#include "apps/run_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "apps/contacts_output.hpp"
#include "apps/json_text.hpp"
#include "apps/progress.hpp"
#include "apps/time_budget.hpp"
#include "core/metrics.hpp"
#include "io/mjcf.hpp"
#include "io/number_text.hpp"
#include "io/output_file.hpp"
#include "io/scene_library.hpp"
#include "peers/mujoco_peer.hpp"
#include "sim/rollout_setup.hpp"
#include "sim/simulation.hpp"

namespace contactlab {

namespace {

struct RunSummary {
  long steps = 0;
  double wall = 0;
  double solve = 0;  // s in the solver (SolveStats::wall_time_s), all steps
  double iterations_sum = 0;
  int iterations_max = 0;
  long not_converged = 0;
  Real max_r_vi = 0, max_penetration = 0, max_joint_violation = 0;
};

// The line `run` ends with on stderr: what ran, how long, how well it
// converged and penetrated, and where the first bodies ended up.
std::string summary_line(const RunRequest& rq, const Model& m, const Data& d, Real h, const RunSummary& sum,
                         double wall, bool peer) {
  constexpr int kShownBodies = 3;  // a line, not a table: the JSON and --out have every body
  char buf[160];
  std::ostringstream line;
  line << "contactlab run: " << rq.spec.scene << " ("
       << (peer ? std::string("mujoco") : rq.spec.scheme + "+" + rq.spec.contact + "+" + rq.spec.solver);
  std::snprintf(buf, sizeof buf, ", dt %g s): %ld steps, %.3g s simulated in %.3g s wall; ", double(h), sum.steps,
                double(d.time), wall);
  line << buf << sum.not_converged << " steps not converged; ";
  std::snprintf(buf, sizeof buf, "max penetration %.3g m", double(sum.max_penetration));
  line << buf;
  int shown = 0, moving = 0;
  for (int b = 0; b < m.num_bodies(); ++b) {
    if (m.bodies[b].fixed) continue;
    ++moving;
    if (shown == kShownBodies) continue;
    const Vec3 p = d.origin_position(m, b);
    std::snprintf(buf, sizeof buf, " (%.4g, %.4g, %.4g)", double(p.x()), double(p.y()), double(p.z()));
    line << (shown++ ? ", " : "; final ") << m.bodies[b].name << buf;
  }
  if (moving > shown) line << ", +" << moving - shown << " more bodies (--json)";
  if (shown) line << " m";
  return line.str();
}

}  // namespace

int run_command(const RunRequest& rq) {
  const TimeBudget budget(rq.time_limit);
  OutputFile out_csv(rq.out), stats_csv(rq.stats), contacts_csv(rq.contacts);
  try {
    const std::string path = resolve_scene(rq.spec.scene);
    // Before anything is read or written: no output over an input or another output.
    check_distinct_paths({{"the scene file", path}, {"--ctrl-file", rq.spec.ctrl_file}},
                         {{"--out", rq.out}, {"--stats", rq.stats}, {"--contacts", rq.contacts}});
    if (!rq.out.empty()) check_output_path(rq.out);
    if (!rq.stats.empty()) check_output_path(rq.stats);
    if (!rq.contacts.empty()) check_output_path(rq.contacts);
    if (!rq.contacts.empty() && !rq.peer.empty())
      throw std::invalid_argument("--contacts is contactlab's contact list; it is not available with --peer");
    std::vector<std::string> warnings;
    RolloutSpec spec = rq.spec;
    MjcfLoadOptions load_options;
    load_options.allow_unsupported = rq.spec.allow_unsupported;
    spec.model = std::make_shared<const Model>(load_mjcf_file(path, load_options, &warnings));
    PreparedRollout rollout = prepare_rollout(spec);
    for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
    Simulation& sim = rollout.sim;
    const Model& m = sim.model();
    const Real h = rollout.h;
    const long steps = rollout.steps;
    // A peer engine steps the same file; contactlab's simulation then only
    // supplies the control schedule and holds the state it reports.
    std::unique_ptr<MujocoPeer> peer;
    if (!rq.peer.empty()) {
      if (rq.peer != "mujoco") throw std::invalid_argument("unknown peer '" + rq.peer + "' (known: mujoco)");
      peer = std::make_unique<MujocoPeer>(path, m);
      peer->set_timestep(h);
      peer->reset(rq.spec.keyframe);
      peer->read_state(sim.data());
    }

    std::ostream* traj = out_csv.open();
    std::ostream* stats = stats_csv.open();
    std::ostream* contacts = contacts_csv.open();
    if (contacts) write_contacts_header(*contacts);
    if (traj) {
      *traj << "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    }
    if (stats) {
      *stats << "step,time,contacts,iterations,converged,r_primal,r_dual,r_compl,r_vi,max_penetration,"
                "joint_violation,energy,wall_time_s,solve_time_s\n"
             << std::setprecision(9);
    }
    // Shortest round-trip decimals: the numbers read back are the doubles simulated.
    auto write_row = [&](const char* prefix, const std::string& name, const Vec3& p, const Quat& q, const Vec3& v, const Vec3& w) {
      const Data& d = sim.data();
      std::ostream& o = *traj;
      o << d.step << ',' << Shortest{d.time} << ',' << prefix << name;
      for (const Real x : {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z(), v.x(), v.y(), v.z(), w.x(), w.y(), w.z()})
        o << ',' << Shortest{x};
      o << '\n';
    };
    auto write_state = [&]() {
      if (!traj) return;
      const Data& d = sim.data();
      for (int b = 0; b < m.num_bodies(); ++b) {
        const Vec3 p = d.origin_position(m, b), v = d.origin_velocity(m, b);
        const Quat& q = d.q_WB[b];
        const Vec3& w = d.w_W[b];
        write_row("", m.bodies[b].name, p, q, v, w);
      }
      for (int i = 0; i < static_cast<int>(m.sites.size()); ++i) {  // after the bodies: "site.NAME" rows
        const SiteState st = site_state(m, d, i);
        write_row("site.", m.sites[i].name, st.p, st.q, st.v, st.w);
      }
    };

    Progress progress(steps, !rq.quiet);
    RunSummary sum;
    write_state();
    const auto t_start = std::chrono::steady_clock::now();
    long stopped_at = -1;  // the step after which --time-limit stopped the run
    for (long s = 0; s < steps; ++s) {
      sim.apply_scheduled_controls();
      rollout.controls.apply(sim.data());
      const auto t0 = std::chrono::steady_clock::now();
      if (peer) {
        peer->step(sim.data().ctrl);
      } else {
        sim.step(h);
      }
      const auto t1 = std::chrono::steady_clock::now();
      const double dt_wall = std::chrono::duration<double>(t1 - t0).count();
      if (peer) {
        // MuJoCo's state and what it reports: contacts, penetration, its
        // solver's iterations; residuals and joint violation do not apply
        // (generalised coordinates; its own soft-constraint solver).
        peer->read_state(sim.data());
        check_finite_state(m, sim.data());  // the peer's state too: no non-finite row in a result
        StepMetrics& pm = sim.data().metrics;
        pm = StepMetrics{};
        pm.num_contacts = peer->num_contacts();
        pm.iterations = peer->solver_iterations();
        pm.converged = true;
        pm.max_penetration = peer->max_penetration();
      }
      const StepMetrics& mt = sim.data().metrics;
      sum.steps++;
      sum.wall += dt_wall;
      if (!peer) sum.solve += sim.data().solve_stats.wall_time_s;
      sum.iterations_sum += mt.iterations;
      sum.iterations_max = std::max(sum.iterations_max, mt.iterations);
      sum.not_converged += mt.converged ? 0 : 1;
      sum.max_r_vi = std::max(sum.max_r_vi, mt.r_vi);
      sum.max_penetration = std::max(sum.max_penetration, mt.max_penetration);
      sum.max_joint_violation = std::max(sum.max_joint_violation, mt.joint_violation);
      write_state();
      if (contacts) write_step_contacts(*contacts, m, sim.data(), h);
      if (stats) {
        *stats << sim.data().step << ',' << sim.data().time << ',' << mt.num_contacts << ',' << mt.iterations << ','
               << (mt.converged ? 1 : 0) << ',' << mt.r_primal << ',' << mt.r_dual << ',' << mt.r_compl << ','
               << mt.r_vi << ',' << mt.max_penetration << ',' << mt.joint_violation << ','
               << mechanical_energy(m, sim.data()) << ',' << dt_wall << ',';
        if (!peer) *stats << sim.data().solve_stats.wall_time_s;
        *stats << '\n';
      }
      progress.update(s + 1);
      // A full disk stops the run now rather than at its end (a flag test).
      if (traj) out_csv.check();
      if (stats) stats_csv.check();
      if (contacts) contacts_csv.check();
      // The budget costs a comparison with the clock reading above.
      if (budget.expired(t1)) {
        stopped_at = s + 1;
        break;
      }
    }
    progress.finish();
    if (stopped_at >= 0) {
      out_csv.discard();
      stats_csv.discard();
      contacts_csv.discard();
      std::cerr << "contactlab run: time limit of " << format_seconds(budget.seconds()) << " s reached at step "
                << stopped_at << " of " << steps << "; no result file written" << std::endl;
      return kTimeLimitExit;
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    commit_all({&out_csv, &stats_csv, &contacts_csv});

    if (!rq.quiet) std::cerr << summary_line(rq, m, sim.data(), h, sum, total, peer != nullptr) << std::endl;
    if (rq.json) {
      std::ostringstream js;
      js << std::setprecision(9);
      js << "{\"scene\": \"" << rq.spec.scene << "\", \"file\": \"" << path << "\", ";
      if (peer) js << "\"engine\": \"mujoco\", \"integrator\": \"" << peer->integrator() << "\", ";
      js << "\"contact\": \""
         << rq.spec.contact << "\", \"solver\": \"" << rq.spec.solver << "\", \"scheme\": \"" << rq.spec.scheme
         << "\", \"dt\": " << h
         << ", \"steps\": " << sum.steps << ", \"simulated_time\": " << sim.data().time
         << ", \"wall_time_s\": " << total << ", \"wall_time_per_step_s\": " << (sum.steps ? sum.wall / sum.steps : 0)
         << ", \"solve_time_per_step_s\": " << (sum.steps ? sum.solve / sum.steps : 0)
         << ", \"mean_iterations\": " << (sum.steps ? sum.iterations_sum / sum.steps : 0)
         << ", \"max_iterations\": " << sum.iterations_max << ", \"steps_not_converged\": " << sum.not_converged
         << ", \"max_r_vi\": " << sum.max_r_vi << ", \"max_penetration\": " << sum.max_penetration
         << ", \"max_joint_violation\": " << sum.max_joint_violation << ", \"ignored\": [";
      // What --allow-unsupported let the reader ignore (Model::ignored_features).
      for (size_t i = 0; i < m.ignored_features.size(); ++i) js << (i ? ", " : "") << json_string(m.ignored_features[i]);
      js << "], \"final\": {";
      for (int b = 0; b < m.num_bodies(); ++b) {
        const Vec3 p = sim.data().origin_position(m, b);
        js << (b ? ", " : "") << json_string(m.bodies[b].name) << ": [" << p.x() << ", " << p.y() << ", " << p.z() << "]";
      }
      js << "}, \"final_sites\": {";
      for (int i = 0; i < static_cast<int>(m.sites.size()); ++i) {
        const Vec3 p = site_state(m, sim.data(), i).p;
        js << (i ? ", " : "") << json_string(m.sites[i].name) << ": [" << p.x() << ", " << p.y() << ", " << p.z() << "]";
      }
      js << "}}";
      std::cout << js.str() << std::endl;
    }
    return 0;
  } catch (const std::exception& e) {
    out_csv.discard();
    stats_csv.discard();
    contacts_csv.discard();
    std::cerr << "contactlab run: error: " << e.what() << std::endl;
    return 1;
  }
}

int list_options_command(const RunRequest& rq) {
  try {
    MjcfLoadOptions load_options;
    load_options.allow_unsupported = rq.spec.allow_unsupported;
    Simulation sim(load_mjcf_file(resolve_scene(rq.spec.scene), load_options),
                   PartChoice{rq.spec.contact, rq.spec.solver, rq.spec.scheme});
    for (const auto& kv : rq.spec.sets) sim.set_option(kv);
    sim.validate_options();
    std::cout << sim.describe_options();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "contactlab run: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
