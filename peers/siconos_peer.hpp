// Siconos numerics as a peer on standalone frictional-contact problems: its
// fc3d solvers (NSN-AC, NSN-FB, NSGS) run on the same W, q, mu as ours, so
// bench-problems can put them side by side. Built when libsiconos-numerics-dev
// is found (CONTACTLAB_SICONOS; scripts/setup.sh --with-siconos installs it);
// otherwise siconos_peer_built() is false and solving throws saying so.
#pragma once

#include <string>
#include <vector>

#include "io/fc3d_io.hpp"

namespace contactlab {

bool siconos_peer_built();

// The Siconos solvers offered as peers, by the names bench-problems shows:
// "siconos_nsn_ac" (SICONOS_FRICTION_3D_NSN_AC), "siconos_nsn_fb"
// (SICONOS_FRICTION_3D_NSN_FB), "siconos_nsgs" (SICONOS_FRICTION_3D_NSGS).
const std::vector<std::string>& siconos_peer_solvers();

struct SiconosPeerResult {
  bool converged = false;  // Siconos' info == 0
  int info = -1;           // Siconos' return code
  int iterations = 0;
  double error = 0;        // Siconos' own error measure at exit (fc3d_compute_error, relative to ||q||)
  double time_s = 0;       // wall time of the driver call
  VecX r;                  // (3 nc) reactions, normal first
  VecX u;                  // (3 nc) local velocities u = W r + q
};

// Solves `problem` with the named Siconos solver at tolerance `tol` (Siconos'
// relative error), at most `max_iterations`. Throws std::invalid_argument for
// an unknown solver name (listing the known ones) or when not built.
SiconosPeerResult solve_with_siconos(const FrictionContactProblem& problem, const std::string& solver,
                                     double tol, int max_iterations);

}  // namespace contactlab
