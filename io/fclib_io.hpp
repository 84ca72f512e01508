// FCLib local problems (.hdf5, the Frictional Contact Library's format):
// group /fclib_local with W (a CSparse matrix: nzmax, m, n, p, i, x, nz;
// nz = -1 compressed column, -2 compressed row, >= 0 triplet), vectors q and
// mu, and spacedim. Read with HDF5's C API; built when libhdf5-dev is found
// (CONTACTLAB_FCLIB), otherwise read_fclib_hdf5 throws saying so.
#pragma once

#include <string>

#include "io/fc3d_io.hpp"

namespace contactlab {

// True when contactlab was built with the HDF5 reader.
bool fclib_reader_built();

// Throws std::invalid_argument naming the file and the dataset on malformed
// input (missing group or dataset, inconsistent sizes, index out of range,
// spacedim other than 3, non-finite values, negative mu).
FrictionContactProblem read_fclib_hdf5(const std::string& path);

}  // namespace contactlab
