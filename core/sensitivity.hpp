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
#pragma once

#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

enum class SensitivityKind { Exact, Signorini, CentralPath, FrozenW };
const char* to_string(SensitivityKind kind);
// "exact", "signorini", "central_path" or "frozen_w"; anything else throws std::invalid_argument.
SensitivityKind parse_sensitivity_kind(const std::string& name);
// True for the kinds linearised at a relaxed point (signorini, central_path).
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

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
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
