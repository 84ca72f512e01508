#include "core/solve_adjoint.hpp"

#include <stdexcept>

#include "core/options.hpp"

namespace contactlab {

const char* to_string(AdjointSolve choice) { return choice == AdjointSolve::Paired ? "paired" : "reference"; }

AdjointSolve parse_adjoint_solve(const std::string& name) {
  if (name == "paired") return AdjointSolve::Paired;
  if (name == "reference") return AdjointSolve::Reference;
  throw std::invalid_argument("unknown adjoint solve '" + name + "' (paired, reference)");
}

void KrylovOptions::Validate() const {
  const OptionCheck require("KrylovOptions");
  require(max_iterations >= 1, "max_iterations", max_iterations, "must be >= 1");
  require(restart >= 1, "restart", restart, "must be >= 1");
  require(tolerance > 0 && tolerance < 1, "tolerance", tolerance, "must lie in (0, 1)");
}

}  // namespace contactlab
