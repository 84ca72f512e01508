// Typed options reachable from the command line as `--set PREFIX.KEY=VALUE`.
//
// One option system for every key: each part (contact law, solver, scheme,
// step adjoint) binds the fields of its own options struct into an OptionSet
// with their type, bounds and meaning, and registers its one validation
// (add_validator: the part's Validate(), naming the bad field). The model's
// parameters (body.NAME.mass, geom.NAME.friction, actuator.NAME.kp|kv) are
// bound the same way (sim/settings.hpp). The CLI only ever talks to the
// OptionSet — one parser for every key, and `--list-options` prints every
// key with its value, its default and its meaning; nothing deeper parses
// strings.
#pragma once

#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

class OptionSet {
 public:
  // Binds a field. `lo`/`hi` bound the accepted values (inclusive).
  void add(const std::string& key, Real* field, const std::string& help,
           Real lo = -std::numeric_limits<Real>::infinity(), Real hi = std::numeric_limits<Real>::infinity());
  void add(const std::string& key, int* field, const std::string& help, int lo = std::numeric_limits<int>::min(),
           int hi = std::numeric_limits<int>::max());
  void add(const std::string& key, bool* field, const std::string& help);
  // A choice among named values (stored as the index into `choices`).
  void add_choice(const std::string& key, int* field, const std::vector<std::string>& choices, const std::string& help);
  // A choice among named values of any type (an enum, a bool, ...).
  template <class T>
  void add_choice(const std::string& key, T* field, const std::vector<std::pair<std::string, T>>& choices,
                  const std::string& help);
  // A number whose setting goes through `apply` (which may check it further and
  // update dependent fields, e.g. a body's inertia with its mass); `current`
  // reads it back.
  void add_number(const std::string& key, const std::string& help, std::function<Real()> current,
                  std::function<void(Real)> apply, Real lo = -std::numeric_limits<Real>::infinity(),
                  Real hi = std::numeric_limits<Real>::infinity());
  // A value of any other form: `apply` parses it (throwing std::invalid_argument
  // with the reason) and `current` writes it back.
  void add_text(const std::string& key, const std::string& help, std::function<std::string()> current,
                std::function<void(const std::string&)> apply);
  // `from.` keys are read as `to.` keys (model.* = contact.*).
  void add_alias(const std::string& from_prefix, const std::string& to_prefix);
  // The one validation of a part's options (its Validate()), run by validate().
  void add_validator(std::function<void()> validate);

  // Parses "KEY=VALUE" or (key, value). Throws std::invalid_argument naming the
  // key and the value when the key is unknown or the value does not parse or fit.
  void set(const std::string& key, const std::string& value);
  void set_assignment(const std::string& key_equals_value);
  bool has(const std::string& key) const;
  // Every registered validator, in binding order; throws std::invalid_argument
  // naming the first bad field.
  void validate() const;
  // One line per option: key, current value, the default when it differs, help.
  std::string describe() const;
  std::vector<std::string> keys() const;

 private:
  struct Entry {
    std::string key, help;
    std::function<std::string()> current;          // the value as text
    std::function<void(const std::string&)> parse;  // throws a bad-value message (without the key)
    std::string default_text;                      // current() when bound
  };
  void add_entry(Entry e);
  const Entry* find(const std::string& key) const;
  std::string resolve(const std::string& key) const;
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::vector<std::function<void()>> validators_;
};

// The checks of an options struct's Validate(): each throws
// std::invalid_argument "<Type>.<field> <what> (got <value>)" unless ok.
class OptionCheck {
 public:
  explicit OptionCheck(const char* type) : type_(type) {}

  template <typename V>
  void operator()(bool ok, const char* field, V value, const char* what) const {
    if (ok) return;
    std::ostringstream s;
    s << type_ << "." << field << " " << what << " (got " << value << ")";
    throw std::invalid_argument(s.str());
  }

 private:
  const char* type_;
};

// ---- implementation of the template ----
template <class T>
void OptionSet::add_choice(const std::string& key, T* field, const std::vector<std::pair<std::string, T>>& choices,
                           const std::string& help) {
  Entry e;
  e.key = key;
  e.help = help;
  e.current = [field, choices]() -> std::string {
    for (const auto& c : choices)
      if (c.second == *field) return c.first;
    return "?";
  };
  e.parse = [field, choices](const std::string& value) {
    std::string all;
    for (const auto& c : choices) {
      if (c.first == value) {
        *field = c.second;
        return;
      }
      all += (all.empty() ? "" : "|") + c.first;
    }
    throw std::invalid_argument("expected one of " + all);
  };
  add_entry(std::move(e));
}

}  // namespace contactlab
