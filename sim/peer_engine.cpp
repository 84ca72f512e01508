#include "sim/peer_engine.hpp"

#include <mutex>
#include <stdexcept>

namespace contactlab {

namespace {

struct PeerEntry {
  PeerEngineInfo info;
  PeerEngineFactory make;
};

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

std::vector<PeerEntry>& peer_table() {
  static std::vector<PeerEntry> t;
  return t;
}

}  // namespace

void register_peer_engine(const std::string& name, const std::string& summary, PeerEngineFactory factory) {
  if (name.empty()) throw std::invalid_argument("register_peer_engine: empty name");
  if (!factory) throw std::invalid_argument("register_peer_engine: '" + name + "' has no factory");
  std::lock_guard<std::mutex> lock(table_mutex());
  for (PeerEntry& e : peer_table())
    if (e.info.name == name) {
      e = PeerEntry{{name, summary}, std::move(factory)};
      return;
    }
  peer_table().push_back(PeerEntry{{name, summary}, std::move(factory)});
}

std::vector<PeerEngineInfo> peer_engines() {
  std::lock_guard<std::mutex> lock(table_mutex());
  std::vector<PeerEngineInfo> out;
  for (const PeerEntry& e : peer_table()) out.push_back(e.info);
  return out;
}

bool has_peer_engine(const std::string& name) {
  for (const PeerEngineInfo& e : peer_engines())
    if (e.name == name) return true;
  return false;
}

std::unique_ptr<PeerEngine> make_peer_engine(const std::string& name, const std::string& path, const Model& model) {
  PeerEngineFactory make;
  std::string known;
  {
    std::lock_guard<std::mutex> lock(table_mutex());
    for (const PeerEntry& e : peer_table()) {
      if (e.info.name == name) make = e.make;
      known += (known.empty() ? "" : ", ") + e.info.name;
    }
  }
  if (!make)
    throw std::invalid_argument("unknown peer engine '" + name + "' (registered: " + (known.empty() ? "none" : known) +
                                ")");
  return make(path, model);
}

}  // namespace contactlab
