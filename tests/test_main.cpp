// doctest's main, with the peer engines this build has registered first
// (sim/peer_engine.hpp), as the contactlab command does.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "peers/register_peers.hpp"

int main(int argc, char** argv) {
  contactlab::register_builtin_peers();
  return doctest::Context(argc, argv).run();
}
