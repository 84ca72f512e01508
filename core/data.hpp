// Data: one world's state and every per-step buffer (contacts, constraint
// problem, impulses, solver workspace, metrics). Algorithms take
// (const Model&, Data&); buffers keep their capacity between steps.
#pragma once

#include <memory>
#include <vector>

#include "core/broad_phase_scratch.hpp"
#include "core/constraint_problem.hpp"
#include "core/contact.hpp"
#include "core/math.hpp"
#include "core/model.hpp"
#include "core/solver.hpp"

namespace contactlab {

// Per-step physics metrics (MATH.md E.1), infinity norms in physical units.
struct StepMetrics {
  Real r_primal = 0;        // |lambda - Pi_K(lambda)|
  Real r_dual = 0;          // |s - Pi_K*(s)|, s = v+ + Gamma(v+) (bilateral rows: |v+|)
  Real r_compl = 0;         // max over contacts |lambda_k . s_k|, limits |lambda v|
  Real r_vi = 0;            // natural map |lambda - Pi_K(lambda - s)|
  Real max_penetration = 0; // m, max(0, -gap) over contacts after the step's collision pass
  Real joint_violation = 0; // position-level residual of joints and loop closures (m or rad)
  Real r_kin = 0;           // m/s or rad/s, |J u+| over the hard bilateral rows (joints, loop closures)
  Real r_v = 0;             // m/s, |w - Pi_K*(w)| over contacts, w = J_C u+ raw (no bias, no Gamma)
  int iterations = 0;
  bool converged = true;
  int num_contacts = 0;
};

// Contact remembered from the previous step for warm starting.
struct CachedContact {
  int geom1 = -1, geom2 = -1;
  Vec3 point_W = Vec3::Zero();
  Vec3 lambda_W = Vec3::Zero();  // impulse as a world vector (the frame may turn between steps)
  Vec3 v_W = Vec3::Zero();       // contact velocity after the step, world vector
};

// Per-world scratch of a scheme (e.g. the iterate state of backward Euler).
class SchemeWorkspace {
 public:
  virtual ~SchemeWorkspace() = default;
};

struct Data {
  // State, one entry per body (fixed bodies keep their pose and zero twist).
  std::vector<Vec3> x_W;   // (nb) centre-of-mass position, world frame
  std::vector<Quat> q_WB;  // (nb) body orientation (body axes -> world axes)
  std::vector<Vec3> v_W;   // (nb) centre-of-mass linear velocity, world frame
  std::vector<Vec3> w_W;   // (nb) angular velocity, world frame
  std::vector<Real> ctrl;  // (na) actuator controls
  Real time = 0;
  long step = 0;

  // Per-step buffers.
  std::vector<Contact> contacts;            // (nc) from the narrow phase
  BroadPhaseScratch broad_phase;            // geom poses, bounds and candidate pairs of the collision pass
  std::vector<Real> contact_restitution;    // (nc)
  ConstraintProblem problem;
  std::vector<Real> lambda;                 // (m) impulses
  std::vector<Real> v_plus;                 // (m) constraint velocities after the step
  std::vector<Real> u_free;                 // (6 nb) twist without constraint impulses
  std::vector<Real> scratch6;               // (6 nb)
  std::vector<Real> scratch_m;              // (m)
  WarmStart warm;
  std::vector<CachedContact> contact_cache;
  int problem_prev_offset = -1;             // non-contact row count of the previous step
  std::unique_ptr<SolverWorkspace> solver_workspace;
  std::unique_ptr<SchemeWorkspace> scheme_workspace;
  SolveStats solve_stats;
  StepMetrics metrics;
  ResidualScratch residual_scratch;          // the metrics' contact buffers

  // Sizes the state for a model and puts every body at its qpos0 pose, at rest.
  void init(const Model& model);
  // Body-frame origin and the velocity of that point (what the CSV reports).
  Vec3 origin_position(const Model& model, int body) const;
  Vec3 origin_velocity(const Model& model, int body) const;
};

// Sets the maximal-coordinate state from MJCF generalised coordinates
// (qpos: free 7 [pos, quat wxyz], ball 4, hinge/slide 1; qvel: free 6 [linear
// world, angular local], ball 3 local, hinge/slide 1) by forward kinematics
// along the body tree. Sizes must match model.nq / model.nv, else throws.
void set_generalized_state(const Model& model, const std::vector<Real>& qpos, const std::vector<Real>& qvel,
                           Data& data);

// Pose of a geom in the world for the current state.
void geom_world_pose(const Model& model, const Data& data, int geom, Vec3& pos_W, Mat3& R_WG);

// A site's point, axes, point velocity and its body's angular velocity, in
// the world frame (what the trajectory CSV reports on its "site.NAME" rows).
struct SiteState {
  Vec3 p = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();
  Quat q = Quat::Identity();
};
SiteState site_state(const Model& model, const Data& data, int site);
// The same for any point and axes fixed in `body` (body frame; world frame
// and at rest for body -1): what site_state and the loss's site terms use.
SiteState body_point_state(const Model& model, const Data& data, int body, const Vec3& point_B,
                           const Quat& quat_B = Quat::Identity());

}  // namespace contactlab
