// Parameter tables: the builders, text and JSON values checked against a parameter's kind, range
// and choices (out of range is an error, never clamped), defaults and merging.
#include "base/params/table.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "base/error.hpp"

namespace tdisc::params {

using nlohmann::json;

std::string Param::long_name() const { return name.substr(0, name.find(',')); }

char Param::short_name() const {
  auto c = name.find(',');
  return c == std::string::npos || c + 1 >= name.size() ? 0 : name[c + 1];
}

Param flag(std::string name, std::string help) { return {std::move(name), Kind::Flag, json(), std::move(help)}; }
Param boolean(std::string name, bool fallback, std::string help) {
  return {std::move(name), Kind::Boolean, fallback, std::move(help)};
}
Param integer(std::string name, json fallback, double lo, double hi, std::string help) {
  return {std::move(name), Kind::Integer, std::move(fallback), std::move(help), lo, hi};
}
Param seed(std::string name, json fallback, std::string help) {
  return {std::move(name), Kind::Seed, std::move(fallback), std::move(help)};
}
Param number(std::string name, json fallback, double lo, double hi, std::string help) {
  return {std::move(name), Kind::Number, std::move(fallback), std::move(help), lo, hi};
}
Param duration(std::string name, json fallback, double lo, double hi, std::string help) {
  return {std::move(name), Kind::Duration, std::move(fallback), std::move(help), lo, hi};
}
Param choice(std::string name, json fallback, std::vector<std::string> choices, std::string help) {
  return {std::move(name), Kind::Choice, std::move(fallback), std::move(help), 0, 0, std::move(choices)};
}
Param text(std::string name, json fallback, std::string help) {
  return {std::move(name), Kind::Text, std::move(fallback), std::move(help)};
}
Param with_metavar(Param p, std::string metavar) {
  p.metavar = std::move(metavar);
  return p;
}
Param with_env(Param p, std::string env) {
  p.env = std::move(env);
  return p;
}

Param with_aliases(Param p, std::vector<std::pair<std::string, std::string>> aliases) {
  p.aliases = std::move(aliases);
  return p;
}

const Param* Table::find(const std::string& name) const {
  for (const Param& p : params)
    if (p.long_name() == name) return &p;
  return nullptr;
}

std::string Table::env_of(const Param& p) const {
  if (p.env == "-") return "";
  if (!p.env.empty()) return p.env;
  if (env_prefix.empty()) return "";
  std::string e = env_prefix + p.long_name();
  for (char& c : e) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return e;
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> out;
  for (const Param& p : params) out.push_back(p.long_name());
  return out;
}

namespace {

// Whole numbers in full (2^50 = 1125899906842624), others in the shortest %g form (1e-09).
std::string number_text(double v) {
  char buf[40];
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e16) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string choice_list(const Param& p) {
  std::string out;
  for (const auto& c : p.choices) out += (out.empty() ? "" : ", ") + c;
  return out;
}

// Seconds from "90s", "10m", "2h", "1.5h", "1d" or "45"; nullopt when malformed or negative.
std::optional<double> parse_duration(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::string unit(end);
  double mult = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : unit == "d" ? 86400 : -1;
  if (end == s.c_str() || mult < 0 || !(v >= 0) || !std::isfinite(v)) return std::nullopt;
  return v * mult;
}

bool same_letters(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

// The choice s names (any case, or an alias), spelt as in the table.
std::optional<std::string> canonical_choice(const Param& p, const std::string& s) {
  for (const auto& c : p.choices)
    if (same_letters(c, s)) return c;
  for (const auto& [alias, c] : p.aliases)
    if (same_letters(alias, s)) return c;
  return std::nullopt;
}

std::string out_of_range(const Param& p, const std::string& shown, const std::string& where) {
  return where + ": " + shown + " is out of range " + domain(p);
}

std::string check_range(const Param& p, double x, const std::string& shown, const std::string& where) {
  return x < p.lo || x > p.hi ? out_of_range(p, shown, where) : "";
}

}  // namespace

std::optional<double> duration_seconds(const std::string& s) { return parse_duration(s); }

json from_text(const Param& p, const std::string& s, const std::string& where) {
  const std::string quoted = "\"" + s + "\"";
  auto fail = [&](const std::string& what) -> json { throw UsageError(where + ": " + quoted + " is not " + what); };
  switch (p.kind) {
    case Kind::Flag:
    case Kind::Boolean: {
      std::string l = s;
      std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
      if (l == "1" || l == "true" || l == "yes" || l == "on") return true;
      if (l == "0" || l == "false" || l == "no" || l == "off") return false;
      return fail("true or false (also 1/0, yes/no, on/off)");
    }
    case Kind::Integer: {
      char* end = nullptr;
      errno = 0;
      long long v = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0]))) return fail("an integer");
      if (errno == ERANGE || v < p.lo || v > p.hi) throw UsageError(out_of_range(p, s, where));
      return v;
    }
    case Kind::Seed: {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return fail("a non-negative integer");
      errno = 0;
      unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
      if (errno == ERANGE) throw UsageError(where + ": " + s + " is beyond 2^64 − 1 = 18446744073709551615");
      return v;
    }
    case Kind::Number: {
      char* end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || !std::isfinite(v)) return fail("a finite number");
      if (auto m = check_range(p, v, s, where); !m.empty()) throw UsageError(m);
      return v;
    }
    case Kind::Duration: {
      auto d = parse_duration(s);
      if (!d) return fail("a duration (e.g. 90s, 10m, 2h)");
      if (auto m = check_range(p, *d, s, where); !m.empty()) throw UsageError(m);
      return *d;
    }
    case Kind::Choice:
      if (auto c = canonical_choice(p, s)) return *c;
      throw UsageError(where + ": unknown " + p.long_name() + " " + quoted + " (known: " + choice_list(p) + ")");
    case Kind::Text:
      return s;
  }
  return s;
}

std::string check_value(const Param& p, const json& v, const std::string& where) {
  switch (p.kind) {
    case Kind::Flag:
    case Kind::Boolean:
      return v.is_boolean() ? "" : where + ": expected true or false, got " + v.dump();
    case Kind::Integer:
      if (!v.is_number_integer()) return where + ": expected an integer, got " + v.dump();
      if (v.is_number_unsigned() && v.get<unsigned long long>() > 1ULL << 62) return out_of_range(p, v.dump(), where);
      return check_range(p, static_cast<double>(v.get<long long>()), v.dump(), where);
    case Kind::Seed:
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0)) return "";
      return where + ": expected a non-negative integer below 2^64, got " + v.dump();
    case Kind::Number:
      if (!v.is_number()) return where + ": expected a number, got " + v.dump();
      return check_range(p, v.get<double>(), v.dump(), where);
    case Kind::Duration:
      if (v.is_string()) {
        auto d = parse_duration(v.get<std::string>());
        if (!d) return where + ": expected seconds or a duration like \"10m\", got " + v.dump();
        return check_range(p, *d, v.dump(), where);
      }
      if (!v.is_number()) return where + ": expected seconds or a duration like \"10m\", got " + v.dump();
      return check_range(p, v.get<double>(), v.dump(), where);
    case Kind::Choice:
      if (v.is_string() && std::find(p.choices.begin(), p.choices.end(), v.get<std::string>()) != p.choices.end())
        return "";
      return where + ": expected one of " + choice_list(p) + ", got " + v.dump();
    case Kind::Text:
      return v.is_string() ? "" : where + ": expected a string, got " + v.dump();
  }
  return "";
}

json defaults(const Table& t) {
  json out = json::object();
  for (const Param& p : t.params)
    if (!p.fallback.is_null()) out[p.long_name()] = p.fallback;
  return out;
}

std::vector<std::string> check_object(const Table& t, const json& object, const std::string& prefix) {
  if (!object.is_object()) return {t.name + " parameters must be a JSON object, got " + object.dump()};
  std::vector<std::string> problems;
  for (const auto& [key, value] : object.items()) {
    const Param* p = t.find(key);
    if (!p) {
      std::string known;
      for (const auto& n : t.names()) known += (known.empty() ? "" : ", ") + n;
      problems.push_back(prefix + key + ": unknown " + t.name + " parameter (known: " + known + ")");
    } else if (auto m = check_value(*p, value, prefix + key); !m.empty()) {
      problems.push_back(m);
    }
  }
  return problems;
}

json merged(const Table& t, const json& object) {
  json m = defaults(t);
  for (const auto& [key, value] : object.items()) {
    const Param* p = t.find(key);
    TDISC_REQUIRE(p && check_value(*p, value, key).empty(), "unchecked parameter " + key);
    m[key] = p->kind == Kind::Duration && value.is_string() ? json(*parse_duration(value.get<std::string>())) : value;
  }
  return m;
}

std::string show(const Param& p, const json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (p.kind == Kind::Duration && v.is_number()) return number_text(v.get<double>()) + "s";
  if (v.is_number_float()) return number_text(v.get<double>());
  return v.dump();
}

std::string domain(const Param& p) {
  switch (p.kind) {
    case Kind::Integer:
    case Kind::Number:
      return "[" + number_text(p.lo) + ".." + number_text(p.hi) + "]";
    case Kind::Duration:
      return "[" + number_text(p.lo) + "s.." + number_text(p.hi) + "s]";
    case Kind::Seed:
      return "[0..2^64-1]";
    case Kind::Choice:
      return "{" + choice_list(p) + "}";
    default:
      return "";
  }
}

}  // namespace tdisc::params
