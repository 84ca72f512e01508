// `contactlab view TRAJ.csv... --scene SCENE [--contacts FILE] [--out DIR]`:
// writes a static web page that replays trajectories with the scene's
// geometry (docs/viewer.md).
#pragma once

#include <string>
#include <vector>

namespace contactlab {

int view_cli(const std::vector<std::string>& args);

}  // namespace contactlab
