// `run --contacts FILE`: each step's contact points, normals and forces, the
// overlay of `contactlab view --contacts` (docs/cli.md, "Contacts CSV").
#pragma once

#include <ostream>

#include "core/data.hpp"
#include "core/model.hpp"

namespace contactlab {

void write_contacts_header(std::ostream& out);
// The contacts of the step just taken (found at its start) with their
// impulses over h: the mean force on body2 over the step, world frame.
void write_step_contacts(std::ostream& out, const Model& m, const Data& d, Real h);

}  // namespace contactlab
