// Study kamino_mechanisms (issue 16; ../shared/docs/STUDIES.md 4.4, 4.6, 4.8):
// Kamino's eight mechanism metrics (MATH.md E.1) — r_J, r_kin, r_C, r_v,
// r_primal, r_dual, r_cmpl, r_vi — as median and 90th percentile over the
// steps of a rollout, on mechanisms with kinematic loops, per solver arm:
//   tasks: four_bar (scenes/four_bar.xml, passive), parallelogram_leg
//          (scenes/parallelogram_leg.xml, two parallelogram legs pushed on
//          the ground by random hip setpoints), scissor_linkage
//          (scenes/scissor_linkage.xml, passive lazy tongs, 3 loops);
//   arms:  padmm (velocity + desaxce + padmm), newton (velocity +
//          fischer_burmeister + newton), pgs (velocity + desaxce + pgs),
//          mujoco (the MuJoCo peer on the same file; loops as equality
//          constraints; r_J, r_kin, r_C, r_v only: no contact impulses).
// docs/studies.md shows the table beside Kamino's Table 1 / Table A.2.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "studies/sample_quantile.hpp"
#include "studies/study.hpp"

namespace contactlab {

// The eight metrics in Kamino's table order; the first two are the joints'
// (every step), the other six the contacts' (steps with at least one contact).
constexpr int kMechanismMetrics = 8;
const std::array<const char*, kMechanismMetrics>& mechanism_metric_names();
inline bool is_contact_metric(int k) { return k >= 2; }

struct MechanismTask {
  std::string name;
  std::string scene;      // file path (MuJoCo reads the same file)
  double dt = 0.001;      // s
  double duration = 1;    // s
  bool random_setpoints = false;  // hip setpoints U(-0.5, 0.5) rad held 0.2 s, per trial
};
// The study's tasks at the short or full scale.
std::vector<MechanismTask> mechanism_tasks(bool full);

// Per-step samples of one arm on one task (all trials pooled), each metric's
// own series; steps without contacts add no contact-metric samples.
struct MechanismSamples {
  std::array<std::vector<double>, kMechanismMetrics> values;
  std::array<bool, kMechanismMetrics> measured{};  // false: the arm cannot measure it (MuJoCo's impulses)
  long steps = 0, not_converged = 0;
  double wall_s = 0;
  int diverged = 0;        // trials that ended with a non-finite state
  std::string divergence;  // the last one's message
};

// Hip setpoints of one trial: one row of `actuators` values per hold of
// `hold` s covering `duration`, drawn from `rng`'s uniform(-0.5, 0.5).
std::vector<double> random_setpoints(std::mt19937_64& rng, int actuators, double duration, double hold);

// Rolls out `arm` on `task` for one trial, appending to `out`; `setpoints`
// (random_setpoints, may be empty) drive the actuators. When `series_csv` is
// not null each step's metrics are written to it as
// time,r_J,r_kin,r_C,r_v,r_primal,r_dual,r_cmpl,r_vi (empty: not measured).
// A rollout that diverges ends there: out.diverged counts it, out.divergence
// names task, arm and step, and the samples before it are kept.
void run_mechanism_arm(const MechanismTask& task, const std::string& arm, const std::vector<double>& setpoints,
                       MechanismSamples& out, std::ostream* series_csv);

StudyDefinition kamino_mechanisms_study();

}  // namespace contactlab
