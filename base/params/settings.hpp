// The effective settings of one command or engine: every parameter's value and where it came from
// (a flag, the environment, a default, a recipe, or derived by the program), for the printout and run.json.
#pragma once
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/params/table.hpp"

namespace tdisc::params {

struct Setting {
  nlohmann::json value;
  std::string origin;  // "flag", "env TDISC_SEARCH_TIME", "default", "derived", "given", "derived: RULE"
};

class Settings {
public:
  explicit Settings(const Table& table) : table_(&table) {}

  const Table& table() const { return *table_; }
  bool has(const std::string& name) const;  // a value is present (given, from the environment, or a default)
  const nlohmann::json& value(const std::string& name) const;  // TDISC_REQUIRE has(name)
  std::string origin(const std::string& name) const;           // "" when absent
  bool flag(const std::string& name) const;                    // false when absent
  std::string text(const std::string& name) const;             // "" when absent
  long long integer(const std::string& name) const;
  unsigned long long seed(const std::string& name) const;
  double number(const std::string& name) const;                // Number and Duration (seconds)
  std::optional<std::string> maybe(const std::string& name) const;
  // Records a value the program chose ("derived") or one read back from a run; value must pass
  // the table's check (TDISC_REQUIRE), so nothing out of range enters the settings.
  void set(const std::string& name, nlohmann::json value, const std::string& origin);
  void erase(const std::string& name);

  std::vector<std::string>& positional() { return positional_; }
  const std::vector<std::string>& positional() const { return positional_; }
  bool help = false;

  // "size=3x3 (default) threads=2 (env TDISC_SEARCH_THREADS) …", in table order; flags only when set;
  // without those at their defaults when skip_defaults (an engine's 60 parameters on one line).
  std::string effective(bool skip_defaults = false) const;
  int count_of(const std::string& origin) const;  // parameters whose value came from origin ("default")
  // {"size": {"value": "3x3", "from": "default"}, …} for run.json.
  nlohmann::json to_json() const;

private:
  const Table* table_;
  std::map<std::string, Setting> values_;
  std::vector<std::string> positional_;
};

// Settings of a table from a JSON object (a recipe or --params): defaults, then the object's values
// (which must pass check_object) with origin "given".
Settings from_object(const Table& t, const nlohmann::json& object);

}  // namespace tdisc::params
