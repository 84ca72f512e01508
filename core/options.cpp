#include "core/options.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace contactlab {

namespace {

std::string text_of(Real v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string range_text(Real lo, Real hi) {
  std::ostringstream s;
  s << "must lie in [" << lo << ", " << hi << "]";
  return s.str();
}

Real parse_real(const std::string& value, Real lo, Real hi) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !std::isfinite(v)) throw std::invalid_argument("expected a finite number");
  if (v < lo || v > hi) throw std::invalid_argument(range_text(lo, hi));
  return v;
}

}  // namespace

void OptionSet::add_entry(Entry e) {
  if (find(e.key)) throw std::logic_error("option '" + e.key + "' is bound twice");
  e.default_text = e.current();
  entries_.push_back(std::move(e));
}

void OptionSet::add(const std::string& key, Real* field, const std::string& help, Real lo, Real hi) {
  add_entry({key, help, [field] { return text_of(*field); },
             [field, lo, hi](const std::string& v) { *field = parse_real(v, lo, hi); }, ""});
}

void OptionSet::add(const std::string& key, int* field, const std::string& help, int lo, int hi) {
  add_entry({key, help, [field] { return std::to_string(*field); },
             [field, lo, hi](const std::string& value) {
               char* end = nullptr;
               const long v = std::strtol(value.c_str(), &end, 10);
               if (value.empty() || *end != '\0') throw std::invalid_argument("expected an integer");
               if (v < lo || v > hi) throw std::invalid_argument(range_text(lo, hi));
               *field = static_cast<int>(v);
             },
             ""});
}

void OptionSet::add(const std::string& key, bool* field, const std::string& help) {
  add_entry({key, help, [field] { return std::string(*field ? "true" : "false"); },
             [field](const std::string& value) {
               if (value == "true" || value == "1" || value == "on") *field = true;
               else if (value == "false" || value == "0" || value == "off") *field = false;
               else throw std::invalid_argument("expected true or false");
             },
             ""});
}

void OptionSet::add_choice(const std::string& key, int* field, const std::vector<std::string>& choices,
                           const std::string& help) {
  std::vector<std::pair<std::string, int>> indexed;
  for (size_t i = 0; i < choices.size(); ++i) indexed.emplace_back(choices[i], static_cast<int>(i));
  add_choice<int>(key, field, indexed, help);
}

void OptionSet::add_number(const std::string& key, const std::string& help, std::function<Real()> current,
                           std::function<void(Real)> apply, Real lo, Real hi) {
  add_entry({key, help, [current] { return text_of(current()); },
             [apply, lo, hi](const std::string& v) { apply(parse_real(v, lo, hi)); }, ""});
}

void OptionSet::add_text(const std::string& key, const std::string& help, std::function<std::string()> current,
                         std::function<void(const std::string&)> apply) {
  add_entry({key, help, std::move(current), std::move(apply), ""});
}

void OptionSet::add_alias(const std::string& from_prefix, const std::string& to_prefix) {
  aliases_.emplace_back(from_prefix, to_prefix);
}

void OptionSet::add_validator(std::function<void()> validate) { validators_.push_back(std::move(validate)); }

std::string OptionSet::resolve(const std::string& key) const {
  for (const auto& a : aliases_)
    if (key.rfind(a.first, 0) == 0) return a.second + key.substr(a.first.size());
  return key;
}

const OptionSet::Entry* OptionSet::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

bool OptionSet::has(const std::string& key) const { return find(resolve(key)) != nullptr; }

void OptionSet::set(const std::string& key_as_given, const std::string& value) {
  const std::string key = resolve(key_as_given);
  const Entry* e = find(key);
  if (!e) {
    // The keys of the same group (e.g. every "body." key) when there are
    // any, else every key; at most 40 of them.
    const std::string group = key.substr(0, key.find('.') + 1);
    std::string known;
    int listed = 0, same_group = 0;
    for (const Entry& x : entries_) same_group += !group.empty() && x.key.rfind(group, 0) == 0;
    for (const Entry& x : entries_) {
      if (same_group > 0 && x.key.rfind(group, 0) != 0) continue;
      if (++listed > 40) {
        known += ", ...";
        break;
      }
      known += (known.empty() ? "" : ", ") + x.key;
    }
    throw std::invalid_argument("unknown option '" + key_as_given + "' (known: " + (known.empty() ? "none" : known) +
                                ")");
  }
  try {
    e->parse(value);
  } catch (const std::invalid_argument& why) {
    throw std::invalid_argument("bad value '" + value + "' for option '" + key_as_given + "': " + why.what());
  }
}

void OptionSet::set_assignment(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument("bad --set '" + kv + "': expected KEY=VALUE");
  set(kv.substr(0, eq), kv.substr(eq + 1));
}

void OptionSet::validate() const {
  for (const auto& v : validators_) v();
}

std::string OptionSet::describe() const {
  std::ostringstream s;
  for (const Entry& e : entries_) {
    const std::string now = e.current();
    s << "  " << e.key << " = " << now;
    if (now != e.default_text) s << " (default " << e.default_text << ")";
    s << "    " << e.help << "\n";
  }
  for (const auto& a : aliases_) s << "  " << a.first << "KEY    the same as " << a.second << "KEY\n";
  return s.str();
}

std::vector<std::string> OptionSet::keys() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.key);
  return out;
}

}  // namespace contactlab
