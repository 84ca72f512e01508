// StepAdjoint: reverse mode through one step of a scheme (interface; the
// implementations live in adjoints/, made by Scheme::make_step_adjoint).
// Filled in by the step-adjoint interface; declared here so that schemes can
// name it.
#pragma once

namespace contactlab {

class StepAdjoint {
 public:
  virtual ~StepAdjoint() = default;
};

}  // namespace contactlab
