// Convex hulls through qhull. qhull merges coplanar facets by default in 3-d
// (options C-0 Qx), so a cube comes out as six quadrilaterals, which the face
// clipping of the narrow phase needs for a four-point resting manifold.
// Degenerate sets are refused before qhull sees them, so the message says
// what is wrong in our terms rather than qhull's.
#include "geometry/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace contactlab {

namespace {

[[noreturn]] void refuse(const std::string& label, const std::string& why) {
  throw std::invalid_argument(label + ": cannot build a convex hull: " + why);
}

// Relative size (of the point set's extent) below which the set counts as
// having no extent in a direction: far above rounding (1e-16), far below
// any real mesh feature.
constexpr Real kFlatRel = 1e-9;

void check_volume(const std::vector<Vec3>& p, const std::string& label) {
  if (p.size() < 4) refuse(label, "needs at least 4 points, got " + std::to_string(p.size()));
  for (size_t i = 0; i < p.size(); ++i)
    if (!p[i].allFinite()) refuse(label, "point " + std::to_string(i) + " is not finite");
  // Extreme points: the farthest pair, then the point farthest from their
  // line, then the point farthest from that plane.
  Vec3 lo = p[0], hi = p[0];
  for (const Vec3& q : p) lo = lo.cwiseMin(q), hi = hi.cwiseMax(q);
  const Real extent = (hi - lo).norm();
  if (!(extent > 0)) refuse(label, "all points coincide");
  size_t a = 0, b = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if ((p[i] - p[0]).squaredNorm() > (p[b] - p[0]).squaredNorm()) b = i;
  for (size_t i = 0; i < p.size(); ++i)
    if ((p[i] - p[b]).squaredNorm() > (p[a] - p[b]).squaredNorm()) a = i;
  const Vec3 u = (p[b] - p[a]).normalized();
  size_t c = a;
  Real best = -1;
  for (size_t i = 0; i < p.size(); ++i) {
    const Real d = (p[i] - p[a]).cross(u).norm();
    if (d > best) best = d, c = i;
  }
  if (best <= kFlatRel * extent) refuse(label, "all points lie on a line (no volume)");
  const Vec3 n = u.cross(p[c] - p[a]).normalized();
  Real off = 0;
  for (const Vec3& q : p) off = std::max(off, std::abs(n.dot(q - p[a])));
  if (off <= kFlatRel * extent) refuse(label, "all points lie in a plane (no volume)");
}

// Unit direction with a canonical sign (first non-zero component positive),
// so parallel edges map to one class.
Vec3 canonical(Vec3 d) {
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d(i)) > 1e-9) {
      if (d(i) < 0) d = -d;
      break;
    }
  }
  return d;
}

// Sine below which two edge directions count as one class: their cross
// product is degenerate as a separating axis anyway (tested by the faces).
constexpr Real kParallelSin = 1e-6;

void finish_topology(ConvexHull& h) {
  std::map<std::pair<int, int>, int> seen;
  h.edges.clear();
  h.edge_dir.clear();
  h.edge_dirs.clear();
  h.max_face_vertices = 0;
  for (int f = 0; f < h.num_faces(); ++f) {
    const int n = h.face_size(f);
    h.max_face_vertices = std::max(h.max_face_vertices, n);
    for (int k = 0; k < n; ++k) {
      int i = h.face_loop[h.face_begin[f] + k], j = h.face_loop[h.face_begin[f] + (k + 1) % n];
      if (i > j) std::swap(i, j);
      if (!seen.emplace(std::make_pair(i, j), 1).second) continue;
      const Vec3 d = canonical((h.vertices[j] - h.vertices[i]).normalized());
      int cls = -1;
      for (size_t e = 0; e < h.edge_dirs.size() && cls < 0; ++e)
        if (h.edge_dirs[e].cross(d).norm() < kParallelSin) cls = static_cast<int>(e);
      if (cls < 0) {
        cls = static_cast<int>(h.edge_dirs.size());
        h.edge_dirs.push_back(d);
      }
      h.edges.push_back({i, j});
      h.edge_dir.push_back(cls);
    }
  }
  h.bounding_radius = 0;
  for (const Vec3& v : h.vertices) h.bounding_radius = std::max(h.bounding_radius, v.norm());
}

}  // namespace

ConvexHull build_convex_hull(const std::vector<Vec3>& points, const std::string& label) {
  check_volume(points, label);
  std::vector<coordT> coords(3 * points.size());
  for (size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) coords[3 * i + k] = points[i](k);

  // qhull reports on a FILE*; a memory stream keeps its words for our message.
  char* err_text = nullptr;
  size_t err_len = 0;
  FILE* err = open_memstream(&err_text, &err_len);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err);
  char options[] = "qhull";
  const int code = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, options, nullptr, err);
  ConvexHull h;
  std::string failure;
  if (code != 0) {
    std::fflush(err);
    failure = "qhull failed (code " + std::to_string(code) + "): " + std::string(err_text ? err_text : "");
  } else {
    std::map<int, int> vid;  // qhull point id -> hull vertex id
    facetT* facet;
    FORALLfacets {
      const Vec3 n(facet->normal[0], facet->normal[1], facet->normal[2]);
      std::vector<int> loop;
      vertexT *vertex, **vertexp;
      FOREACHvertex_(facet->vertices) {
        const int pid = qh_pointid(qh, vertex->point);
        auto it = vid.find(pid);
        if (it == vid.end()) {
          it = vid.emplace(pid, static_cast<int>(h.vertices.size())).first;
          h.vertices.push_back(points[pid]);
        }
        loop.push_back(it->second);
      }
      // Order the loop counter-clockwise about n by angle round its centroid.
      Vec3 c = Vec3::Zero();
      for (int v : loop) c += h.vertices[v];
      c /= static_cast<Real>(loop.size());
      const Vec3 e1 = (n.unitOrthogonal());
      const Vec3 e2 = n.cross(e1);
      std::sort(loop.begin(), loop.end(), [&](int x, int y) {
        const Vec3 dx = h.vertices[x] - c, dy = h.vertices[y] - c;
        return std::atan2(dx.dot(e2), dx.dot(e1)) < std::atan2(dy.dot(e2), dy.dot(e1));
      });
      if (static_cast<int>(loop.size()) > kMaxHullFaceVertices) {
        failure = "a hull face has " + std::to_string(loop.size()) + " vertices, more than the " +
                  std::to_string(kMaxHullFaceVertices) + " the narrow phase clips";
        break;
      }
      h.face_begin.push_back(static_cast<int>(h.face_loop.size()));
      h.face_loop.insert(h.face_loop.end(), loop.begin(), loop.end());
      h.face_normals.push_back(n);
      // qhull's plane is n . x + offset = 0; the face's vertices may sit off
      // a merged facet's plane by rounding, so take the outermost.
      Real d = -facet->offset;
      for (int v : loop) d = std::max(d, n.dot(h.vertices[v]));
      h.face_offsets.push_back(d);
    }
    h.face_begin.push_back(static_cast<int>(h.face_loop.size()));
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(err);
  std::free(err_text);
  if (!failure.empty()) refuse(label, failure);
  finish_topology(h);
  return h;
}

ConvexHull transformed_hull(const ConvexHull& hull, const Mat3& R, const Vec3& t) {
  ConvexHull h = hull;
  for (Vec3& v : h.vertices) v = R * v + t;
  for (int f = 0; f < h.num_faces(); ++f) {
    h.face_normals[f] = R * hull.face_normals[f];
    h.face_offsets[f] = hull.face_offsets[f] + h.face_normals[f].dot(t);
  }
  finish_topology(h);
  return h;
}

}  // namespace contactlab
