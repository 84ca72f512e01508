// Comparison of part combinations (scheme + contact + solver) across time
// steps on one scene: each run records its cost (wall time, iterations), its
// accuracy indicators (residual, penetration, joint violation) and one error —
// against the scene's analytic reference (studies/validation.hpp) when it has
// one, else against a reference run. `contactlab compare` (apps/) prints and
// plots what this computes; docs/compare.md defines every column.
#pragma once

#include <functional>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

#include "sim/simulation.hpp"
#include "studies/validation.hpp"

namespace contactlab {

// A combination written `scheme+contact+solver`, e.g. velocity+desaxce+padmm.
struct Combo {
  std::string scheme, contact, solver;
  std::string label() const { return scheme + "+" + contact + "+" + solver; }
  PartChoice parts() const { return PartChoice{contact, solver, scheme}; }
};

// Throws std::invalid_argument for text that is not three '+'-separated names,
// or naming an unknown part and listing the known ones (the factories' message).
// A refused triple parses: combo_refusal says why it cannot run.
Combo parse_combo(const std::string& text);
// Empty when the factories accept the triple, else their one-line reason.
std::string combo_refusal(const Combo& combo);
// Every triple of the factories' parts (schemes x contact models x solvers, in
// factory order) that can run. Each refused one is appended to `refused`, if
// given, as "LABEL: reason".
std::vector<Combo> valid_combos(std::vector<std::string>* refused = nullptr);

// `COMBO@DT`, e.g. velocity+desaxce+padmm@0.0001. Throws std::invalid_argument.
struct ComboAtDt {
  Combo combo;
  double dt = 0;
};
ComboAtDt parse_combo_at_dt(const std::string& text);

// The name a scene goes by in tables and file names: a built-in name as is,
// a file path by its stem (characters other than [A-Za-z0-9_-] become '_').
std::string scene_label(const std::string& scene);

enum class ErrorKind { None, Analytic, ReferenceRun };
const char* to_string(ErrorKind kind);  // "none", "analytic", "reference_run"

// Every moving body's frame origin (world frame, m) at t = 0, interval,
// 2 interval, ...: linearly interpolated between the two steps around each
// sample time, so runs with different steps are compared at the same times.
struct SampledTrajectory {
  double interval = 0.05;                  // s
  std::vector<std::vector<Vec3>> samples;  // (samples)(moving bodies)
};

// What the runs of one scene are measured against.
struct SceneReference {
  ErrorKind kind = ErrorKind::None;
  std::string scene;           // the built-in name whose analytic reference applies (kind Analytic)
  ScalarReference analytic;    // kind Analytic
  std::string run_label;       // kind ReferenceRun: COMBO@DT
  SampledTrajectory trajectory;  // kind ReferenceRun
  std::string note;            // why there is no reference, or why the analytic one was not used
  std::string describe() const;  // one line: how the error column is defined
};

struct ComparisonRun {
  std::string scene, combo;
  double dt = 0;
  bool ok = false;
  std::string message;         // the exception's message when !ok
  long steps = 0;              // steps completed
  double simulated_time = 0;   // s
  double wall_per_step = 0;    // s of wall time per step (the steps only, not set-up)
  double wall_per_sim = 0;     // s of wall time per simulated second
  double solve_per_step = 0;   // s in the solver per step (SolveStats::wall_time_s; 0 for a peer engine)
  double mean_iterations = 0;
  int max_iterations = 0;
  long not_converged = 0;
  double max_r_vi = 0, max_penetration = 0, max_joint_violation = 0;  // MATH.md E.1; m; m or rad
  ErrorKind error_kind = ErrorKind::None;
  double measured = std::numeric_limits<double>::quiet_NaN();  // kind Analytic: the measured quantity
  double error = std::numeric_limits<double>::quiet_NaN();     // NaN when not available
  // How far the run moved: the largest distance of a moving body's frame
  // origin from where it started (m) and the largest rotation of a moving body
  // from its start (rad), over every step. NaN before the first step.
  double travel = std::numeric_limits<double>::quiet_NaN();
  double rotation = std::numeric_limits<double>::quiet_NaN();
  // What makes an ok run's numbers suspect (flag_runs): "" or warnings joined
  // by "; ", e.g. "not converged on 993 of 3000 steps; did not move".
  std::string flags;
  // Solver residual history (SolveStats::residual_history, each solver's own
  // stopping measure) of the step with the most iterations; step is 1-based.
  std::vector<double> residual_history;
  long residual_step = 0;
  int residual_iterations = 0;
};

// Runs `combo` on `model` for round(duration / dt) steps from the scene's
// initial state and measures it against `reference`. Never throws for a
// failing run (refused combination, divergence): it comes back with ok = false
// and the message. `trajectory`, if given, receives the sampled positions.
ComparisonRun run_comparison(const Model& model, const std::string& scene, const Combo& combo, double dt,
                             double duration, const SceneReference& reference,
                             SampledTrajectory* trajectory = nullptr);

// The same run in a peer engine (peers/mujoco_peer.hpp: "mujoco"), measured
// like the combinations' runs; its combo column reads mujoco(INTEGRATOR).
// Iterations are MuJoCo's solver iterations; residual and joint columns do not
// apply (0). Never throws for a failing run.
ComparisonRun run_peer_comparison(const Model& model, const std::string& scene, double dt, double duration,
                                  const SceneReference& reference, SampledTrajectory* trajectory = nullptr);

// Ostrich's "usable time step" of one combination on one scene: its accuracy
// floor (its smallest error over the time steps run) and the largest step whose
// error stays within 2x that floor, with the wall time per simulated second there.
struct UsableStep {
  std::string combo;
  double floor = std::numeric_limits<double>::quiet_NaN();
  double dt = std::numeric_limits<double>::quiet_NaN();
  double wall_per_sim = std::numeric_limits<double>::quiet_NaN();
};
std::vector<UsableStep> usable_steps(const std::vector<ComparisonRun>& runs);

// A dt sweep fine enough for a usable step: at least 4 distinct steps, with
// consecutive ones at most a quarter decade apart (ratio <= 10^(1/4)), i.e.
// at least 4 steps per decade throughout. Coarser sweeps get no usable dt.
bool is_dt_sweep(const std::vector<double>& dts);

// Thresholds of the run flags (flag_runs).
struct FlagThresholds {
  // m: penetration beyond this is flagged; the validations' contact bound
  // (ValidationTolerances::penetration, docs/validation.md).
  double penetration = 1e-3;
  // A run "did not move" when both its travel and its rotation are below this
  // fraction of the median over the scene's completed runs (reference run
  // included), where that median is not ~0: a scene at rest flags nothing.
  double still_fraction = 0.01;
};

// Sets `flags` of every completed run of the scene: steps where the solver
// did not converge, no motion where the other runs moved, penetration beyond
// the threshold. Failed runs keep their message and no flags.
void flag_runs(std::vector<ComparisonRun*> runs, const FlagThresholds& thresholds);

struct CompareSettings {
  std::vector<Combo> combos;
  bool peer_mujoco = false;                        // add MuJoCo's runs of the same file
  std::vector<double> dts;                         // explicit steps, s; empty: dt_factors
  // x the scene's timestep: a decade at <= 1/4 decade apart (is_dt_sweep)
  std::vector<double> dt_factors = {1, 1.5, 2, 3, 5, 7, 10};
  FlagThresholds flags;                            // flag_runs, after the scene's runs
  double duration = -1;                            // s; < 0: the scene's contactlab.duration
  std::string reference;                           // COMBO@DT; empty: velocity+desaxce+padmm@(smallest dt / 10)
  bool allow_unsupported = false;                  // --allow-unsupported (io/mjcf.hpp MjcfLoadOptions)
};

struct SceneComparison {
  std::string scene;           // as given (built-in name or path)
  std::string label;           // scene_label(scene)
  double duration = 0;         // s simulated per run
  std::vector<double> dts;
  SceneReference reference;
  ComparisonRun reference_run;      // kind ReferenceRun (or its failure): the run behind the reference
  std::vector<ComparisonRun> runs;  // dt-major: for each dt, each combo
};

// The analytic reference of a built-in validation scene, if it has one and
// `duration` covers 1.1 x its settled time (else `note` says why not).
bool analytic_reference(const std::string& scene, const Model& model, double duration, ScalarReference* out,
                        std::string* note);

// Every run of one scene, the reference run first when there is one. A scene
// that cannot be loaded makes every run fail with the message; `on_run`, if
// given, is called after each run (progress). Throws std::invalid_argument for
// a bad `settings.reference` or a non-positive step.
SceneComparison compare_scene(const std::string& scene, const CompareSettings& settings,
                              const std::function<void(const ComparisonRun&)>& on_run = {});

// runs.csv: the header (no newline) and one row per run. A failed run's
// status is "failed: MESSAGE" (always CSV-quoted); unavailable numbers are
// empty. The last columns: measured (kind analytic), travel_m, rotation_rad,
// flags (flag_runs; CSV-quoted when not empty).
extern const char* const kRunsCsvHeader;
void write_runs_csv(std::ostream& out, const std::vector<SceneComparison>& scenes);

// One residual history per solver: that solver's run whose hardest step took
// the most iterations (ties: the first in run order). Indices into runs.
std::vector<size_t> representative_runs(const SceneComparison& scene);
// residuals_<scene>.csv: `solver,combo,dt,step,iteration,residual`.
void write_residuals_csv(std::ostream& out, const SceneComparison& scene);

}  // namespace contactlab
