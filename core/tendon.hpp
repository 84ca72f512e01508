// Joint-space couplings of the Model: MJCF fixed tendons (a length that is a
// linear combination of scalar joint coordinates) and joint/tendon equalities
// (one coordinate a polynomial of another). Their rows are built in
// schemes/tendon_rows.cpp.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct TendonTerm {
  int joint = -1;  // hinge or slide joint
  Real coef = 0;   // m or rad of tendon length per unit joint coordinate
};

// <tendon><fixed>: length L = sum coef_i q_i.
struct Tendon {
  std::string name;
  std::vector<TendonTerm> terms;
  bool limited = false;
  Real range_lo = 0, range_hi = 0;    // limit on L
  Real stiffness = 0;                 // spring toward springlength (implicit row)
  Real springlength = 0;
  Real damping = 0;
};

// <equality><joint> or <equality><tendon>: x1 = c0 + c1 x2 + ... + c4 x2^4, as
// MuJoCo's x1 - x1(qpos0) = poly(x2 - x2(qpos0)); contactlab's joint
// coordinates and fixed-tendon lengths are 0 at qpos0. Without a second
// element x1 = c0.
struct ScalarEquality {
  std::string name;
  bool tendons = false;     // the two elements are tendons (else joints)
  int first = -1, second = -1;  // joint or tendon ids; second -1 = none
  std::array<Real, 5> polycoef{0, 1, 0, 0, 0};
};

}  // namespace contactlab
