// The FCLib reader when contactlab is built without HDF5.
#include <stdexcept>

#include "io/fclib_io.hpp"

namespace contactlab {

bool fclib_reader_built() { return false; }

FrictionContactProblem read_fclib_hdf5(const std::string& path) {
  throw std::invalid_argument(path +
                              ": contactlab was built without HDF5, so it cannot read FCLib .hdf5 problems "
                              "(install libhdf5-dev, as scripts/setup.sh does, and rebuild)");
}

}  // namespace contactlab
