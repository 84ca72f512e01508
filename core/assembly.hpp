// Building blocks of a step: the collision pass, free velocities and the
// constraint rows of joints, loop closures, servos, limits and contacts.
// All write into Data's buffers (no allocation once capacities are reached).
#pragma once

#include "core/data.hpp"
#include "core/model.hpp"

namespace contactlab {

// Narrow phase over all geom pairs that may touch (contype/conaffinity masks,
// contact/exclude, parent-child and same-body exclusion, fixed-fixed pairs
// skipped). Contacts below `margin` (plus the geoms' own margins) are kept.
void detect_contacts(const Model& model, Data& data, Real margin);

// Inverse masses and world inverse inertias into data.problem, and
// data.u_free = u- + h M^-1 f(q-, u-) with gravity, motor forces and (optionally)
// the explicit gyroscopic torque.
void compute_free_velocity(const Model& model, Data& data, Real h, bool gyroscopic);

struct RowBiasOptions {
  Real baumgarte = 0.1, limit_baumgarte = 0.1, contact_baumgarte = 0.1, contact_slop = 1e-6;
  Real restitution_override = -1;
};

// Sizes data.problem and fills every row: J, compliance, v_free (= J u_free + bias).
// Also returns the largest joint/loop position residual (m or rad) at q-.
Real assemble_problem(const Model& model, Data& data, Real h, const RowBiasOptions& bias);

// World-frame helpers for the current state.
Vec3 body_point_W(const Model& model, const Data& data, int body, const Vec3& p_B);  // body frame point -> world
Mat3 body_rotation(const Data& data, int body);                                     // identity for the world

// Actuator control after clamping to its range.
Real clamped_control(const Actuator& actuator, Real ctrl);

}  // namespace contactlab
