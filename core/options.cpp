#include "core/options.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace contactlab {

void OptionSet::add(const std::string& key, Real* field, const std::string& help, Real lo, Real hi) {
  entries_.push_back({key, help, Kind::Real, field, lo, hi, {}});
}
void OptionSet::add(const std::string& key, int* field, const std::string& help, int lo, int hi) {
  entries_.push_back({key, help, Kind::Int, field, Real(lo), Real(hi), {}});
}
void OptionSet::add(const std::string& key, bool* field, const std::string& help) {
  entries_.push_back({key, help, Kind::Bool, field, 0, 1, {}});
}
void OptionSet::add_choice(const std::string& key, int* field, const std::vector<std::string>& choices,
                           const std::string& help) {
  entries_.push_back({key, help, Kind::Choice, field, 0, Real(choices.size() - 1), choices});
}

const OptionSet::Entry* OptionSet::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

bool OptionSet::has(const std::string& key) const { return find(key) != nullptr; }

void OptionSet::set(const std::string& key, const std::string& value) {
  const Entry* e = find(key);
  if (!e) {
    std::string known;
    for (const Entry& x : entries_) known += (known.empty() ? "" : ", ") + x.key;
    throw std::invalid_argument("unknown option '" + key + "' (known: " + known + ")");
  }
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("bad value '" + value + "' for option '" + key + "': " + why);
  };
  switch (e->kind) {
    case Kind::Real: {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(v)) throw bad("expected a finite number");
      if (v < e->lo || v > e->hi) {
        std::ostringstream s;
        s << "must lie in [" << e->lo << ", " << e->hi << "]";
        throw bad(s.str());
      }
      *static_cast<Real*>(e->field) = v;
      break;
    }
    case Kind::Int: {
      char* end = nullptr;
      const long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') throw bad("expected an integer");
      if (v < e->lo || v > e->hi) {
        std::ostringstream s;
        s << "must lie in [" << e->lo << ", " << e->hi << "]";
        throw bad(s.str());
      }
      *static_cast<int*>(e->field) = static_cast<int>(v);
      break;
    }
    case Kind::Bool: {
      if (value == "true" || value == "1" || value == "on") *static_cast<bool*>(e->field) = true;
      else if (value == "false" || value == "0" || value == "off") *static_cast<bool*>(e->field) = false;
      else throw bad("expected true or false");
      break;
    }
    case Kind::Choice: {
      for (size_t i = 0; i < e->choices.size(); ++i) {
        if (e->choices[i] == value) {
          *static_cast<int*>(e->field) = static_cast<int>(i);
          return;
        }
      }
      std::string all;
      for (const auto& c : e->choices) all += (all.empty() ? "" : "|") + c;
      throw bad("expected one of " + all);
    }
  }
}

void OptionSet::set_assignment(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument("bad --set '" + kv + "': expected KEY=VALUE");
  set(kv.substr(0, eq), kv.substr(eq + 1));
}

std::string OptionSet::describe() const {
  std::ostringstream s;
  for (const Entry& e : entries_) {
    s << "  " << e.key << " = ";
    switch (e.kind) {
      case Kind::Real: s << *static_cast<Real*>(e.field); break;
      case Kind::Int: s << *static_cast<int*>(e.field); break;
      case Kind::Bool: s << (*static_cast<bool*>(e.field) ? "true" : "false"); break;
      case Kind::Choice: s << e.choices[*static_cast<int*>(e.field)]; break;
    }
    s << "    " << e.help << "\n";
  }
  return s.str();
}

}  // namespace contactlab
