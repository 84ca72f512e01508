// Pile scenes for the cost-against-contacts benchmark (contactlab bench-scale,
// docs/benchmarks.md "Cost against contacts: piles"): N free bodies of one
// shape dropped onto a plane, written as MJCF text so that contactlab and
// MuJoCo read the same file.
//
// Layout: the bodies stand in columns on a jittered square grid; about a
// third of the columns hold 2-4 bodies one above the other (so that, once
// they land, islands hold several bodies), the others one. Grid spacing and
// the vertical pitch are the largest bounding-sphere diameter plus a gap, so
// no two bounding spheres overlap at t = 0; the lowest bodies start a small
// drop height above the plane. Sizes (0.1-0.2 m across) and orientations are
// random, drawn from a seeded generator of our own (splitmix64), so the same
// seed gives the same text on every platform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace contactlab {

enum class PileShape { Box, Capsule, Sphere };

// "box", "capsule", "sphere"; throws std::invalid_argument naming the shape otherwise.
PileShape parse_pile_shape(const std::string& name);
std::string pile_shape_name(PileShape shape);

struct PileSpec {
  PileShape shape = PileShape::Box;
  int bodies = 16;             // >= 1
  std::uint64_t seed = 1;
  double timestep = 0.002;     // s, <option timestep>
  double drop_height = 0.05;   // m, gap between the lowest bounding spheres and the plane
  double gap = 0.05;           // m, added to the largest bounding-sphere diameter
  double friction = 0.8;
  double duration = 2.0;       // s, written as contactlab.duration
};

// One body as generated (for tests and for the table).
struct PileBody {
  double pos[3];
  double quat[4];        // w x y z, unit
  double size[3];        // box: half-extents; capsule: radius, half-length; sphere: radius
  double bounding_radius;  // about pos
};

struct Pile {
  std::string xml;
  std::vector<PileBody> bodies;
  int columns = 0;
  int tallest_column = 0;
  int mujoco_nconmax = 0;  // the <size nconmax> written for MuJoCo 2.2
};

// Throws std::invalid_argument for bodies < 1 or above 100000.
Pile make_pile(const PileSpec& spec);
// make_pile, written to `path` through io/output_file.hpp (complete or absent).
Pile write_pile(const PileSpec& spec, const std::string& path);

// Least-squares slope of log(y) against log(x) over the points with x > 0 and
// y > 0 (finite); NaN with fewer than two such points or all x equal.
// `used`, when given, receives how many points entered the fit.
double fit_log_log_slope(const std::vector<double>& x, const std::vector<double>& y, int* used = nullptr);

}  // namespace contactlab
