#include "solvers/convex_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/linalg/dense_cholesky.hpp"

namespace contactlab {

using namespace solver_common;

namespace {

using Mat36 = Eigen::Matrix<Real, 3, 6>;
using Mat6R = Eigen::Matrix<Real, 6, 6, Eigen::RowMajor>;
using Mat3R = Eigen::Matrix<Real, 3, 3, Eigen::RowMajor>;

// Intermediate continuation stages stop early: their answer only starts the
// next stage (velocity error 1e-3 m/s, or a relative cost decrease of 1e-8).
constexpr Real kStageGradientTolerance = 1e-3;
constexpr Real kStageCostTolerance = 1e-8;
// Safety factor of the rounding floor of the gradient (Newton::gradient_floor).
constexpr Real kFloorFactor = 16;

// The moving bodies touched by rows [row0, row0 + k) (k <= 3) and each one's
// effective k x 6 Jacobian (rows past k stay zero; a body on both ends of a
// row gets J_a + J_b). Fixed bodies and the world have no unknowns.
struct GroupJacobian {
  int count = 0;
  int body[6];
  Mat36 J[6];

  void collect(const ConstraintProblem& pr, const int* dof, int row0, int k) {
    count = 0;
    for (int j = 0; j < k; ++j) {
      const ConstraintRow& row = pr.rows[row0 + j];
      const int b[2] = {row.body_a, row.body_b};
      const Vec6* Jr[2] = {&row.J_a, &row.J_b};
      for (int e = 0; e < 2; ++e) {
        if (b[e] < 0 || dof[b[e]] < 0) continue;
        int p = 0;
        while (p < count && body[p] != b[e]) ++p;
        if (p == count) {
          body[count] = b[e];
          J[count++].setZero();
        }
        J[p].row(j) += Jr[e]->transpose();
      }
    }
  }
};

// Everything one solve needs, over the workspace's buffers (no allocation).
class Newton {
 public:
  Newton(const ConstraintProblem& pr, const ConvexNewtonOptions& opt, ConvexNewtonWorkspace& ws)
      : pr_(pr), opt_(opt), ws_(ws), m_(pr.num_rows()), nb6_(6 * pr.num_bodies), off_(pr.contact_offset()) {}

  // Returns false on non-finite mass data; throws on a moving body whose
  // inverse inertia is not SPD (misuse: the model never produces one).
  bool setup(const ContactModel& law) {
    law_ = &law;
    const int nb = pr_.num_bodies, nc = pr_.num_contacts;
    int* dof = grow(ws_.dof, std::max(nb, 1));
    Real* inertia = grow(ws_.inertia, std::max(9 * nb, 1));
    Real* md = grow(ws_.mass_diag, std::max(nb6_, 1));
    n_ = 0;
    for (int b = 0; b < nb; ++b) {
      const Real im = pr_.inv_mass[b];
      if (!std::isfinite(im) || !pr_.inv_inertia_W[b].allFinite()) return false;
      if (!(im > 0)) {
        dof[b] = -1;
        for (int i = 0; i < 6; ++i) md[6 * b + i] = 0;
        continue;
      }
      Eigen::LLT<Mat3> llt(pr_.inv_inertia_W[b]);
      if (llt.info() != Eigen::Success) {
        std::ostringstream s;
        s << "convex_newton: body " << b << " has inverse mass > 0 but an inverse inertia that is not SPD";
        throw std::invalid_argument(s.str());
      }
      const Mat3 I = llt.solve(Mat3::Identity());
      Eigen::Map<Mat3R>(inertia + 9 * b) = 0.5 * (I + I.transpose());
      dof[b] = n_;
      n_ += 6;
      for (int i = 0; i < 3; ++i) {
        md[6 * b + i] = 1 / im;
        md[6 * b + 3 + i] = inertia[9 * b + 4 * i];
      }
    }
    // Row compliances: contacts take the law's (+ the problem's own), the
    // scalar rows the problem's or, where it is 0, bilateral_compliance.
    Real* R = grow(ws_.row_R, m_);
    Real* lawR = grow(ws_.law_R, std::max(3 * nc, 1));
    law_contact_compliance(law, pr_.mu.data(), nc, lawR);
    for (int i = 0; i < off_; ++i) R[i] = pr_.compliance[i] > 0 ? pr_.compliance[i] : opt_.bilateral_compliance;
    for (int k = 0; k < nc; ++k) {
      const int o = off_ + 3 * k;
      Real c[3];
      for (int j = 0; j < 3; ++j) c[j] = row_compliance(pr_, lawR, o + j);
      // The zone formulas need R = rho I per contact (MATH.md B.3).
      if (!(c[0] > 0) || std::abs(c[1] - c[0]) > 1e-12 * c[0] || std::abs(c[2] - c[0]) > 1e-12 * c[0]) {
        std::ostringstream s;
        s << "convex_newton: contact " << k << " needs an isotropic compliance rho > 0 (got " << c[0] << ", "
          << c[1] << ", " << c[2] << ")";
        throw std::invalid_argument(s.str());
      }
      for (int j = 0; j < 3; ++j) R[o + j] = c[0];
    }
    grow(ws_.du, std::max(nb6_, 1));
    grow(ws_.d, std::max(nb6_, 1));
    grow(ws_.g, std::max(nb6_, 1));
    grow(ws_.Mx, std::max(nb6_, 1));
    grow(ws_.tmp6, std::max(nb6_, 1));
    grow(ws_.r, m_);
    grow(ws_.s, m_);
    grow(ws_.lambda, m_);
    grow(ws_.weight, off_ + 9 * nc);
    if (opt_.linear_solver == ConvexNewtonOptions::kDense) {
      grow(ws_.hessian, std::max(static_cast<size_t>(n_) * n_, size_t(1)));
      grow(ws_.rhs, std::max(n_, 1));
    } else {
      for (auto* v : {&ws_.cg_r, &ws_.cg_z, &ws_.cg_p, &ws_.cg_q, &ws_.cg_diag}) grow(*v, std::max(nb6_, 1));
      grow(ws_.cg_m, m_);
    }
    return true;
  }

  int unknowns() const { return n_; }

  // out = M x (twist space; 0 on fixed bodies).
  void apply_M(const Real* x, Real* out) const {
    for (int b = 0; b < pr_.num_bodies; ++b) {
      const Real* xb = x + 6 * b;
      Real* ob = out + 6 * b;
      if (ws_.dof[b] < 0) {
        for (int i = 0; i < 6; ++i) ob[i] = 0;
        continue;
      }
      for (int i = 0; i < 3; ++i) ob[i] = ws_.mass_diag[6 * b] * xb[i];
      Eigen::Map<Vec3>(ob + 3) = Eigen::Map<const Mat3R>(ws_.inertia.data() + 9 * b) * Eigen::Map<const Vec3>(xb + 3);
    }
  }

  void mask(Real* x) const {
    for (int b = 0; b < pr_.num_bodies; ++b)
      if (ws_.dof[b] < 0)
        for (int i = 0; i < 6; ++i) x[6 * b + i] = 0;
  }

  // Penalty of every row at r. lambda (m) and the Hessian weights are written
  // when the pointers are not null.
  Real penalty(const Real* r, Real* lambda, Real* weight) const {
    const Real* R = ws_.row_R.data();
    Real cost = 0;
    for (int i = 0; i < off_; ++i) {
      const bool active = i < pr_.num_bilateral || r[i] < 0;  // limits: min(0, r)
      const Real x = active ? r[i] : Real(0);
      cost += x * x / (2 * R[i]);
      if (lambda) lambda[i] = -x / R[i];
      if (weight) weight[i] = active ? 1 / R[i] : Real(0);
    }
    // The contacts: the law's convex penalty, all in one call.
    law_->convex_penalty(pr_.mu.data(), pr_.num_contacts, R + off_, r + off_, &cost, lambda ? lambda + off_ : nullptr,
                         weight ? weight + off_ : nullptr);
    return cost;
  }

  // phi(a) - 1/2 |du + a d|_M^2 and its first two derivatives along s = J d.
  void line_penalty(Real a, Real& pen, Real& dpen, Real& d2pen) const {
    const Real *r = ws_.r.data(), *s = ws_.s.data(), *R = ws_.row_R.data();
    pen = dpen = d2pen = 0;
    for (int i = 0; i < off_; ++i) {
      const Real x = r[i] + a * s[i];
      if (i >= pr_.num_bilateral && x >= 0) continue;
      pen += x * x / (2 * R[i]);
      dpen += x * s[i] / R[i];
      d2pen += s[i] * s[i] / R[i];
    }
    law_->convex_penalty_along(pr_.mu.data(), pr_.num_contacts, R + off_, r + off_, s + off_, a, &pen, &dpen, &d2pen);
  }

  // At du: r = J du + v_f, lambda, weights, g = M du - J^T lambda; returns l.
  Real evaluate() {
    Real *du = ws_.du.data(), *r = ws_.r.data(), *g = ws_.g.data(), *Mx = ws_.Mx.data();
    pr_.apply_J(du, r);
    for (int i = 0; i < m_; ++i) r[i] += pr_.v_free[i];
    const Real pen = penalty(r, ws_.lambda.data(), ws_.weight.data());
    apply_M(du, Mx);
    pr_.apply_JT(ws_.lambda.data(), g);
    for (int i = 0; i < nb6_; ++i) g[i] = Mx[i] - g[i];
    mask(g);
    gradient_floor();
    return 0.5 * dot(du, Mx, nb6_) + pen;
  }

  // Rounding floor of g: r = J du + v_f carries an absolute error ~eps (|r| +
  // |v_f|), which lambda = -(r - Pi(r))/R magnifies by 1/R; J^T spreads it.
  // floor_j = kFloorFactor eps (|(M du)_j| + sum_i |J_ij| (|r_i| + |v_f,i|)/R_i)
  // over the rows that carry an impulse. Below it no step can be trusted.
  void gradient_floor() {
    const Real eps = std::numeric_limits<Real>::epsilon();
    Real* f = grow(ws_.floor, std::max(nb6_, 1));
    for (int j = 0; j < nb6_; ++j) f[j] = std::abs(ws_.Mx[j]);
    for (int i = 0; i < m_; ++i) {
      if (ws_.lambda[i] == 0 && (i < off_ || ws_.lambda[off_ + 3 * ((i - off_) / 3)] == 0)) continue;
      const Real e = (std::abs(ws_.r[i]) + std::abs(pr_.v_free[i])) / ws_.row_R[i];
      const ConstraintRow& row = pr_.rows[i];
      if (row.body_a >= 0) Eigen::Map<Vec6>(f + 6 * row.body_a) += row.J_a.cwiseAbs() * e;
      if (row.body_b >= 0) Eigen::Map<Vec6>(f + 6 * row.body_b) += row.J_b.cwiseAbs() * e;
    }
    for (int j = 0; j < nb6_; ++j) f[j] *= kFloorFactor * eps;
  }

  // Converged: |g_j| <= tol M_jj + floor_j for every unknown.
  bool converged(Real tol) const {
    for (int j = 0; j < nb6_; ++j)
      if (ws_.mass_diag[j] > 0 && !(std::abs(ws_.g[j]) <= tol * ws_.mass_diag[j] + ws_.floor[j])) return false;
    return true;
  }

  // max_j |g_j| / M_jj over the unknowns (velocity units).
  Real scaled_gradient() const {
    Real s = 0;
    for (int j = 0; j < nb6_; ++j) {
      if (!(ws_.mass_diag[j] > 0)) continue;
      const Real v = std::abs(ws_.g[j]) / ws_.mass_diag[j];
      if (std::isnan(v)) return v;  // std::max would drop it
      s = std::max(s, v);
    }
    return s;
  }

  // Calls f(row0, k, W) for every row group with its k x k weight (row-major,
  // padded to 3 x 3 for scalar rows).
  template <typename F>
  void for_each_group(F&& f) const {
    const Real* w = ws_.weight.data();
    for (int i = 0; i < off_; ++i) {
      if (w[i] == 0) continue;
      Mat3R W = Mat3R::Zero();
      W(0, 0) = w[i];
      f(i, 1, W);
    }
    for (int k = 0; k < pr_.num_contacts; ++k) {
      const Mat3R W = Eigen::Map<const Mat3R>(w + off_ + 9 * k);
      if (W.isZero(0)) continue;  // top zone
      f(off_ + 3 * k, 3, W);
    }
  }

  // Assembles H = M + J^T W J over the compact unknowns into ws.hessian and
  // factorises it (Cholesky, lower triangle). False if H is not numerically SPD.
  bool factor_hessian() {
    const int n = n_;
    Real* H = ws_.hessian.data();
    std::fill(H, H + static_cast<size_t>(n) * n, Real(0));
    const int* dof = ws_.dof.data();
    for (int b = 0; b < pr_.num_bodies; ++b) {
      const int o = dof[b];
      if (o < 0) continue;
      for (int i = 0; i < 3; ++i) {
        H[static_cast<size_t>(o + i) * n + o + i] = ws_.mass_diag[6 * b];
        for (int j = 0; j < 3; ++j) H[static_cast<size_t>(o + 3 + i) * n + o + 3 + j] = ws_.inertia[9 * b + 3 * i + j];
      }
    }
    GroupJacobian gj;
    for_each_group([&](int row0, int k, const Mat3R& W) {
      gj.collect(pr_, dof, row0, k);
      for (int p = 0; p < gj.count; ++p) {
        const Mat36 WJ = W * gj.J[p];
        for (int q = 0; q < gj.count; ++q) {
          Eigen::Map<Mat6R, 0, Eigen::OuterStride<>> blk(H + static_cast<size_t>(dof[gj.body[q]]) * n + dof[gj.body[p]],
                                                         Eigen::OuterStride<>(n));
          blk += gj.J[q].transpose() * WJ;
        }
      }
    });
    return dense::cholesky_factor(H, n, n);
  }

  // After setup() by another Newton over the same workspace: its unknowns.
  void adopt_unknowns() {
    n_ = 0;
    for (int b = 0; b < pr_.num_bodies; ++b) n_ += ws_.dof[b] >= 0 ? 6 : 0;
  }

  // x (twist space, 6 nb) <- H^-1 x with the factor of factor_hessian (0 on fixed bodies).
  void hessian_solve(Real* x) const {
    Real* c = ws_.rhs.data();
    const int* dof = ws_.dof.data();
    for (int b = 0; b < pr_.num_bodies; ++b)
      if (dof[b] >= 0)
        for (int i = 0; i < 6; ++i) c[dof[b] + i] = x[6 * b + i];
    dense::cholesky_solve(ws_.hessian.data(), n_, n_, c);
    for (int b = 0; b < pr_.num_bodies; ++b)
      for (int i = 0; i < 6; ++i) x[6 * b + i] = dof[b] >= 0 ? c[dof[b] + i] : Real(0);
  }

  // d = -H^-1 g by dense Cholesky over the compact unknowns. False if H is
  // not numerically SPD.
  bool direction_dense() {
    if (!factor_hessian()) return false;
    Real* d = ws_.d.data();
    for (int j = 0; j < nb6_; ++j) d[j] = -ws_.g[j];
    hessian_solve(d);
    return true;
  }

  // out = H x = M x + J^T W J x, matrix free (x is 0 on fixed bodies).
  void apply_H(const Real* x, Real* out) {
    Real *jx = ws_.cg_m.data(), *t = ws_.tmp6.data();
    const Real* w = ws_.weight.data();
    pr_.apply_J(x, jx);
    for (int i = 0; i < off_; ++i) jx[i] *= w[i];
    for (int k = 0; k < pr_.num_contacts; ++k) {
      Eigen::Map<Vec3> v(jx + off_ + 3 * k);
      const Vec3 wv = Eigen::Map<const Mat3R>(w + off_ + 9 * k) * v;
      v = wv;
    }
    pr_.apply_JT(jx, t);
    apply_M(x, out);
    for (int i = 0; i < nb6_; ++i) out[i] += t[i];
    mask(out);
  }

  // d = -H^-1 g by conjugate gradient with the Jacobi preconditioner diag(H),
  // started from 0 (every iterate is then a descent direction).
  void direction_cg() {
    Real *d = ws_.d.data(), *r = ws_.cg_r.data(), *z = ws_.cg_z.data(), *p = ws_.cg_p.data();
    Real *q = ws_.cg_q.data(), *diag = ws_.cg_diag.data();
    const int* dof = ws_.dof.data();
    for (int j = 0; j < nb6_; ++j) diag[j] = ws_.mass_diag[j] > 0 ? ws_.mass_diag[j] : Real(1);
    GroupJacobian gj;
    for_each_group([&](int row0, int k, const Mat3R& W) {
      gj.collect(pr_, dof, row0, k);
      for (int p = 0; p < gj.count; ++p) {
        const Mat36 WJ = W * gj.J[p];
        for (int j = 0; j < 6; ++j) diag[6 * gj.body[p] + j] += gj.J[p].col(j).dot(WJ.col(j));
      }
    });
    for (int j = 0; j < nb6_; ++j) {
      d[j] = 0;
      r[j] = -ws_.g[j];
      z[j] = r[j] / diag[j];
      p[j] = z[j];
    }
    const Real bnorm = std::sqrt(dot(r, r, nb6_));
    if (bnorm == 0) return;
    Real rz = dot(r, z, nb6_);
    for (int it = 0; it < opt_.cg_max_iterations; ++it) {
      apply_H(p, q);
      const Real pq = dot(p, q, nb6_);
      if (!(pq > 0)) break;
      const Real alpha = rz / pq;
      for (int j = 0; j < nb6_; ++j) {
        d[j] += alpha * p[j];
        r[j] -= alpha * q[j];
      }
      if (std::sqrt(dot(r, r, nb6_)) <= opt_.cg_tolerance * bnorm) break;
      for (int j = 0; j < nb6_; ++j) z[j] = r[j] / diag[j];
      const Real rz_next = dot(r, z, nb6_);
      const Real beta = rz_next / rz;
      rz = rz_next;
      for (int j = 0; j < nb6_; ++j) p[j] = z[j] + beta * p[j];
    }
  }

  // Step length along d from l0 = l(du), slope = g.d < 0: phi(a) = q0 + a q1
  // + a^2 q2/2 + penalty(r + a s). Returns 0 when no descent is found.
  Real line_search(Real l0, Real slope) {
    const Real *du = ws_.du.data(), *d = ws_.d.data();
    Real* Mx = ws_.Mx.data();
    pr_.apply_J(d, ws_.s.data());
    apply_M(du, Mx);
    const Real q0 = 0.5 * dot(du, Mx, nb6_);
    apply_M(d, Mx);
    const Real q2 = dot(d, Mx, nb6_), q1 = dot(du, Mx, nb6_);
    Real a_best = 0, l_best = l0;
    auto phi = [&](Real a, Real& dphi, Real& d2phi) {
      Real pen, dpen, d2pen;
      line_penalty(a, pen, dpen, d2pen);
      dphi = q1 + a * q2 + dpen;
      d2phi = q2 + d2pen;
      const Real v = q0 + a * q1 + 0.5 * a * a * q2 + pen;
      if (v < l_best) {
        l_best = v;
        a_best = a;
      }
      return v;
    };
    Real dphi = 0, d2phi = 0;
    if (opt_.line_search == ConvexNewtonOptions::kArmijo) {
      Real a = 1;
      for (int it = 0; it < opt_.ls_max_iterations; ++it, a *= 0.5)
        if (phi(a, dphi, d2phi) <= l0 + opt_.armijo_c * a * slope) return a;
      return a_best;
    }
    // Exact: Newton on phi'(a) = 0 from the full step, kept inside the bracket
    // [lo, hi] (phi'(lo) < 0 < phi'(hi)); phi convex, phi'' >= q2 > 0. The
    // step is chosen by phi', not by comparing values of phi: near the answer
    // the decrease (~ rho |d lambda|^2) falls below the rounding of l while
    // phi' is still exact enough to steer.
    Real lo = 0, hi = std::numeric_limits<Real>::infinity(), a = 1;
    Real value = l0;
    for (int it = 0; it < opt_.ls_max_iterations; ++it) {
      value = phi(a, dphi, d2phi);
      if (!std::isfinite(dphi) || !std::isfinite(value)) return 0;
      if (std::abs(dphi) <= opt_.ls_tolerance * std::abs(slope)) break;
      if (dphi < 0) lo = a;
      else hi = a;
      Real next = a - dphi / d2phi;
      if (std::isinf(hi)) {
        if (!(next > lo)) next = 2 * a;
      } else if (!(next > lo && next < hi)) {
        next = 0.5 * (lo + hi);
      }
      if (next == a) break;
      a = next;
    }
    // phi is convex: phi' <= 0 means a <= the minimiser, so phi(a) <= phi(0).
    // Past it (phi' > 0) accept a only if phi does not rise above rounding,
    // else fall back to lo (phi'(lo) < 0) or the best value seen.
    const Real slack = 16 * std::numeric_limits<Real>::epsilon() * std::abs(l0);
    if (dphi <= 0 || value <= l0 + slack) return a;
    return lo > 0 ? lo : a_best;
  }

  // Continuation plan: rho_start_k = max(rho_k, start D_nn,k) with D_nn,k =
  // J_n M^-1 J_n^T of contact k's normal row (its inverse effective mass, the
  // scale MuJoCo and SAP set their regularisation against). Returns the number
  // of softened stages S (rho shrinks by `factor` per stage).
  int plan_continuation(Real start, Real factor) {
    const int nc = pr_.num_contacts;
    Real* target = grow(ws_.rho_target, std::max(nc, 1));
    Real* first = grow(ws_.rho_start, std::max(nc, 1));
    int stages = 0;
    for (int k = 0; k < nc; ++k) {
      const int o = off_ + 3 * k;
      const Real dnn = delassus_diagonal_entry(pr_, o);
      target[k] = ws_.row_R[o];
      first[k] = std::max(target[k], start * dnn);
      stages = std::max(stages, static_cast<int>(std::ceil(std::log(first[k] / target[k]) / std::log(factor) - 1e-9)));
    }
    return stages;
  }

  // Contact compliance of stage s (S = first, 0 = the law's).
  void set_stage(int s, int stages, Real factor) {
    const Real scale = std::pow(factor, -(stages - s));
    for (int k = 0; k < pr_.num_contacts; ++k) {
      const Real rho = s == 0 ? ws_.rho_target[k] : std::max(ws_.rho_target[k], ws_.rho_start[k] * scale);
      for (int j = 0; j < 3; ++j) ws_.row_R[off_ + 3 * k + j] = rho;
    }
  }

 private:
  const ConstraintProblem& pr_;
  const ConvexNewtonOptions& opt_;
  ConvexNewtonWorkspace& ws_;
  const int m_, nb6_, off_;
  int n_ = 0;
  const ContactModel* law_ = nullptr;  // the law of setup(): its convex penalty
};

// Exactly the laws with a convex primal penalty (ContactModel::convex_penalty;
// it exists only for a convex law, no de Saxce shift, with rho > 0: MATH.md
// B.3). The refusal says what is missing.
bool accepts_law(const ContactModel& law, std::string* why) {
  if (law.has_convex_penalty()) return true;
  const char* reason = !law.is_convex() ? "is not convex"
                       : law.is_hard()  ? "is hard (no contact compliance)"
                                        : "has no convex primal penalty (ContactModel::has_convex_penalty)";
  if (why) *why = "convex_newton needs a convex compliant law (ccp); '" + law.name() + "' " + reason;
  return false;
}

}  // namespace

void ConvexNewtonOptions::Validate() const {
  const OptionCheck require("ConvexNewtonOptions");
  const Real inf = std::numeric_limits<Real>::infinity();
  require(max_iterations >= 1, "max_iterations", max_iterations, "must be >= 1");
  require(tolerance >= 0 && tolerance < inf, "tolerance", tolerance, "must be finite and >= 0");
  require(cost_tolerance >= 0 && cost_tolerance < inf, "cost_tolerance", cost_tolerance, "must be finite and >= 0");
  require(bilateral_compliance > 0 && bilateral_compliance < inf, "bilateral_compliance", bilateral_compliance,
          "must be finite and > 0");
  require(linear_solver == kDense || linear_solver == kConjugateGradient, "linear_solver", linear_solver,
          "must be dense (0) or cg (1)");
  require(cg_max_iterations >= 1, "cg_max_iterations", cg_max_iterations, "must be >= 1");
  require(cg_tolerance > 0 && cg_tolerance < 1, "cg_tolerance", cg_tolerance, "must lie in (0, 1)");
  require(line_search == kExact || line_search == kArmijo, "line_search", line_search, "must be exact (0) or armijo (1)");
  require(ls_tolerance > 0 && ls_tolerance < 1, "ls_tolerance", ls_tolerance, "must lie in (0, 1)");
  require(ls_max_iterations >= 1, "ls_max_iterations", ls_max_iterations, "must be >= 1");
  require(armijo_c > 0 && armijo_c < 1, "armijo_c", armijo_c, "must lie in (0, 1)");
  require(continuation_start > 0 && continuation_start < inf, "continuation_start", continuation_start,
          "must be finite and > 0");
  require(continuation_factor > 1 && continuation_factor < inf, "continuation_factor", continuation_factor,
          "must be finite and > 1");
}

bool ConvexNewtonSolver::accepts(const ContactModel& law, std::string* why) const {
  return accepts_law(law, why);
}

void ConvexNewtonSolver::do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                                  SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                                  SolveStats& stats) const {
  options.Validate();
  std::string why;
  if (!accepts(law, &why)) throw std::invalid_argument(why);
  ConvexNewtonWorkspace& ws =
      checked_workspace<ConvexNewtonWorkspace>(workspace, problem, "convex_newton", "ConvexNewtonSolver");

  if (problem.explicit_delassus())
    throw std::invalid_argument(
        "convex_newton minimises over the bodies' velocities and needs their masses: it cannot solve a problem "
        "given only by its Delassus matrix (use padmm, pgs or newton)");
  const int m = problem.num_rows(), nb6 = 6 * problem.num_bodies, off = problem.contact_offset();
  begin_solve(stats, options.max_iterations, m, lambda, v_plus);
  if (stats.record_history) {
    ws.cost_history.clear();
    ws.cost_stage.clear();
  }
  if (m == 0) return;

  auto fail = [&]() { fail_solve(stats, lambda, v_plus); };
  Newton nt(problem, options, ws);
  if (!nt.setup(law)) return fail();
  Real* du = ws.du.data();

  // Start: du = 0, or M^-1 J^T lambda_warm (the optimality condition M du =
  // J^T lambda) when that has the lower cost.
  std::fill(du, du + nb6, Real(0));
  Real cost = nt.evaluate();
  bool warm_used = false;
  if (options.warm_start && warm.valid && static_cast<int>(warm.lambda.size()) == m) {
    problem.apply_JT(warm.lambda.data(), ws.tmp6.data());
    problem.apply_Minv(ws.tmp6.data(), du);
    nt.mask(du);
    const Real warm_cost = nt.evaluate();
    warm_used = warm_cost < cost;
    if (warm_used) {
      cost = warm_cost;
    } else {
      std::fill(du, du + nb6, Real(0));
      cost = nt.evaluate();
    }
  }

  // Newton steps until the stage's tolerances; false on a numerical failure.
  Real grad = 0;
  auto newton_loop = [&](Real grad_tol, Real cost_tol, int stage) {
    if (stats.record_history) {
      ws.cost_history.push_back(cost);
      ws.cost_stage.push_back(stage);
    }
    grad = nt.scaled_gradient();
    stats.status = SolveStatus::MaxIterations;
    while (true) {
      if (!std::isfinite(cost) || !std::isfinite(grad)) return false;
      if (nt.converged(grad_tol)) break;
      if (stats.iterations >= options.max_iterations) return true;
      if (options.linear_solver == ConvexNewtonOptions::kDense) {
        if (!nt.direction_dense()) return false;
      } else {
        nt.direction_cg();
      }
      const Real slope = dot(ws.g.data(), ws.d.data(), nb6);
      if (!std::isfinite(slope)) return false;
      if (!(slope < 0)) break;  // g is at the rounding floor: no descent left
      const Real a = nt.line_search(cost, slope);
      if (a == 0) break;  // no descent found along d: rounding floor
      for (int i = 0; i < nb6; ++i) du[i] += a * ws.d[i];
      const Real previous = cost;
      cost = nt.evaluate();
      grad = nt.scaled_gradient();
      ++stats.iterations;
      if (stats.record_history) {
        ws.cost_history.push_back(cost);
        ws.cost_stage.push_back(stage);
        stats.residual_history.push_back(grad);
      }
      // Off by default (cost_tolerance = 0): the decrease near the answer is
      // below the rounding of l long before lambda is accurate.
      if (cost_tol > 0 && previous - cost <= cost_tol * (1 + std::abs(cost))) break;
    }
    stats.status = SolveStatus::Converged;
    return std::isfinite(cost) && std::isfinite(grad);
  };

  // Continuation in rho from a cold start (stages S..1 soften the contacts,
  // stage 0 is the law's compliance); a warm start is already near the answer.
  const int stages =
      options.continuation && !warm_used ? nt.plan_continuation(options.continuation_start, options.continuation_factor)
                                         : 0;
  for (int stage = stages; stage >= 0; --stage) {
    if (stages > 0) {
      nt.set_stage(stage, stages, options.continuation_factor);
      cost = nt.evaluate();
    }
    // Intermediate stages only place the next stage's start: loose stops.
    const bool last = stage == 0;
    if (!newton_loop(last ? options.tolerance : kStageGradientTolerance,
                     last ? options.cost_tolerance : kStageCostTolerance, stage))
      return fail();
    if (stats.status == SolveStatus::MaxIterations && !last) {
      // Out of iterations in a softened stage: report lambda(du) under the law's rho.
      nt.set_stage(0, stages, options.continuation_factor);
      cost = nt.evaluate();
      grad = nt.scaled_gradient();
      break;
    }
  }
  if (!std::isfinite(cost) || !std::isfinite(grad)) return fail();

  // lambda(r) at the final du; v+ = r + R lambda = D lambda + v_f, with R the
  // problem's compliance plus the law's on contact rows (what padmm returns).
  const Real* r = ws.r.data();
  for (int i = 0; i < m; ++i) {
    lambda[i] = ws.lambda[i];
    v_plus[i] = r[i] + row_compliance(problem, ws.law_R.data(), i) * lambda[i];
    if (!std::isfinite(lambda[i]) || !std::isfinite(v_plus[i])) return fail();
  }
  stats.r_dual = grad;
  // A convex law has no velocity shift: v+ itself on the contact rows.
  stats.r_compl = complementarity_residual(problem, lambda.data(), v_plus.data(), v_plus.data() + off);
}

bool convex_newton_factor_hessian(const ConstraintProblem& problem, const ContactModel& law,
                                  const ConvexNewtonOptions& options, const std::vector<Real>& lambda,
                                  ConvexNewtonWorkspace& ws) {
  if (problem.explicit_delassus() || static_cast<int>(lambda.size()) != problem.num_rows())
    throw std::invalid_argument("convex_newton_factor_hessian: needs the bodies' problem and one impulse per row");
  std::string why;
  if (!accepts_law(law, &why)) throw std::invalid_argument(why);
  ConvexNewtonOptions dense = options;
  dense.linear_solver = ConvexNewtonOptions::kDense;
  Newton nt(problem, dense, ws);
  if (!nt.setup(law)) return false;
  // At the optimum M du = J^T lambda.
  problem.apply_JT(lambda.data(), ws.tmp6.data());
  problem.apply_Minv(ws.tmp6.data(), ws.du.data());
  nt.mask(ws.du.data());
  nt.evaluate();
  // The zones' curvature from the recorded impulses: the gap mu t - r_n is
  // O(rho) of r, and r = J du + v_f is known only to the solver's rounding
  // floor (~eps |r| / rho in lambda), while lambda_n carries the gap exactly.
  const int off = problem.contact_offset();
  law.convex_penalty_hessian_from_impulse(problem.mu.data(), problem.num_contacts, ws.row_R.data() + off,
                                          ws.r.data() + off, lambda.data() + off, ws.weight.data() + off);
  return nt.factor_hessian();
}

void convex_newton_hessian_solve(const ConstraintProblem& problem, const ConvexNewtonOptions& options,
                                 ConvexNewtonWorkspace& ws, Real* x) {
  ConvexNewtonOptions dense = options;
  dense.linear_solver = ConvexNewtonOptions::kDense;
  Newton nt(problem, dense, ws);
  nt.adopt_unknowns();
  nt.hessian_solve(x);
}

void ConvexNewtonOptions::bind(OptionSet& set, const std::string& prefix) {
  ConvexNewtonOptions& o = *this;
  const Real inf = std::numeric_limits<Real>::infinity();
  set.add(prefix + "max_iterations", &o.max_iterations, "Newton steps per solve", 1);
  set.add(prefix + "tolerance", &o.tolerance, "stop at |g_j|/M_jj <= tol above the rounding floor (m/s, rad/s)", 0,
          inf);
  set.add(prefix + "cost_tolerance", &o.cost_tolerance, "stop when a step lowers the cost by <= tol (1 + |l|); 0 = off",
          0, inf);
  set.add(prefix + "bilateral_compliance", &o.bilateral_compliance,
          "R of bilateral/limit rows whose problem compliance is 0, 1/kg, > 0", 0, inf);
  set.add_choice(prefix + "linear_solver", &o.linear_solver, {"dense", "cg"},
                 "Newton step: dense Cholesky or matrix-free Jacobi-preconditioned CG");
  set.add(prefix + "cg_max_iterations", &o.cg_max_iterations, "CG iterations per Newton step", 1);
  set.add(prefix + "cg_tolerance", &o.cg_tolerance, "CG relative residual", 0, 1);
  set.add_choice(prefix + "line_search", &o.line_search, {"exact", "armijo"},
                 "exact 1-D Newton with bracketing, or Armijo backtracking");
  set.add(prefix + "ls_tolerance", &o.ls_tolerance, "exact line search: |phi'(a)| <= tol |phi'(0)|", 0, 1);
  set.add(prefix + "ls_max_iterations", &o.ls_max_iterations, "cost evaluations per line search", 1);
  set.add(prefix + "armijo_c", &o.armijo_c, "Armijo sufficient-decrease constant", 0, 1);
  set.add(prefix + "warm_start", &o.warm_start, "start from M^-1 J^T lambda of the previous step");
  set.add(prefix + "continuation", &o.continuation, "cold start: soften contacts, then lower rho in stages");
  set.add(prefix + "continuation_start", &o.continuation_start, "first stage rho = start * D_nn (when larger)", 0,
          inf);
  set.add(prefix + "continuation_factor", &o.continuation_factor, "rho is divided by this per stage, > 1", 1, inf);
}

}  // namespace contactlab
