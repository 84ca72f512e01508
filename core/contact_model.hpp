// ContactModel: the law between a contact's impulse lambda_k and its velocity
// after the step v_k (both 3-vectors, normal first). A solver never knows which
// law it solves: it calls these batch-level operations on all contacts at once
// (virtual dispatch per problem, never per contact).
#pragma once

#include <stdexcept>
#include <string>

#include "core/math.hpp"
#include "core/options.hpp"
#include "core/sensitivity.hpp"

namespace contactlab {

namespace contact_model_detail {
// The default of a capability a law does not have.
[[noreturn]] inline void missing(const std::string& law, const char* capability) {
  throw std::logic_error("contact law '" + law + "' has no " + capability);
}
}  // namespace contact_model_detail

class ContactModel;

// A law's per-contact cone functions in a form a solver inlines inside a
// loop over single contacts (a Gauss-Seidel sweep), so that no virtual call
// is made per contact: the built-in cone families by tag
// (contact_models/contact_kernel.hpp holds the inline functions). A law of
// another form answers through its own batch functions on one contact (Law).
struct ContactKernel {
  enum class Kind { HardCone, ConvexCone, CentralPath, Law };
  Kind kind = Kind::Law;
  Real rho = 0;                      // CentralPath: the law's central-path parameter
  const ContactModel* law = nullptr;  // Law: the law itself
};

class ContactModel {
 public:
  virtual ~ContactModel() = default;
  virtual std::string name() const = 0;
  // Whether the law is a convex cone complementarity (no de Saxce shift).
  virtual bool is_convex() const = 0;
  // Whether the law is hard (no compliance on contact rows).
  virtual bool is_hard() const = 0;

  // x_k <- Pi_{K_mu_k}(x_k) for every contact k (x has 3*nc entries).
  virtual void project_primal(const Real* mu, int nc, Real* x) const = 0;
  // The same projection for a solver whose fixed point is
  // lambda = Pi(lambda - step * sigma^) with a step other than 1. Cone laws do
  // not depend on the step; relaxed laws (central path) scale their parameter
  // with it so that every solver lands on the same relaxed relation.
  virtual void project_primal_step(const Real* mu, int nc, Real /*step*/, Real* x) const { project_primal(mu, nc, x); }
  // Target of lambda_k . (v_k + Gamma(v_k)) at a solution: 0 for exact
  // complementarity, rho on a central path. Solvers and metrics measure
  // complementarity against it.
  virtual Real complementarity_target() const { return 0; }
  // x_k <- Pi_{K*_mu_k}(x_k).
  virtual void project_dual(const Real* mu, int nc, Real* x) const = 0;
  // s_k <- Gamma(v_k): the velocity shift that turns the law into a cone
  // complementarity K ∋ lambda _|_ v + Gamma(v) ∈ K* (zero where there is none).
  virtual void velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const = 0;
  // Diagonal compliance added to contact rows (3*nc entries); zero for hard laws.
  virtual void contact_compliance(const Real* mu, int nc, Real* R) const = 0;

  // Non-smooth residual form, for Newton-type solvers (MATH.md B.1). A law that
  // has one returns true and, for every contact k, the residual r_k (3 rows,
  // zero iff the law holds) of the impulse lambda_k and the velocity v_k, with
  // its generalised derivative in diagonal form: a = dr/dv, c = dr/dlambda
  // (nonlinear weights such as the friction compliance W are frozen at the
  // given point, which keeps the Newton matrix symmetric). `scale` gives per
  // contact (D_nn, mean tangential D) to make velocity and impulse commensurate.
  // `weight` receives per-row weights of the merit |weight ∘ r|^2 that solvers
  // use to judge iterates (rows that cannot vanish where the law holds get 0).
  virtual bool has_ncp_residual() const { return false; }
  virtual void ncp_residual(const Real* /*mu*/, int /*nc*/, const Real* /*lambda*/, const Real* /*v*/,
                            const Real* /*scale*/, Real* /*r*/, Real* /*a*/, Real* /*c*/, Real* /*weight*/) const {}
  // Returns impulses to the admissible set after a Newton update (lambda_n >= 0,
  // |lambda_t| <= mu lambda_n by a radial clamp).
  virtual void safeguard(const Real* mu, int nc, Real* lambda) const { project_primal(mu, nc, lambda); }

  // Fraction of a penetration removed per step by the normal bias. Laws with
  // their own gap recovery (CCP's eta) override it; others keep the scheme's.
  virtual Real penetration_recovery(Real scheme_default) const { return scheme_default; }

  // True when project_primal, project_dual and velocity_shift are exactly the
  // hard de Saxce cone functions of contact_models/cone.hpp, with no
  // compliance and complementarity_target() == 0: kernels that inline those
  // functions instead of calling the law (the batched PADMM on CPU and CUDA,
  // solvers/batch_padmm_solver.hpp) may then solve it.
  virtual bool uses_hard_coulomb_cones() const { return false; }
  // The per-contact form of velocity_shift and project_primal_step (one call
  // per problem; validates the options). The default: this law's own batch
  // functions on one contact at a time.
  virtual ContactKernel contact_kernel() const { return ContactKernel{ContactKernel::Kind::Law, 0, this}; }

  // Binds this model's options under `prefix` (e.g. "contact.").
  virtual void bind_options(OptionSet& set, const std::string& prefix) = 0;

  // ---- What the adjoints and convex_newton need of a law ----------------
  // (docs/gradients.md, MATH.md B.3, C.3, D.2-D.4). Every operation covers
  // all nc contacts of a problem in one call: mu (nc), lambda and sigma
  // (3 nc) the contacts' impulses and velocities sigma = (A lambda + b) on the
  // contact rows, modes (nc). A law without a capability keeps the defaults,
  // which say so (has_*() false) or throw std::logic_error.

  // Linearisation: the law as equations C(lambda, sigma; mu) = 0 for the
  // built-in sensitivity kinds (core/sensitivity.hpp). True: the methods below
  // are implemented and gradients through this law are available.
  virtual bool has_linearisation() const { return false; }
  // modes[k] <- contact k's mode at a hard solution, read from the natural-map
  // argument x = lambda_k - step_k sigma^_k (sigma^ the law's shifted
  // velocity; step (nc): 1/A_nn of the contact's normal row): separating if x
  // is in the polar cone, sticking if inside K_mu or |sigma_t| <= slip_speed,
  // else sliding.
  virtual void contact_modes(const Real* /*mu*/, int /*nc*/, const Real* /*lambda*/, const Real* /*sigma*/,
                             const Real* /*step*/, Real /*slip_speed*/, ContactMode* /*modes*/) const {
    contact_model_detail::missing(name(), "linearisation (ContactModel::has_linearisation)");
  }
  // out[k] <- contact k's equations of `kind` (not Custom) at its mode and
  // their partials (relaxation rho; scales for the relative residual).
  virtual void contact_relations(SensitivityKind /*kind*/, const Real* /*mu*/, int /*nc*/, const ContactMode* /*modes*/,
                                 Real /*rho*/, const RelationScales& /*scales*/, const Real* /*lambda*/,
                                 const Real* /*sigma*/, ContactRelationBlock* /*out*/) const {
    contact_model_detail::missing(name(), "linearisation (ContactModel::has_linearisation)");
  }
  // The cone check of a relaxed kind's point (true for the other kinds).
  virtual bool contact_interior(SensitivityKind /*kind*/, const Real* /*mu*/, int /*nc*/, const Real* /*lambda*/,
                                const Real* /*sigma*/) const {
    contact_model_detail::missing(name(), "linearisation (ContactModel::has_linearisation)");
  }
  // The relaxed kind's continuation start at relaxation rho, in place from
  // the hard solution (step as in contact_modes).
  virtual void relaxed_start(SensitivityKind /*kind*/, const Real* /*mu*/, int /*nc*/, const ContactMode* /*modes*/,
                             const Real* /*step*/, Real /*rho*/, Real* /*lambda*/, Real* /*sigma*/) const {
    contact_model_detail::missing(name(), "linearisation (ContactModel::has_linearisation)");
  }
  // A relaxed forward law asks to be differentiated at its own relaxed point
  // by setting the kind (and its parameter) in `options`; others leave them.
  virtual void forward_sensitivity(SensitivityOptions& /*options*/) const {}

  // Convex primal penalty (MATH.md B.3, C.3): per contact a convex C^1
  // penalty l(r) of the contact velocity r (3), with lambda = -dl/dr and
  // H = d2l/dr2 (3 x 3 row-major, PSD), for a compliance rho > 0; rho (3 nc)
  // holds each contact row's compliance and the law reads rho[3k] (R = rho I
  // per contact: the caller checks isotropy). convex_newton accepts exactly
  // the laws that have it.
  virtual bool has_convex_penalty() const { return false; }
  // For every k in order: *cost += l(r_k); lambda_k, H_k (9) written where not null.
  virtual void convex_penalty(const Real* /*mu*/, int /*nc*/, const Real* /*rho*/, const Real* /*r*/, Real* /*cost*/,
                              Real* /*lambda*/, Real* /*H*/) const {
    contact_model_detail::missing(name(), "convex primal penalty (ContactModel::has_convex_penalty)");
  }
  // Along r + a s (the line search): for every k in order, with x = r_k + a s_k,
  // *pen += l(x), *dpen -= lambda(x) . s_k, *d2pen += s_k . H(x) s_k.
  virtual void convex_penalty_along(const Real* /*mu*/, int /*nc*/, const Real* /*rho*/, const Real* /*r*/,
                                    const Real* /*s*/, Real /*a*/, Real* /*pen*/, Real* /*dpen*/,
                                    Real* /*d2pen*/) const {
    contact_model_detail::missing(name(), "convex primal penalty (ContactModel::has_convex_penalty)");
  }
  // H_k <- the Hessian at r_k with the curvature taken from the impulse
  // lambda_k (3 nc) where the law's Hessian depends on an O(rho) gap of r
  // that the impulse carries more accurately (an adjoint at a recorded
  // solve); other contacts' H_k are left as they are.
  virtual void convex_penalty_hessian_from_impulse(const Real* /*mu*/, int /*nc*/, const Real* /*rho*/,
                                                   const Real* /*r*/, const Real* /*lambda*/, Real* /*H*/) const {
    contact_model_detail::missing(name(), "convex primal penalty (ContactModel::has_convex_penalty)");
  }
  // zones[k] <- the penalty's zone at r_k as a mode: l = 0 separating,
  // lambda = -r/rho sticking, between them sliding.
  virtual void convex_penalty_zones(const Real* /*mu*/, int /*nc*/, const Real* /*r*/, ContactMode* /*zones*/) const {
    contact_model_detail::missing(name(), "convex primal penalty (ContactModel::has_convex_penalty)");
  }
  // out (3 nc) <- d lambda_k / d mu_k at fixed r_k; lambda (3 nc): the impulses
  // to take the zone's magnitude from (null: from r).
  virtual void convex_impulse_mu_derivative(const Real* /*mu*/, int /*nc*/, const Real* /*rho*/, const Real* /*r*/,
                                            const Real* /*lambda*/, Real* /*out*/) const {
    contact_model_detail::missing(name(), "convex primal penalty (ContactModel::has_convex_penalty)");
  }
  // ---- end of what the adjoints and convex_newton need ----------------------
};

}  // namespace contactlab
