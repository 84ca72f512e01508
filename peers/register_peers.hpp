// Registers the peer engines built into this installation (MuJoCo, when
// contactlab was built with it) with sim/peer_engine.hpp, so that comparisons
// find them by name. Safe to call more than once.
#pragma once

namespace contactlab {

void register_builtin_peers();

}  // namespace contactlab
