// Plain vector kernels on raw buffers, shared by the solvers and the Krylov
// methods (core/linalg/krylov.hpp). Kept out of line so every caller sums in
// the same order.
#pragma once

#include "core/math.hpp"

namespace contactlab {
namespace linalg {

// sum_i a_i b_i, in index order.
Real dot(const Real* a, const Real* b, int n);

}  // namespace linalg
}  // namespace contactlab
