// The MuJoCo peer when contactlab is built without MuJoCo.
#include <stdexcept>

#include "peers/mujoco_peer.hpp"

namespace contactlab {

struct MujocoPeer::Impl {};

bool MujocoPeer::built() { return false; }

MujocoPeer::MujocoPeer(const std::string&, const Model&) {
  throw std::invalid_argument(
      "contactlab was built without MuJoCo: install Debian's libmujoco-dev (scripts/setup.sh does) and rebuild");
}
MujocoPeer::~MujocoPeer() = default;
std::string MujocoPeer::integrator() const { return ""; }
double MujocoPeer::timestep() const { return 0; }
void MujocoPeer::set_timestep(double) {}
void MujocoPeer::reset(const std::string&) {}
void MujocoPeer::set_generalized_state(const std::vector<double>&, const std::vector<double>&) {}
void MujocoPeer::step(const std::vector<double>&) {}
void MujocoPeer::read_state(Data&) const {}
int MujocoPeer::num_contacts() const { return 0; }
double MujocoPeer::max_penetration() const { return 0; }
int MujocoPeer::solver_iterations() const { return 0; }

}  // namespace contactlab
