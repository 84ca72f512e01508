#include "core/linalg/vector_ops.hpp"

namespace contactlab {
namespace linalg {

Real dot(const Real* a, const Real* b, int n) {
  Real s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

}  // namespace linalg
}  // namespace contactlab
