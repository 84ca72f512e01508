// Height field data for MJCF <asset><hfield>: MuJoCo's custom binary file
// (int32 nrow, int32 ncol, float32 data[nrow * ncol], little-endian, row-major,
// row 0 at y = -size[1]) and the normalisation MuJoCo's compiler applies to
// every source (file or elevation=): (v - min) / (max - min), all 0 when the
// data is constant (both checked against MuJoCo 2.2.2's hfield_data).
// A bad file is an std::invalid_argument naming it; PNG height fields are
// refused (contactlab has no PNG reader).
#pragma once

#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct HeightFieldData {
  int nrow = 0, ncol = 0;
  std::vector<Real> values;  // nrow * ncol, row-major, as in the file
};

// Grids are refused above this many points (a hostile header).
constexpr long kMaxHeightFieldPoints = 1L << 24;

HeightFieldData read_hfield_file(const std::string& path);
HeightFieldData read_hfield_bytes(const std::string& bytes, const std::string& label);

// MuJoCo's normalisation to [0, 1]. Throws std::invalid_argument naming
// `label` for a non-finite value.
std::vector<Real> normalized_elevation(const std::vector<Real>& values, const std::string& label);

}  // namespace contactlab
