// Typed options reachable from the command line as `--set PREFIX.KEY=VALUE`.
// Each part binds the fields of its own options struct into an OptionSet; the
// CLI only ever talks to the OptionSet, nothing deeper parses strings.
#pragma once

#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
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

  // Parses "KEY=VALUE" or (key, value). Throws std::invalid_argument naming the
  // key and the value when the key is unknown or the value does not parse or fit.
  void set(const std::string& key, const std::string& value);
  void set_assignment(const std::string& key_equals_value);
  bool has(const std::string& key) const;
  // One line per option: key, current value, help.
  std::string describe() const;

 private:
  enum class Kind { Real, Int, Bool, Choice };
  struct Entry {
    std::string key, help;
    Kind kind;
    void* field;
    Real lo, hi;
    std::vector<std::string> choices;
  };
  const Entry* find(const std::string& key) const;
  std::vector<Entry> entries_;
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

}  // namespace contactlab
