#include "io/hfield_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "io/mesh_io.hpp"

namespace contactlab {

namespace {

[[noreturn]] void hfield_fail(const std::string& label, const std::string& why) {
  throw std::invalid_argument(label + ": " + why);
}

bool ends_with_png(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".png";
}

int32_t read_int32_le(const std::string& bytes, size_t at) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return static_cast<int32_t>(uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24);
}

float read_float_le(const std::string& bytes, size_t at) {
  const uint32_t u = static_cast<uint32_t>(read_int32_le(bytes, at));
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace

HeightFieldData read_hfield_bytes(const std::string& bytes, const std::string& label) {
  if (bytes.size() < 8) hfield_fail(label, "height field file of " + std::to_string(bytes.size()) +
                                        " bytes: shorter than its header (int32 nrow, int32 ncol)");
  HeightFieldData d;
  const long nrow = read_int32_le(bytes, 0), ncol = read_int32_le(bytes, 4);
  if (nrow < 2 || ncol < 2) hfield_fail(label, "height field needs nrow and ncol >= 2, the header says " +
                                            std::to_string(nrow) + " x " + std::to_string(ncol));
  if (nrow * ncol > kMaxHeightFieldPoints)
    hfield_fail(label, "height field of " + std::to_string(nrow) + " x " + std::to_string(ncol) + " points is larger than the " +
                    std::to_string(kMaxHeightFieldPoints) + " contactlab accepts");
  const size_t expected = 8 + 4 * static_cast<size_t>(nrow * ncol);
  if (bytes.size() != expected)
    hfield_fail(label, "height field of " + std::to_string(nrow) + " x " + std::to_string(ncol) + " needs " +
                    std::to_string(expected) + " bytes (header and float32 data), the file has " +
                    std::to_string(bytes.size()));
  d.nrow = static_cast<int>(nrow);
  d.ncol = static_cast<int>(ncol);
  d.values.resize(static_cast<size_t>(nrow * ncol));
  for (size_t i = 0; i < d.values.size(); ++i) {
    const float v = read_float_le(bytes, 8 + 4 * i);
    if (!std::isfinite(v))
      hfield_fail(label, "height field value " + std::to_string(i) + " (row " + std::to_string(i / ncol) + ", column " +
                      std::to_string(i % ncol) + ") is not finite");
    d.values[i] = v;
  }
  return d;
}

HeightFieldData read_hfield_file(const std::string& path) {
  if (ends_with_png(path))
    hfield_fail(path, "PNG height fields are not read (contactlab has no PNG decoder); convert the image to MuJoCo's "
               "binary height field format (int32 nrow, int32 ncol, float32 data) or give nrow, ncol and elevation");
  const size_t limit = 8 + 4 * static_cast<size_t>(kMaxHeightFieldPoints);
  return read_hfield_bytes(read_asset_bytes(path, limit, "a height field"), path);
}

std::vector<Real> normalized_elevation(const std::vector<Real>& values, const std::string& label) {
  Real lo = 0, hi = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) hfield_fail(label, "elevation value " + std::to_string(i) + " is not finite");
    lo = i == 0 ? values[i] : std::min(lo, values[i]);
    hi = i == 0 ? values[i] : std::max(hi, values[i]);
  }
  std::vector<Real> out(values.size(), 0);
  if (hi > lo)
    for (size_t i = 0; i < values.size(); ++i) out[i] = (values[i] - lo) / (hi - lo);
  return out;
}

}  // namespace contactlab
