// The vocabulary of contact sensitivities (docs/gradients.md; MATH.md B.2,
// B.4, D.2, D.3), shared by the contact laws, which write their relations in
// it, and the adjoints, which linearise them (adjoints/local_sensitivity.hpp).
//
// A sensitivity kind writes the law of a solved local problem
//   sigma = A lambda + b   (rows: bilateral, limits, 3 per contact (n, t1, t2))
// as m equations C(lambda, sigma; mu) = 0 and differentiates them (implicit
// function theorem):  K d lambda = -(C_sigma c + C_mu dmu),  K = C_lambda + C_sigma A,
// c = db + dA lambda. Contact k's three equations depend only on its own
// (lambda_k, sigma_k, mu_k), so a law hands them over as one block per
// contact (ContactRelationBlock):
//   residual = C_k,  C_lambda = dC_k/dlambda_k,  C_sigma = dC_k/dsigma_k (3 x 3),
//   C_mu = dC_k/dmu_k (3),  scale = the size of the terms of each equation
//   (|residual_i| / scale_i is its relative residual).
// The built-in kinds (exact, signorini, central_path, frozen_w) are each law's
// own (ContactModel::contact_relations, contact_models/cone_relations.hpp);
// a user-defined relaxation of the contact law is a CustomSensitivity, used
// when SensitivityOptions::kind is Custom.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

class ContactModel;
class CustomSensitivity;

enum class SensitivityKind { Exact, Signorini, CentralPath, FrozenW, Custom };
// "exact", "signorini", "central_path", "frozen_w"; Custom: "custom" (its own
// name is SensitivityOptions::custom->name(), see kind_name()).
const char* to_string(SensitivityKind kind);
// "exact", "signorini", "central_path" or "frozen_w"; anything else throws std::invalid_argument.
SensitivityKind parse_sensitivity_kind(const std::string& name);
// True for the built-in kinds linearised at a relaxed point (signorini,
// central_path); false for Custom, whose object says (is_relaxed(options)).
bool is_relaxed(SensitivityKind kind);

// The mode of a contact at a hard solution (the branch of the law it is on).
enum class ContactMode { Separating, Sticking, Sliding };
const char* to_string(ContactMode mode);

// Characteristic velocity (m/s) and impulse (N s) of a local problem, the
// scales of the velocity and impulse equations.
struct RelationScales {
  Real velocity = 1, impulse = 1;
};

// Contact k's three equations C_k(lambda_k, sigma_k; mu_k) = 0 and their
// partials (rows and columns (n, t1, t2)).
struct ContactRelationBlock {
  Vec3 residual = Vec3::Zero();  // C_k
  Vec3 scale = Vec3::Ones();     // size of the terms of each equation (> 0)
  Mat3 C_lambda = Mat3::Zero();  // dC_k/dlambda_k
  Mat3 C_sigma = Mat3::Zero();   // dC_k/dsigma_k
  Vec3 C_mu = Vec3::Zero();      // dC_k/dmu_k

  // residual, partials 0; scale 1.
  void clear() { *this = ContactRelationBlock{}; }
};

struct SensitivityOptions {
  SensitivityKind kind = SensitivityKind::Exact;
  Real rho = 1e-6;  // relaxation of signorini / central_path, J = N s m/s (> 0)
  Real delta = 0;   // normal offset: sigma_N = (A lambda + b)_N + delta on unilateral rows, m/s (relaxed kinds)
  int newton_iterations = 30;       // Newton iterations per attempt (and per continuation stage)
  Real newton_tolerance = 1e-12;    // relative residual of the relaxed relations (docs/gradients.md)
  int continuation_stages = 4;      // rho-continuation on failure: rho_j = rho f^(j-stages+1), j < stages; 0: none
  Real continuation_factor = 10;    // f > 1
  Real slip_threshold = 1e-10;      // |sigma_t| <= threshold * velocity scale: a sliding contact is taken as sticking
  Real singular_tolerance = 1e-12;  // reciprocal condition of the row-equilibrated K below which K is singular
  // The user-defined kind, used when kind == Custom (required then; ignored otherwise).
  std::shared_ptr<const CustomSensitivity> custom;

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

// Whether options' kind is linearised at a relaxed point (Custom: its object's relaxed()).
bool is_relaxed(const SensitivityOptions& options);
// to_string(kind), or the custom kind's own name.
std::string kind_name(const SensitivityOptions& options);

// A user-defined relaxation of the contact law in the backward pass
// (SensitivityOptions::kind = Custom, ::custom = this). It replaces the
// contact equations only: bilateral rows stay sigma = 0, limit rows are
// lambda sigma = rho when relaxed() and by mode otherwise
// (adjoints/local_relations.hpp).
//  - relaxed() false: the equations are linearised at the hard solution
//    (lambda, sigma = A lambda + b), with the contacts' modes read from it.
//  - relaxed() true: they are linearised at their own root near the hard
//    solution, found by the damped Newton of adjoints/local_relaxed_point.hpp
//    (from the hard solution, then by rho-continuation from relaxed_start();
//    steps stay where contact_interior() holds once it does), with the same
//    fallback to exact when that fails.
// Every call covers all nc contacts of a problem: mu (nc), modes (nc),
// lambda and sigma (3 nc, contact rows only), out (nc).
class CustomSensitivity {
 public:
  virtual ~CustomSensitivity() = default;
  virtual std::string name() const = 0;
  virtual bool relaxed() const = 0;
  // out[k] <- contact k's equations and partials at (lambda_k, sigma_k) for
  // the forward law `law` (which may be asked for its own relations, e.g.
  // law.contact_relations(SensitivityKind::Exact, ...)), its mode, the
  // relaxation rho (that of the continuation stage during Newton) and the
  // problem's scales.
  virtual void contact_relations(const ContactModel& law, const Real* mu, int nc, const ContactMode* modes, Real rho,
                                 const RelationScales& scales, const Real* lambda, const Real* sigma,
                                 ContactRelationBlock* out) const = 0;
  // Relaxed kinds: whether (lambda, sigma) lies where the relaxed point must
  // (strictly inside the cones). Default: the law's signorini check
  // (lambda_n > 0 and a positive normal gap on every contact).
  virtual bool contact_interior(const ContactModel& law, const Real* mu, int nc, const Real* lambda,
                                const Real* sigma) const;
  // Relaxed kinds: the continuation's start, in place from the hard solution
  // (step: (nc) natural-map step of each contact, 1/A_nn). Default: the law's
  // central-path start (the per-contact central point of the natural-map
  // argument at rho step; ContactModel::relaxed_start).
  virtual void relaxed_start(const ContactModel& law, const Real* mu, int nc, const ContactMode* modes,
                             const Real* step, Real rho, Real* lambda, Real* sigma) const;
};

// What a linearisation found and did.
struct SensitivityReport {
  SensitivityKind requested = SensitivityKind::Exact;
  SensitivityKind used = SensitivityKind::Exact;  // Exact after a fallback
  std::vector<ContactMode> contact_modes;         // (num_contacts) at the hard solution
  std::vector<bool> limit_active;                 // (num_limit) lambda > 0 side at the hard solution
  // Relaxed kinds only:
  bool newton_converged = false;
  int newton_iterations = 0;       // all attempts and stages together
  Real newton_residual = 0;        // relative residual at the returned point
  bool cone_check_passed = false;  // lambda~, s^~ in int Q (central_path); lambda_N, sigma_N > 0 (signorini)
  bool continuation_used = false;
  std::string continuation_reason;  // why the first Newton attempt failed, when continuation was used
  bool fell_back_to_exact = false;
  std::string fallback_reason;  // why, when fell_back_to_exact
  // The linear system:
  int rank = 0;           // of K (m unless singular)
  bool singular = false;  // K solved by minimum-norm least squares
};

}  // namespace contactlab
