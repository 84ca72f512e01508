// The Siconos peer when contactlab is built without Siconos numerics.
#include <stdexcept>

#include "peers/siconos_peer.hpp"

namespace contactlab {

bool siconos_peer_built() { return false; }

const std::vector<std::string>& siconos_peer_solvers() {
  static const std::vector<std::string> names{"siconos_nsn_ac", "siconos_nsn_fb", "siconos_nsgs"};
  return names;
}

SiconosPeerResult solve_with_siconos(const FrictionContactProblem&, const std::string&, double, int) {
  throw std::invalid_argument(
      "contactlab was built without Siconos numerics: run scripts/setup.sh --with-siconos "
      "(Debian's libsiconos-numerics-dev) and rebuild");
}

}  // namespace contactlab
