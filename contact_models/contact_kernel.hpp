// The per-contact cone functions of a ContactKernel (core/contact_model.hpp),
// inline, for solvers that sweep contact by contact: each built-in cone family
// calls the same CL_HD function its law's batch functions call, so a sweep
// through the kernel computes exactly what the law would.
//   HardCone     de Saxce: s = Gamma(v) = (mu |v_t|, 0, 0), Pi_{K_mu}        (desaxce, fischer_burmeister)
//   ConvexCone   no shift, Pi_{K_mu}                                          (ccp)
//   CentralPath  de Saxce's shift, the smoothed projection P_{rho step}       (central_path)
//   Law          the law's own batch functions on one contact (a virtual call)
#pragma once

#include <cmath>

#include "contact_models/cone.hpp"
#include "contact_models/soc_smoothing.hpp"
#include "core/contact_model.hpp"

namespace contactlab {
namespace contact_kernel {

// s <- Gamma(v) of one contact (3 entries each).
inline void velocity_shift(const ContactKernel& k, Real mu, const Real* v, Real* s) {
  switch (k.kind) {
    case ContactKernel::Kind::HardCone:
    case ContactKernel::Kind::CentralPath:
      cone::desaxce_shift(mu, v, s);
      return;
    case ContactKernel::Kind::ConvexCone:
      s[0] = s[1] = s[2] = 0;
      return;
    case ContactKernel::Kind::Law:
      k.law->velocity_shift(&mu, 1, v, s);
      return;
  }
}

// x <- the projection of one contact for a solver whose fixed point is
// lambda = Pi(lambda - step sigma^) (ContactModel::project_primal_step).
inline void project_primal_step(const ContactKernel& k, Real mu, Real step, Real* x) {
  switch (k.kind) {
    case ContactKernel::Kind::HardCone:
    case ContactKernel::Kind::ConvexCone:
      cone::project_primal(mu, x);
      return;
    case ContactKernel::Kind::CentralPath:
      if (step > 0 && std::isfinite(step)) {
        soc_smoothing::project_primal(mu, k.rho * step, x);
        return;
      }
      k.law->project_primal_step(&mu, 1, step, x);  // throws, naming the bad step
      return;
    case ContactKernel::Kind::Law:
      k.law->project_primal_step(&mu, 1, step, x);
      return;
  }
}

}  // namespace contact_kernel
}  // namespace contactlab
