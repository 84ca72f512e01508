// StepAdjoint: reverse mode through one step of a scheme (MATH.md D.1-D.5),
// the interface the rollouts (sim/rollout.hpp) drive. The implementations
// live in adjoints/ and are made by Scheme::make_step_adjoint (the registry
// pairs each built-in scheme with its own; a user's scheme brings its own).
//
// A rollout's forward pass keeps per step what record_before / record_after
// put into a StepRecord (the state before the step, the controls, the
// contact set, the converged impulses, and the state after when the adjoint
// asks for it). Its backward pass calls begin() once and then backward() from
// the last step to the first, each time turning the cotangent of the state
// after the step into that of the state before it and adding the step's
// control and parameter cotangents.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/contact.hpp"
#include "core/contact_model.hpp"
#include "core/data.hpp"
#include "core/grad_input.hpp"
#include "core/model.hpp"
#include "core/solve_adjoint.hpp"
#include "core/step_adjoint_options.hpp"

namespace contactlab {

// State of one body in the adjoints' coordinates (COM, orientation, COM
// velocity, world angular velocity).
struct RigidState {
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v = Vec3::Zero(), w = Vec3::Zero();
};

// One step's inputs, recorded by the forward pass before the step.
struct StepInputs {
  std::vector<RigidState> bodies;  // (nb) at q-
  std::vector<Real> ctrl;         // (na) as applied
  std::vector<Contact> contacts;  // the narrow phase's result at q-
};

// What a rollout keeps of one step for the backward pass.
struct StepRecord {
  StepInputs inputs;
  std::vector<Real> lambda;       // converged impulses, rows of the step's problem
  std::vector<RigidState> after;  // the state the step produced, when the adjoint needs it
};

// Cotangent of one body's state in the coordinates the adjoints use: the
// centre of mass x_W, a world-frame rotation increment (q -> Exp(dθ) q), the
// centre-of-mass velocity v_W and the world angular velocity w_W.
struct BodyCotangent {
  Vec3 x = Vec3::Zero(), theta = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();
};

// What backward() reads and writes.
struct StepCotangents {
  const std::vector<BodyCotangent>& after;  // in: dL/d(state after the step), per body
  std::vector<BodyCotangent>& before;       // out: dL/d(state before the step), per body
  VecX& ctrl;                               // += dL/d(this step's controls) (na)
  VecX& params;                             // += dL/d(parameters), one per parameter input
};

// Everything a backward pass is run with (begin()).
struct StepAdjointContext {
  const Model* model = nullptr;
  const ContactModel* law = nullptr;
  Real h = 0;                                      // s, the step length
  const std::vector<GradInput>* params = nullptr;  // the parameter inputs (not init:, not ctrl:)
  StepAdjointOptions options;                      // the law's forward sensitivity applied
  std::unique_ptr<SolveAdjoint> solve;             // the solve's VJP paired with the forward solver
};

// How the last backward() went.
struct StepAdjointReport {
  bool fell_back_to_exact = false;            // a relaxed sensitivity fell back to the exact one
  const SolveAdjointStats* solve = nullptr;   // the solve adjoint's statistics, when one answered the step
  double solve_seconds = 0;                   // wall time in the solve adjoint (linearise + VJP)
  long differenced_seeds = 0;                 // pull-back seeds answered by differences (searching pairs)
};

class StepAdjoint {
 public:
  virtual ~StepAdjoint() = default;
  // The method that answers the solve's part, for reports ("newton",
  // "reference", "backward_euler (dense)", ...), valid after begin().
  virtual std::string solve_method() const = 0;

  // Before the step: the record's inputs (bodies and controls as the step
  // will use them; the default takes them from data). After the step: the
  // contacts, the impulses and, if needs_state_after(), the state.
  virtual void record_before(const Model& model, const Data& data, StepRecord& record) const;
  virtual void record_after(const Model& model, const Data& data, StepRecord& record) const;
  virtual bool needs_state_after() const { return false; }

  // Once per backward pass, before the first backward(): sizes its workspace.
  virtual void begin(StepAdjointContext context) = 0;
  // One step, from its record. Throws std::runtime_error when the record does
  // not match what the step adjoint recomputes (e.g. a changed contact set).
  virtual void backward(const StepRecord& record, StepCotangents& io) = 0;
  virtual const StepAdjointReport& report() const = 0;
};

// The bodies' state and the controls of `data` (contacts left empty).
StepInputs capture_inputs(const Model& model, const Data& data);

}  // namespace contactlab
