// The broad phase (geometry/broad_phase.hpp) against the all-pairs pass: in
// random scenes of every shape, turned at random, dense and sparse, with
// planes, static geoms, nested and excluded bodies, masks and margins, the
// candidate pairs must equal the all-pairs ones in order, and detect_contacts'
// contacts must equal, bit for bit, those of the loop detect_contacts ran
// before the broad phase (transcribed below as the oracle).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "geometry/broad_phase.hpp"
#include "geometry/collision.hpp"
#include "geometry/pair_filter.hpp"
#include "io/mjcf.hpp"
#include "schemes/assembly.hpp"

using namespace contactlab;

namespace {

// The collision pass as it was before the broad phase: every pair, filters
// inline, poses per pair.
std::vector<Contact> all_pairs_oracle(const Model& model, const Data& data, Real margin) {
  std::vector<Contact> out;
  auto moving = [&](int body) { return body >= 0 && !model.bodies[body].fixed; };
  auto radius = [](const Geom& g) {
    switch (g.type) {
      case GeomType::Sphere: return g.size.x();
      case GeomType::Capsule: return g.size.x() + g.size.y();
      case GeomType::Cylinder: return std::sqrt(g.size.x() * g.size.x() + g.size.y() * g.size.y());
      case GeomType::Box: return g.size.norm();
      case GeomType::Plane: return Real(-1);
      case GeomType::Mesh: return g.hull->bounding_radius;
    }
    return Real(-1);
  };
  const int ng = static_cast<int>(model.geoms.size());
  for (int i = 0; i < ng; ++i) {
    const Geom& gi = model.geoms[i];
    for (int j = i + 1; j < ng; ++j) {
      const Geom& gj = model.geoms[j];
      if (gi.body == gj.body) continue;
      if (!((gi.contype & gj.conaffinity) || (gj.contype & gi.conaffinity))) continue;
      if (!moving(gi.body) && !moving(gj.body)) continue;
      const int bi = gi.body, bj = gj.body;
      if (bi >= 0 && bj >= 0 && (model.bodies[bi].parent == bj || model.bodies[bj].parent == bi)) continue;
      if (model.bodies_excluded(bi, bj)) continue;
      if (!pair_supported(gi.type, gj.type)) continue;
      GeomPose pi, pj;
      geom_world_pose(model, data, i, pi.pos_W, pi.R_WG);
      geom_world_pose(model, data, j, pj.pos_W, pj.R_WG);
      const Real ri = radius(gi), rj = radius(gj);
      const Real m = margin + std::max(gi.margin, gj.margin);
      if (ri >= 0 && rj >= 0 && (pi.pos_W - pj.pos_W).norm() > ri + rj + m) continue;
      collide_geoms(gi, pi, i, gj, pj, j, m, out);
    }
  }
  return out;
}

bool same_bits(const Real* a, const Real* b, int n) { return std::memcmp(a, b, n * sizeof(Real)) == 0; }

bool same_contact(const Contact& a, const Contact& b) {
  return a.geom1 == b.geom1 && a.geom2 == b.geom2 && a.body1 == b.body1 && a.body2 == b.body2 &&
         same_bits(a.point_W.data(), b.point_W.data(), 3) && same_bits(a.normal_W.data(), b.normal_W.data(), 3) &&
         same_bits(a.tangent1_W.data(), b.tangent1_W.data(), 3) &&
         same_bits(a.tangent2_W.data(), b.tangent2_W.data(), 3) && same_bits(&a.gap, &b.gap, 1) &&
         same_bits(&a.friction, &b.friction, 1);
}

bool same_contacts(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (!same_contact(a[k], b[k])) return false;
  return true;
}

bool same_pairs(const std::vector<GeomPair>& a, const std::vector<GeomPair>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].geom1 != b[k].geom1 || a[k].geom2 != b[k].geom2) return false;
  return true;
}

struct SceneSpec {
  int free_geoms = 40;
  bool planes = true;
  bool extras = true;  // static geoms, a nested body, a two-geom body, an exclude, masks, geom margins
};

std::string random_geom_xml(std::mt19937& rng, const std::string& name, bool extras) {
  std::uniform_real_distribution<double> u(0, 1);
  std::ostringstream g;
  g << "<geom name=\"" << name << "\" mass=\"1\" axisangle=\"" << u(rng) - 0.5 << " " << u(rng) - 0.5 << " "
    << u(rng) - 0.5 << " " << 6 * u(rng) << "\" pos=\"" << 0.05 * (u(rng) - 0.5) << " 0 0\"";
  const double a = 0.03 + 0.12 * u(rng), b = 0.03 + 0.12 * u(rng), c = 0.03 + 0.12 * u(rng);
  switch (rng() % 4) {
    case 0: g << " type=\"sphere\" size=\"" << a << "\""; break;
    case 1: g << " type=\"capsule\" size=\"" << a << " " << b << "\""; break;
    case 2: g << " type=\"box\" size=\"" << a << " " << b << " " << c << "\""; break;
    default: g << " type=\"cylinder\" size=\"" << a << " " << b << "\""; break;
  }
  if (extras) {
    const int masks[] = {1, 1, 1, 2, 3};
    g << " contype=\"" << masks[rng() % 5] << "\" conaffinity=\"" << masks[rng() % 5] << "\"";
    const double margins[] = {0, 0, 0.005, 0.03};
    g << " margin=\"" << margins[rng() % 4] << "\"";
  }
  g << "/>";
  return g.str();
}

Model random_model(std::mt19937& rng, const SceneSpec& spec) {
  std::ostringstream x;
  x << "<mujoco model=\"broad\"><option gravity=\"0 0 0\"/><worldbody>";
  if (spec.planes) {
    x << "<geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\"/>";
    x << "<geom name=\"wall\" type=\"plane\" size=\"5 5 0.1\" pos=\"0.3 0 0\" zaxis=\"-1 0.2 0.1\"/>";
  }
  if (spec.extras) {
    x << "<geom name=\"static_box\" type=\"box\" size=\"0.2 0.1 0.05\" pos=\"0.1 0.2 0.1\"/>";
    x << "<body name=\"fixed\" pos=\"-0.2 0.1 0.2\">" << random_geom_xml(rng, "fixed_g", true) << "</body>";
    x << "<body name=\"parent\" pos=\"0 0 0.3\"><freejoint/>" << random_geom_xml(rng, "parent_g", true)
      << "<body name=\"child\" pos=\"0.1 0 0\"><joint type=\"hinge\" axis=\"0 0 1\"/>"
      << random_geom_xml(rng, "child_g", true) << "</body></body>";
    x << "<body name=\"twin\" pos=\"0 0.1 0.3\"><freejoint/>" << random_geom_xml(rng, "twin_a", true)
      << random_geom_xml(rng, "twin_b", true) << "</body>";
  }
  for (int k = 0; k < spec.free_geoms; ++k)
    x << "<body name=\"b" << k << "\" pos=\"0 0 " << 0.5 + k << "\"><freejoint/>"
      << random_geom_xml(rng, "g" + std::to_string(k), spec.extras) << "</body>";
  x << "</worldbody>";
  if (spec.extras) x << "<contact><exclude body1=\"twin\" body2=\"b0\"/></contact>";
  x << "</mujoco>";
  return load_mjcf_string(x.str(), "broad");
}

// Every moving body at a random pose in a cube of side `extent` above the
// floor, turned at random.
void scatter(const Model& model, Data& d, std::mt19937& rng, double extent) {
  std::uniform_real_distribution<double> u(0, 1);
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (model.bodies[b].fixed) continue;
    d.x_W[b] = Vec3(extent * (u(rng) - 0.5), extent * (u(rng) - 0.5), extent * u(rng));
    d.q_WB[b] = Quat(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5).normalized();
  }
}

// Checks both outputs of a scene; returns the number of contacts.
size_t check_scene(const Model& model, Data& d, Real margin) {
  BroadPhaseScratch broad, all;
  find_candidate_pairs(model, d, margin, broad);
  find_candidate_pairs_all(model, d, margin, all);
  CHECK(same_pairs(broad.pairs, all.pairs));
  detect_contacts(model, d, margin);
  CHECK(same_contacts(d.contacts, all_pairs_oracle(model, d, margin)));
  const std::vector<Contact> broad_contacts = d.contacts;
  detect_contacts_all_pairs(model, d, margin);
  CHECK(same_contacts(d.contacts, broad_contacts));
  return broad_contacts.size();
}

}  // namespace

TEST_CASE("broad phase: random scenes give the all-pairs candidates and bit-identical contacts") {
  std::mt19937 rng(11);
  size_t contacts = 0, pairs = 0;
  for (int scene = 0; scene < 12; ++scene) {
    const Model model = random_model(rng, SceneSpec{});
    Data d;
    d.init(model);
    for (const double extent : {0.3, 1.0, 4.0})
      for (const Real margin : {0.0, 0.01, 0.1}) {
        scatter(model, d, rng, extent);
        contacts += check_scene(model, d, margin);
        BroadPhaseScratch s;
        find_candidate_pairs(model, d, margin, s);
        pairs += s.pairs.size();
      }
  }
  // The scenes touch: the comparison is not of empty lists.
  CHECK(contacts > 500);
  CHECK(pairs > 1000);
}

TEST_CASE("broad phase: a plane meets every geom along it, however far apart they lie") {
  std::mt19937 rng(3);
  SceneSpec spec;
  spec.extras = false;
  const Model model = random_model(rng, spec);
  Data d;
  d.init(model);
  // A row of geoms 2 m apart, centred on the floor (geom 0): no two bodies
  // are near each other, each cuts the floor.
  for (int b = 0; b < model.num_bodies(); ++b) d.x_W[b] = Vec3(2.0 * b, 0, 0);
  check_scene(model, d, 0.01);
  BroadPhaseScratch s;
  find_candidate_pairs(model, d, 0.01, s);
  int floor_pairs = 0, wall_pairs = 0;
  for (const GeomPair& p : s.pairs) {
    floor_pairs += p.geom1 == 0;
    wall_pairs += p.geom1 == 1;
  }
  // The two planes are static (no pair); each meets every body.
  CHECK(floor_pairs == spec.free_geoms);
  CHECK(wall_pairs == spec.free_geoms);
  CHECK(static_cast<int>(s.pairs.size()) == 2 * spec.free_geoms);
  std::vector<bool> on_floor(model.geoms.size(), false);
  for (const Contact& c : d.contacts)
    if (c.geom1 == 0) on_floor[c.geom2] = true;
  for (int b = 0; b < spec.free_geoms; ++b) CHECK(on_floor[2 + b]);
}

TEST_CASE("broad phase: degenerate scenes (no geom, one geom, every geom at one point)") {
  SUBCASE("no geom") {
    const Model model = load_mjcf_string("<mujoco model=\"none\"><worldbody/></mujoco>", "none");
    Data d;
    d.init(model);
    BroadPhaseScratch s;
    find_candidate_pairs(model, d, 0.01, s);
    CHECK(s.pairs.empty());
    check_scene(model, d, 0.01);
  }
  SUBCASE("one geom") {
    const Model model = load_mjcf_string(
        "<mujoco model=\"one\"><worldbody><body><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>"
        "</worldbody></mujoco>",
        "one");
    Data d;
    d.init(model);
    BroadPhaseScratch s;
    find_candidate_pairs(model, d, 0.01, s);
    CHECK(s.pairs.empty());
    check_scene(model, d, 0.01);
  }
  SUBCASE("every geom at one point") {
    std::mt19937 rng(5);
    const Model model = random_model(rng, SceneSpec{});
    Data d;
    d.init(model);
    for (int b = 0; b < model.num_bodies(); ++b)
      if (!model.bodies[b].fixed) d.x_W[b] = Vec3(0.1, 0.1, 0.1);
    check_scene(model, d, 0.0);
    BroadPhaseScratch s;
    find_candidate_pairs(model, d, 0.0, s);
    CHECK(s.pairs.size() > 800);  // nearly every pair of the 46 geoms
  }
  SUBCASE("a diverged (NaN) body is still handed to the narrow phase") {
    std::mt19937 rng(6);
    const Model model = random_model(rng, SceneSpec{});
    Data d;
    d.init(model);
    scatter(model, d, rng, 1.0);
    d.x_W[model.num_bodies() - 1] = Vec3(std::nan(""), 0, 0);
    check_scene(model, d, 0.01);
  }
}

TEST_CASE("broad phase: the buffers keep their capacity from step to step") {
  std::mt19937 rng(8);
  const Model model = random_model(rng, SceneSpec{});
  Data d;
  d.init(model);
  scatter(model, d, rng, 1.0);
  // Twenty small moves of every body, run twice: the first pass grows the
  // buffers, the second must not move them.
  std::vector<std::vector<Vec3>> steps;
  std::normal_distribution<double> n(0, 1e-2);
  for (int step = 0; step < 20; ++step) {
    for (int b = 0; b < model.num_bodies(); ++b)
      if (!model.bodies[b].fixed) d.x_W[b] += Vec3(n(rng), n(rng), n(rng));
    steps.push_back(d.x_W);
  }
  for (const std::vector<Vec3>& x : steps) {
    d.x_W = x;
    detect_contacts(model, d, 0.01);
  }
  const BroadPhaseScratch& s = d.broad_phase;
  auto buffers = [&] {
    return std::vector<const void*>{s.pos_W.data(), s.R_WG.data(), s.reach.data(), s.sweep.data(),
                                    s.pair_keys.data(), s.pairs.data()};
  };
  const std::vector<const void*> before = buffers();
  for (const std::vector<Vec3>& x : steps) {
    d.x_W = x;
    detect_contacts(model, d, 0.01);
    CHECK(buffers() == before);
  }
}

namespace {

// Half-extents of a geom's tight world box: a sphere's radius; |R| times a
// box's half-extents; a capsule's or cylinder's axis reach plus its
// cross-section (a cylinder's disc of radius r reaches r sqrt(1 - a_k^2)).
Vec3 tight_half_extents(const Geom& g, const Mat3& R) {
  const Vec3 a = R.col(2).cwiseAbs();
  const Real r = g.size.x(), h = g.size.y();
  switch (g.type) {
    case GeomType::Box: return R.cwiseAbs() * g.size;
    case GeomType::Capsule: return h * a + Vec3::Constant(r);
    case GeomType::Cylinder: return h * a + r * (Vec3::Ones() - a.cwiseAbs2()).cwiseMax(0).cwiseSqrt();
    default: return Vec3::Constant(r);
  }
}

// The contacts a broad phase would lose if it pruned the all-pairs
// candidates by boxes of the given half-extents (each grown by half the
// pair margin): those of the pairs whose boxes are apart on some axis.
template <class HalfExtents>
int contacts_lost_by_boxes(const Model& model, const Data& d, Real margin, HalfExtents half) {
  BroadPhaseScratch s;
  find_candidate_pairs_all(model, d, margin, s);
  int lost = 0;
  for (const GeomPair& p : s.pairs) {
    const Geom& ga = model.geoms[p.geom1];
    const Geom& gb = model.geoms[p.geom2];
    if (ga.type == GeomType::Plane || gb.type == GeomType::Plane) continue;
    const Real m = pair_margin(ga, gb, margin);
    const Vec3 gap = (s.pos_W[p.geom1] - s.pos_W[p.geom2]).cwiseAbs() - half(ga, s.R_WG[p.geom1]) -
                     half(gb, s.R_WG[p.geom2]) - Vec3::Constant(m);
    if (gap.maxCoeff() <= 0) continue;
    std::vector<Contact> out;
    lost += collide_geoms(ga, GeomPose{s.pos_W[p.geom1], s.R_WG[p.geom1]}, p.geom1, gb,
                          GeomPose{s.pos_W[p.geom2], s.R_WG[p.geom2]}, p.geom2, m, out);
  }
  return lost;
}

}  // namespace

TEST_CASE("broad phase: smaller cubes than the bounding sphere's lose contacts (the comparison can fail)") {
  std::mt19937 rng(13);
  int lost_by_cubes = 0, lost_by_small_cubes = 0;
  auto cube = [](Real scale) {
    return [scale](const Geom& g, const Mat3&) { return Vec3::Constant(scale * geom_bounding_radius(g)); };
  };
  for (int scene = 0; scene < 10; ++scene) {
    const Model model = random_model(rng, SceneSpec{});
    Data d;
    d.init(model);
    for (const double extent : {0.5, 1.0})
      for (const Real margin : {0.01, 0.1}) {
        scatter(model, d, rng, extent);
        lost_by_cubes += contacts_lost_by_boxes(model, d, margin, cube(1.0));
        lost_by_small_cubes += contacts_lost_by_boxes(model, d, margin, cube(0.9));
      }
  }
  CHECK(lost_by_cubes == 0);
  CHECK(lost_by_small_cubes > 0);
}

TEST_CASE("broad phase: a tight box would lose a box-box contact the narrow phase reports") {
  // Found by the random scenes above: two turned boxes whose tight world
  // boxes are farther apart than the margin on one axis, for which box-box
  // still reports a contact (the gap is the separation along an edge axis,
  // below the true distance). The cubes keep the pair.
  const Model model = load_mjcf_string(
      "<mujoco model=\"two\"><option gravity=\"0 0 0\"/><worldbody>"
      "<body name=\"a\"><freejoint/><geom type=\"box\" size=\"0.0856375 0.0538918 0.124104\"/></body>"
      "<body name=\"b\" pos=\"0 0 1\"><freejoint/><geom type=\"box\" size=\"0.0506369 0.0883379 0.0313431\"/></body>"
      "</worldbody></mujoco>",
      "two");
  Data d;
  d.init(model);
  d.x_W[0] = Vec3(0.0061227402030999412, -0.20450119164420327, 0.17148523120289577);
  d.q_WB[0] = Quat(0.29245110370290672, 0.34652690363263011, 0.65657620055178079, -0.60274302142017488).normalized();
  d.x_W[1] = Vec3(-0.042754840700541863, -0.088391803419214293, 0.47918870272679193);
  d.q_WB[1] = Quat(0.56568319377713172, -0.34565981282942915, 0.0041102180290234413, -0.74866876800129811).normalized();
  const Real margin = 0.105;
  CHECK(contacts_lost_by_boxes(model, d, margin, tight_half_extents) == 1);
  CHECK(check_scene(model, d, margin) == 1);
  REQUIRE(d.contacts.size() == 1);
  CHECK(d.contacts[0].gap < margin);
}
