// Building blocks of a step: the collision pass, free velocities and the
// constraint rows of joints, loop closures, servos, limits and contacts.
// All write into Data's buffers (no allocation once capacities are reached).
#pragma once

#include <functional>
#include <vector>

#include "core/data.hpp"
#include "core/dual.hpp"
#include "core/kinematics.hpp"
#include "core/model.hpp"

namespace contactlab {

// Narrow phase over all geom pairs that may touch (contype/conaffinity masks,
// contact/exclude, parent-child and same-body exclusion, fixed-fixed pairs
// skipped). Contacts below `margin` (plus the geoms' own margins) are kept.
// The pairs come from the broad phase (geometry/broad_phase.hpp), in the
// all-pairs order, so the contacts are those of testing every pair.
void detect_contacts(const Model& model, Data& data, Real margin);
// The same by testing every pair (no broad phase): the reference for tests
// and timings.
void detect_contacts_all_pairs(const Model& model, Data& data, Real margin);

// Inverse masses and world inverse inertias into data.problem, and
// data.u_free = u- + h M^-1 f(q-, u-) with gravity, motor forces and (optionally)
// the explicit gyroscopic torque.
void compute_free_velocity(const Model& model, Data& data, Real h, bool gyroscopic);

// compute_free_velocity over any scalar (instantiated for Real and Dual):
// the outputs by reference (Data's and its problem's buffers for T = Real).
template <class T>
struct FreeVelocityT {
  std::vector<T>& u_free;                 // (6 nb)
  std::vector<T>& inv_mass;               // (nb)
  std::vector<Mat3T<T>>& inv_inertia_W;   // (nb)
  std::vector<T>& wrench;                 // (6 nb) scratch
};
template <class T>
void free_velocity_t(const Model& model, const BodyStatesT<T>& s, const std::vector<T>& ctrl, Real h, bool gyroscopic,
                     FreeVelocityT<T>& out);

struct RowBiasOptions {
  Real baumgarte = 0.1, limit_baumgarte = 0.1, contact_baumgarte = 0.1, contact_slop = 1e-6;
  Real restitution_override = -1;
  // Fraction of the step over which the positions move with the velocity the
  // rows constrain (q+ = q + position_step h v+): 1 for the velocity scheme,
  // 1/2 for Moreau's midpoint scheme (rows at q_m, q+ = q_m + (h/2) v+). The
  // position biases, the speculative-contact and impact tests and the servo's
  // implicit stiffness use h_pos = position_step h; the forces use h.
  Real position_step = 1;
  // Add to an armature's row the rate at which a compound joint's coordinate
  // basis turns (core/compound_joint.hpp, compound_basis_drift_t): rows
  // linearised at the step's start miss it. False for backward Euler, whose
  // velocity rows are evaluated again at q+ (schemes/backward_euler_rows.hpp).
  bool armature_basis_drift = true;
};

// Biases that remove every position error in one step, with no slop and no
// restitution: a position row's bias is then c(q)/h (the backward Euler
// linearisation, schemes/backward_euler_rows.hpp).
inline RowBiasOptions full_correction_bias(Real contact_baumgarte) {
  RowBiasOptions full;
  full.baumgarte = full.limit_baumgarte = 1;
  full.contact_baumgarte = contact_baumgarte;
  full.contact_slop = 0;
  full.restitution_override = 0;
  full.armature_basis_drift = false;
  return full;
}

// assemble_problem's rows over any scalar (instantiated for Real and Dual):
// J, compliance, mu and the bias (v_free - J u_free) into the references,
// which `resize` sizes (the problem's buffers for T = Real). Returns the
// largest joint/loop position residual (m or rad).
template <class T>
struct RowsT {
  std::vector<ConstraintRowT<T>>& rows;  // (m)
  std::vector<T>& compliance;            // (m)
  std::vector<T>& mu;                    // (num_contacts)
  std::vector<T>& bias;                  // (m)
  std::function<void(int nb, int bilateral, int limits, int nc)> resize_rows;  // sizes rows, compliance, mu
  void resize(int nb, int bilateral, int limits, int nc) {
    resize_rows(nb, bilateral, limits, nc);
    bias.assign(rows.size(), T(0.0));
  }
};
template <class T>
Real assemble_rows_t(const Model& model, const BodyStatesT<T>& s, const std::vector<T>& ctrl,
                     const std::vector<ContactT<T>>& contacts, const std::vector<T>& u_free, Real h,
                     const RowBiasOptions& bias, RowsT<T>& out);

// Sizes data.problem and fills every row: J, compliance, v_free (= J u_free + bias).
// Also returns the largest joint/loop position residual (m or rad) at q-.
Real assemble_problem(const Model& model, Data& data, Real h, const RowBiasOptions& bias);

// World-frame helpers for the current state.
Vec3 body_point_W(const Model& model, const Data& data, int body, const Vec3& p_B);  // body frame point -> world
Mat3 body_rotation(const Data& data, int body);                                     // identity for the world

// Actuator control after clamping to its range.
Real clamped_control(const Actuator& actuator, Real ctrl);

}  // namespace contactlab
