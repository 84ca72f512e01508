#include "core/step_adjoint.hpp"

namespace contactlab {

StepInputs capture_inputs(const Model& model, const Data& data) {
  StepInputs in;
  in.bodies.resize(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) {
    in.bodies[b].x = data.x_W[b];
    in.bodies[b].q = data.q_WB[b];
    in.bodies[b].v = data.v_W[b];
    in.bodies[b].w = data.w_W[b];
  }
  in.ctrl = data.ctrl;
  return in;
}

void StepAdjoint::record_before(const Model& model, const Data& data, StepRecord& record) const {
  record.inputs = capture_inputs(model, data);
}

void StepAdjoint::record_after(const Model& model, const Data& data, StepRecord& record) const {
  record.inputs.contacts = data.contacts;  // found at q-, during the step
  record.lambda = data.lambda;
  if (needs_state_after()) record.after = capture_inputs(model, data).bodies;
}

}  // namespace contactlab
