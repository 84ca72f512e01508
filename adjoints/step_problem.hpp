// The data of one velocity-scheme step as a function of what came before it:
// the body states, the controls and the model's parameters. It is what the
// step adjoint pulls cotangents back through (the "position pull-back" of
// MATH.md D.1 and its parameter and control counterparts).
//
// The contact set is the forward step's; contacts at perturbed poses come from
// the narrow phase rerun there and matched to the recorded ones
// (adjoints/contact_redetection.hpp; ContactMotion's prediction where the set
// changes). Everything else is the forward code itself
// (compute_free_velocity, assemble_problem).
#pragma once

#include <vector>

#include "adjoints/contact_redetection.hpp"
#include "core/data.hpp"
#include "core/dual.hpp"
#include "core/model.hpp"
#include "core/step_adjoint.hpp"
#include "schemes/velocity_scheme.hpp"

namespace contactlab {

// d's state and controls = the recorded inputs, moved by `delta` (12 per body:
// position, rotation vector applied on the left, velocity, angular velocity;
// nullptr = none; fixed bodies are not moved) and with `ctrl` (nullptr: the
// recorded controls).
void load_perturbed_inputs(const Model& model, const StepInputs& inputs, const Real* delta, const Real* ctrl, Data& d);

// The recorded inputs in dual numbers, moved along `seed` (12 per body, may
// be null) and `ctrl_seed` (na, may be null) as load_perturbed_inputs moves
// them: the tangents of the exact pull-back's inputs.
struct DualInputs {
  std::vector<Vec3T<Dual>> x, v, w;
  std::vector<QuatT<Dual>> q;
  std::vector<Dual> ctrl;
  BodyStatesT<Dual> states() const { return {x, q, v, w}; }
};
void load_seeded_inputs(const Model& model, const StepInputs& inputs, const Real* seed, const Real* ctrl_seed,
                        DualInputs& out);

// The contacts (double) at the inputs moved by `step` along the seeds, for
// the tangents the narrow phase in dual numbers cannot give
// (ContactRedetection::evaluate_dual's differences). `d` is the scratch world.
void contacts_along(const Model& model, const StepInputs& inputs, const Real* seed, const Real* ctrl_seed, Real step,
                    ContactRedetection& contacts, Data& d, std::vector<Contact>& out);

// The step's problem data, flattened in a fixed order so that its derivative
// with respect to any input is one vector:
//   u_free (6 nb), inv_mass (nb), inv_inertia (9 nb, column-major per body),
//   J rows (12 per row: J_a, J_b), bias (m) = v_free - J u_free, compliance (m), mu (nc).
struct StepProblemData {
  int num_bodies = 0, num_rows = 0, num_contacts = 0;
  VecX y;
  int u_free_at() const { return 0; }
  int inv_mass_at() const { return 6 * num_bodies; }
  int inv_inertia_at() const { return 7 * num_bodies; }
  int rows_at() const { return 16 * num_bodies; }
  int bias_at() const { return rows_at() + 12 * num_rows; }
  int compliance_at() const { return bias_at() + num_rows; }
  int mu_at() const { return compliance_at() + num_rows; }
  int size() const { return mu_at() + num_contacts; }
};

class StepProblem {
 public:
  // Captures the forward step (its inputs and settings). `law_recovery` is the
  // law's penetration recovery (ContactModel::penetration_recovery of the
  // scheme's contact_baumgarte), as prepare() uses it.
  void capture(const Model& model, const StepInputs& inputs, const VelocitySchemeOptions& scheme, Real law_recovery,
               Real h);
  // The step's data for `model` (possibly with perturbed parameters) at the
  // captured inputs perturbed per body by (dx, dθ, dv, dw) in `delta` (12 per
  // body, may be null) and controls `ctrl` (may be null: as captured).
  void evaluate(const Model& model, const Real* delta, const Real* ctrl, StepProblemData& out);
  // The step's data (y) and its exact derivative (dy) at the captured inputs
  // along `seed` (12 per body, as evaluate's delta; may be null) and
  // `ctrl_seed` (na; may be null), in one pass of the forward code over dual
  // numbers (core/dual.hpp). Contacts whose narrow-phase routine searches or
  // samples get their tangents by central differences of step `eps` (the
  // return value is then false).
  bool evaluate_tangent(const Model& model, const Real* seed, const Real* ctrl_seed, Real eps, StepProblemData& y,
                        StepProblemData& dy);
  // The full ConstraintProblem at the captured inputs (for the local sensitivity).
  const ConstraintProblem& problem() const { return scratch_.problem; }
  const Data& scratch() const { return scratch_; }
  const StepInputs& inputs() const { return inputs_; }
  Real h() const { return h_; }

 private:
  StepInputs inputs_;
  VelocitySchemeOptions scheme_;
  Real recovery_ = 0, h_ = 0;
  ContactRedetection contacts_;
  Data scratch_;
  bool scratch_ready_ = false;
  // Dual-number buffers of evaluate_tangent (kept between calls).
  DualInputs dual_inputs_;
  std::vector<Dual> u_free_d_, inv_mass_d_, wrench_d_, compliance_d_, mu_d_, bias_d_;
  std::vector<Mat3T<Dual>> inv_inertia_d_;
  std::vector<ConstraintRowT<Dual>> rows_d_;
  std::vector<ContactT<Dual>> contacts_d_;
};

}  // namespace contactlab
