// ConstraintProblem: what a step hands to a solver.
//
// Rows are ordered in three contiguous groups: bilateral rows (joints, loop
// closures, servos, damping/armature), unilateral limit rows, then contact
// blocks of three rows [normal, t1, t2]. Each row of J touches at most two
// bodies; its two 6-vectors (linear, angular; world frame) are stored apart.
//
// Solve for impulses lambda (m) with velocities after the step
//   v+ = D lambda + v_f,   D = J M^-1 J^T + diag(R)
// subject to: bilateral v+ = 0; limits 0 <= lambda _|_ v+ >= 0; contacts
// under the ContactModel's law (e.g. de Saxce: K ∋ lambda _|_ v+ + Gamma(v+) ∈ K*).
#pragma once

#include <memory>
#include <vector>

#include "core/explicit_delassus.hpp"
#include "core/math.hpp"

namespace contactlab {

// Over any scalar T (ConstraintRow: T = Real; dual numbers in the exact pull-back).
template <class T>
struct ConstraintRowT {
  int body_a = -1, body_b = -1;        // -1 = world (or a fixed body: no contribution)
  Vec6T<T> J_a = Vec6T<T>::Zero();     // row of J for body_a's twist (v, w), world frame
  Vec6T<T> J_b = Vec6T<T>::Zero();     // row of J for body_b's twist
};
using ConstraintRow = ConstraintRowT<Real>;

// A nonlinear (re-linearised) problem at a solver iterate: a backward-Euler
// scheme evaluates position-level rows (joints, limits, contact gaps) at
// q+ = q- + h G u+ instead of their linearisation, and the Jacobian the
// impulses act along (J at q- or at q+, the scheme's choice).
class RowEvaluator {
 public:
  virtual ~RowEvaluator() = default;
  // delta = u+ - u_free (6 nb). Writes every row's value w (m) at the iterate
  // (position rows c(q+)/h; velocity rows J(q+) u+ + their bias) and the rows
  // of J the impulses act along (same order and count as the problem's).
  virtual void evaluate(const Real* delta, Real* w, std::vector<ConstraintRow>& rows) = 0;
  // The iterate the solver returns (its impulses satisfy M delta = J^T lambda
  // up to the solver's residual): the scheme takes this iterate as the new state.
  virtual void accept(const Real* delta) = 0;
  // The largest fraction (<= 1) of a solver step d_delta to take at once.
  virtual Real step_limit(const Real* d_delta) const = 0;
};

struct ConstraintProblem {
  int num_bilateral = 0;          // rows [0, num_bilateral)
  int num_limit = 0;              // rows [num_bilateral, num_bilateral + num_limit)
  int num_contacts = 0;           // contact k owns rows contact_offset() + 3k + {0,1,2}
  int num_bodies = 0;

  std::vector<ConstraintRow> rows;      // (m)
  std::vector<Real> compliance;         // (m) diagonal R, >= 0
  std::vector<Real> v_free;             // (m) v_f = J u_free + bias + restitution
  std::vector<Real> mu;                 // (num_contacts) friction coefficient per contact
  // Inverse mass matrix, block diagonal per body (zero for fixed bodies).
  std::vector<Real> inv_mass;           // (num_bodies)
  std::vector<Mat3> inv_inertia_W;      // (num_bodies) world frame
  // Set by schemes that re-linearise (nullptr: the problem is linear). Only
  // solvers whose relinearises() is true use it.
  RowEvaluator* nonlinear_rows = nullptr;  // not owned; evaluating mutates only its scratch
  // A standalone local problem v = W lambda + v_f given by its Delassus matrix
  // (e.g. a Siconos/FCLib file): no bodies, so J is the identity and W plays
  // M^-1 — the "twist" space is the row space (twist_size() = m). apply_J and
  // apply_JT are then the identity, apply_Minv and apply_delassus multiply by
  // W, dense_delassus copies it. rows, inv_mass and inv_inertia_W are unused;
  // solvers that need the bodies themselves refuse such a problem.
  std::shared_ptr<const ExplicitDelassus> explicit_W;

  int num_rows() const { return explicit_W ? static_cast<int>(v_free.size()) : static_cast<int>(rows.size()); }
  bool explicit_delassus() const { return static_cast<bool>(explicit_W); }
  // Length of the vectors apply_JT, apply_Minv and apply_J's input use.
  int twist_size() const { return explicit_W ? num_rows() : 6 * num_bodies; }
  // Makes this a standalone problem of m = 3 nc contact rows with Delassus W
  // (m x m), free velocity q (m) and friction mu (nc).
  void set_explicit(const MatX& W, const VecX& q, const VecX& mu);
  void set_explicit(std::shared_ptr<const ExplicitDelassus> W, const VecX& q, const VecX& mu);
  int contact_offset() const { return num_bilateral + num_limit; }

  // Sizes every array for the given counts (capacity is kept, so a reused
  // problem does not allocate once it has seen its largest size).
  void resize(int bodies, int bilateral, int limits, int contacts);

  // y = J^T x, y has 6 entries per body (v, w).
  void apply_JT(const Real* x, Real* y) const;
  // y = J u.
  void apply_J(const Real* u, Real* y) const;
  // y = M^-1 x (twist space).
  void apply_Minv(const Real* x, Real* y) const;
  // y = (J M^-1 J^T + R) x, matrix free; scratch has 6*num_bodies entries.
  void apply_delassus(const Real* x, Real* y, Real* scratch) const;
  // Dense D = J M^-1 J^T + diag(R) (m x m), for small problems and factorisation.
  void dense_delassus(MatX& D) const;
};

// Entries of the Delassus operator from the rows and bodies (explicit W: its
// entries), without the rows' compliance.
// M^-1 j for one body's 6-vector (v, w), world frame.
Vec6 body_minv(const ConstraintProblem& pr, int body, const Vec6& j);
// (J M^-1 J^T)_rr of row r from its two ends.
Real delassus_diagonal_entry(const ConstraintProblem& pr, int r);
// (J M^-1 J^T)_rs.
Real delassus_entry(const ConstraintProblem& pr, int r, int s);

}  // namespace contactlab
