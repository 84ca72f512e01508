// A height field (MJCF <hfield>): static terrain z = h(x, y) over a regular
// grid, in its geom's frame. Plain data, shared immutable by every copy of the
// Model. MuJoCo's conventions: vertex (row j, column i) lies at
//   x = i 2 sx / (ncol - 1) - sx,   y = j 2 sy / (nrow - 1) - sy,
//   z = elevation[j ncol + i] * top   (elevation normalised to [0, 1]);
// each cell is split along its (i, j)-(i+1, j+1) diagonal into two
// triangles, and the solid is the union of the triangles' prisms down to
// z = -base (geometry/collide_hfield.cpp).
#pragma once

#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct HeightField {
  int nrow = 0, ncol = 0;        // grid vertices along y and x, each >= 2
  Real sx = 0, sy = 0;           // half-extents along x and y, m
  Real top = 0;                  // elevation of a normalised 1, m
  Real base = 0;                 // depth of the solid below z = 0, m (MJCF size[3])
  std::vector<Real> elevation;   // nrow * ncol, row-major (row j = y index), each in [0, 1]

  Real height(int row, int col) const { return elevation[static_cast<size_t>(row) * ncol + col] * top; }
  Real x_at(int col) const { return col * (2 * sx) / (ncol - 1) - sx; }
  Real y_at(int row) const { return row * (2 * sy) / (nrow - 1) - sy; }
  Vec3 vertex(int row, int col) const { return Vec3(x_at(col), y_at(row), height(row, col)); }
};

}  // namespace contactlab
