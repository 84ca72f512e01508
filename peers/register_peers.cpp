#include "peers/register_peers.hpp"

#include <memory>

#include "peers/mujoco_peer.hpp"
#include "sim/peer_engine.hpp"

namespace contactlab {

void register_builtin_peers() {
  if (MujocoPeer::built())
    register_peer_engine("mujoco", "MuJoCo 2.2 (libmujoco-dev) on the same MJCF file, the integrator it names",
                         [](const std::string& path, const Model& model) -> std::unique_ptr<PeerEngine> {
                           return std::make_unique<MujocoPeer>(path, model);
                         });
}

}  // namespace contactlab
