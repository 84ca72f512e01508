// MJCF <frame>: a pose (and childclass) with no body of its own. It is folded
// into its children before the model is read, as MuJoCo's compiler does: each
// child's pose becomes frame pose * child pose (a fromto's two points are
// mapped), the frame's childclass becomes the child's class (childclass for
// a body or frame) unless the child names its own, and the children take the
// frame's place in document order. Nested frames compose. Runs after the
// default classes are read, so a pose a child takes from its class is composed too.
#pragma once

#include <tinyxml2.h>

#include <functional>

#include "core/math.hpp"
#include "io/mjcf_include.hpp"

namespace contactlab {

struct MjcfPose {
  Vec3 pos = Vec3::Zero();
  Quat quat = Quat::Identity();
};

// `pose_of(el)` reads an element's pos and orientation (its own or its class's; compiler angle
// and eulerseq applied). Throws MjcfError for a joint, inertial or unknown
// attribute in a frame. A frame that <replicate> made (io/mjcf_include.cpp,
// attribute contactlab_replicate) also suffixes the names inside it.
void fold_mjcf_frames(tinyxml2::XMLElement* root, const MjcfSource& source,
                      const std::function<MjcfPose(const tinyxml2::XMLElement*)>& pose_of);

}  // namespace contactlab
