#include "peers/mujoco_peer.hpp"

#include <mujoco/mujoco.h>

#include <cmath>
#include <stdexcept>

namespace contactlab {

namespace {

// MuJoCo prints warnings and exits on errors by default; a library must not.
void quiet_warning(const char*) {}
void throwing_error(const char* message) { throw std::runtime_error(std::string("MuJoCo: ") + message); }

}  // namespace

struct MujocoPeer::Impl {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  std::vector<int> body_id;      // contactlab body -> MuJoCo body
  std::vector<int> actuator_id;  // contactlab actuator -> MuJoCo actuator
  const Model* model = nullptr;
  long steps = 0;
  ~Impl() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
};

bool MujocoPeer::built() { return true; }

MujocoPeer::MujocoPeer(const std::string& path, const Model& model) : impl_(std::make_unique<Impl>()) {
  mju_user_warning = quiet_warning;
  mju_user_error = throwing_error;
  char error[1024] = "";
  impl_->m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  if (!impl_->m) throw std::invalid_argument(path + ": MuJoCo refused the file: " + error);
  impl_->d = mj_makeData(impl_->m);
  impl_->model = &model;
  for (const Body& b : model.bodies) {
    const int id = mj_name2id(impl_->m, mjOBJ_BODY, b.name.c_str());
    if (id < 0) throw std::invalid_argument(path + ": MuJoCo has no body named '" + b.name + "'");
    impl_->body_id.push_back(id);
  }
  for (const Actuator& a : model.actuators) {
    const int id = mj_name2id(impl_->m, mjOBJ_ACTUATOR, a.name.c_str());
    if (id < 0) throw std::invalid_argument(path + ": MuJoCo has no actuator named '" + a.name + "'");
    impl_->actuator_id.push_back(id);
  }
  reset();
}

MujocoPeer::~MujocoPeer() = default;

std::string MujocoPeer::integrator() const {
  switch (impl_->m->opt.integrator) {
    case mjINT_EULER: return "Euler";
    case mjINT_RK4: return "RK4";
    case mjINT_IMPLICIT: return "implicit";
    default: return "integrator " + std::to_string(impl_->m->opt.integrator);
  }
}

double MujocoPeer::timestep() const { return impl_->m->opt.timestep; }

void MujocoPeer::set_timestep(double h) {
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive");
  impl_->m->opt.timestep = h;
}

void MujocoPeer::reset(const std::string& keyframe) {
  mjModel* m = impl_->m;
  mjData* d = impl_->d;
  if (!keyframe.empty()) {
    const int k = mj_name2id(m, mjOBJ_KEY, keyframe.c_str());
    if (k < 0) throw std::invalid_argument("MuJoCo: unknown keyframe '" + keyframe + "'");
    mj_resetDataKeyframe(m, d, k);
  } else if (m->nkey > 0) {
    mj_resetDataKeyframe(m, d, 0);
  } else {
    mj_resetData(m, d);
  }
  impl_->steps = 0;
  mj_forward(m, d);
}

void MujocoPeer::set_generalized_state(const std::vector<double>& qpos, const std::vector<double>& qvel) {
  mjModel* m = impl_->m;
  mjData* d = impl_->d;
  if (qpos.size() != static_cast<size_t>(m->nq) || qvel.size() != static_cast<size_t>(m->nv))
    throw std::invalid_argument("MuJoCo: qpos/qvel of sizes " + std::to_string(qpos.size()) + "/" +
                                std::to_string(qvel.size()) + " for a model with nq = " + std::to_string(m->nq) +
                                ", nv = " + std::to_string(m->nv));
  for (double v : qpos)
    if (!std::isfinite(v)) throw std::invalid_argument("MuJoCo: qpos is not finite");
  for (double v : qvel)
    if (!std::isfinite(v)) throw std::invalid_argument("MuJoCo: qvel is not finite");
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = qpos[i];
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = qvel[i];
  mj_forward(m, d);
}

void MujocoPeer::step(const std::vector<double>& ctrl) {
  mjModel* m = impl_->m;
  mjData* d = impl_->d;
  for (size_t a = 0; a < impl_->actuator_id.size() && a < ctrl.size(); ++a) d->ctrl[impl_->actuator_id[a]] = ctrl[a];
  mj_step(m, d);
  ++impl_->steps;
  if (d->warning[mjWARN_BADQACC].number > 0)
    throw std::runtime_error("MuJoCo reported an unstable simulation at step " + std::to_string(impl_->steps) +
                             " (t = " + std::to_string(d->time) + " s): bad qacc");
  for (int i = 0; i < m->nq; ++i)
    if (!std::isfinite(d->qpos[i]))
      throw std::runtime_error("MuJoCo: the state turned non-finite at step " + std::to_string(impl_->steps));
}

void MujocoPeer::read_state(Data& out) const {
  const mjModel* m = impl_->m;
  const mjData* d = impl_->d;
  for (size_t b = 0; b < impl_->body_id.size(); ++b) {
    const int id = impl_->body_id[b];
    out.x_W[b] = Vec3(d->xipos[3 * id], d->xipos[3 * id + 1], d->xipos[3 * id + 2]);
    out.q_WB[b] = Quat(d->xquat[4 * id], d->xquat[4 * id + 1], d->xquat[4 * id + 2], d->xquat[4 * id + 3]);
    mjtNum v[6];
    mj_objectVelocity(m, d, mjOBJ_BODY, id, v, 0);  // (rotation, translation) at the COM, world axes
    out.w_W[b] = Vec3(v[0], v[1], v[2]);
    out.v_W[b] = Vec3(v[3], v[4], v[5]);
  }
  out.time = d->time;
  out.step = impl_->steps;
}

int MujocoPeer::num_contacts() const { return impl_->d->ncon; }

double MujocoPeer::max_penetration() const {
  double worst = 0;
  for (int i = 0; i < impl_->d->ncon; ++i) worst = std::max(worst, -static_cast<double>(impl_->d->contact[i].dist));
  return worst;
}

int MujocoPeer::solver_iterations() const { return impl_->d->solver_iter; }

}  // namespace contactlab
