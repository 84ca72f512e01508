#include "contact_models/fischer_burmeister.hpp"


namespace contactlab {

void FischerBurmeisterModel::ncp_residual(const Real* mu, int nc, const Real* lambda, const Real* v,
                                          const Real* scale, Real* r, Real* a, Real* c, Real* weight) const {
  fb::Smoothing<Real> s;
  s.eps = options.smoothing;
  s.eps_t = options.friction_epsilon;
  s.w_max = options.max_weight;
  for (int k = 0; k < nc; ++k)
    fb::contact_rows(mu[k], lambda + 3 * k, v + 3 * k, scale[2 * k], scale[2 * k + 1], s, r + 3 * k, a + 3 * k,
                     c + 3 * k, weight + 3 * k);
}

void FischerBurmeisterModel::safeguard(const Real* mu, int nc, Real* lambda) const {
  for (int k = 0; k < nc; ++k) fb::safeguard(mu[k], lambda + 3 * k);
}

void FischerBurmeisterModel::bind_options(OptionSet& set, const std::string& prefix) {
  set.add(prefix + "smoothing", &options.smoothing, "m/s, epsilon of the smoothed Fischer-Burmeister function", 0);
  set.add(prefix + "friction_epsilon", &options.friction_epsilon, "m/s, guard of |v_t| in the friction weight", 0);
  set.add(prefix + "max_weight", &options.max_weight, "upper clamp of the friction weight W (relative)", 0);
}

}  // namespace contactlab
