// Effective settings: values with their origin, typed access, the printout and the run.json record.
#include "base/params/settings.hpp"

#include "base/error.hpp"

namespace tdisc::params {

using nlohmann::json;

bool Settings::has(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && !it->second.value.is_null();
}

const json& Settings::value(const std::string& name) const {
  TDISC_REQUIRE(table_->find(name), "no parameter " + name + " in table " + table_->name);
  TDISC_REQUIRE(has(name), "parameter " + name + " has no value");
  return values_.at(name).value;
}

std::string Settings::origin(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? "" : it->second.origin;
}

bool Settings::flag(const std::string& name) const { return has(name) && value(name).get<bool>(); }

std::string Settings::text(const std::string& name) const {
  if (!has(name)) return "";
  const json& v = value(name);
  return v.is_string() ? v.get<std::string>() : show(*table_->find(name), v);
}

std::optional<std::string> Settings::maybe(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return text(name);
}

long long Settings::integer(const std::string& name) const { return value(name).get<long long>(); }
unsigned long long Settings::seed(const std::string& name) const { return value(name).get<unsigned long long>(); }
double Settings::number(const std::string& name) const { return value(name).get<double>(); }

void Settings::set(const std::string& name, json v, const std::string& origin) {
  const Param* p = table_->find(name);
  TDISC_REQUIRE(p, "no parameter " + name + " in table " + table_->name);
  TDISC_REQUIRE(v.is_null() || check_value(*p, v, name).empty(), check_value(*p, v, name));
  values_[name] = {std::move(v), origin};
}

void Settings::erase(const std::string& name) { values_.erase(name); }

std::string Settings::effective(bool skip_defaults) const {
  std::string out;
  for (const Param& p : table_->params) {
    const std::string n = p.long_name();
    if (!has(n) || (p.kind == Kind::Flag && !flag(n)) || (skip_defaults && origin(n) == "default")) continue;
    out += (out.empty() ? "" : " ") + n + "=" + show(p, value(n));
    if (const std::string& o = origin(n); o != "flag") out += " (" + o + ")";
  }
  return out;
}

int Settings::count_of(const std::string& o) const {
  int k = 0;
  for (const auto& [name, s] : values_) k += s.origin == o && !s.value.is_null();
  return k;
}

json Settings::to_json() const {
  json out = json::object();
  for (const Param& p : table_->params) {
    const std::string n = p.long_name();
    if (has(n)) out[n] = {{"value", value(n)}, {"from", origin(n)}};
  }
  return out;
}

Settings from_object(const Table& t, const json& object) {
  auto problems = check_object(t, object, "");
  TDISC_REQUIRE(problems.empty(), problems.empty() ? "" : problems.front());
  Settings s(t);
  json m = merged(t, object);
  for (const auto& [key, value] : m.items()) s.set(key, value, object.contains(key) ? "given" : "default");
  return s;
}

}  // namespace tdisc::params
