// Implicit names for unnamed MJCF elements, so that every body, geom, site, MJCF
// joint, actuator and equality has a unique non-empty name in output (JSON
// keys, CSV columns). MuJoCo leaves them unnamed; contactlab names them
// KIND_ID (body_3, geom_0, site_1, joint_2, actuator_1, equality_0) and appends '_'
// until the name is unused by that kind. Internal welds (JointType::Weld) keep "".
#pragma once

#include "core/model.hpp"

namespace contactlab {

void name_unnamed(Model& model);

}  // namespace contactlab
