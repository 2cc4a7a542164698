// The one parameter-table type of tdisc (STYLE §2, after CaDiCaL's options.hpp and llama.cpp's arg.cpp):
// each command and each engine lists its knobs once — name, kind, default, range or choices, help, env.
// Parsing (text from a flag or the environment, or a JSON recipe), validation, --help, --help-params,
// the effective-settings printout, run.json and docs/parameters.md are all driven from that list.
//
// It lives in base/params/, below every layer that has knobs (the engines in src/search and src/llm,
// the command line in src/cli); it knows nothing of search itself, only of JSON.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

namespace tdisc::params {

enum class Kind {
  Flag,      // a command-line switch: present or not (JSON: true/false)
  Boolean,   // true/false (text: true, false, 1, 0, yes, no, on, off)
  Integer,   // a whole number in [lo, hi]
  Seed,      // a whole number in [0, 2^64 − 1]; more digits are an error, never clamped
  Number,    // a finite real number in [lo, hi]
  Duration,  // seconds in [lo, hi]; text "90s", "10m", "2h", "1d" or plain seconds
  Choice,    // one of choices
  Text,      // any string
};

struct Param {
  std::string name;          // flag or JSON key: "threads", "plus_min"; "out,o" adds the short form -o
  Kind kind = Kind::Text;
  nlohmann::json fallback;   // the default (null: none; the help says what happens then)
  std::string help;          // one line; "\n" continues it on the next line
  double lo = 0, hi = 0;     // inclusive range of Integer, Number and Duration
  std::vector<std::string> choices = {};  // Choice; matched without regard to case, stored as spelt here
  std::vector<std::pair<std::string, std::string>> aliases = {};  // Choice: other spellings {"F2", "GF2"}
  std::string metavar = {};  // "FILE", "N" in --help; empty: from the kind
  std::string env = {};      // environment mirror; empty: the table's prefix + NAME, "-": none
  // The binder (bind.hpp): writes a checked value into the engine's parameter struct, whose type
  // bound_type names. Empty for command tables, which are read through Settings.
  std::function<void(void* target, const nlohmann::json& value)> store = {};
  const std::type_info* bound_type = nullptr;

  std::string long_name() const;  // "out" for "out,o"
  char short_name() const;        // 'o' for "out,o", 0 when none
};

// The builders a table is written with: one line per parameter.
// Seconds from "90s", "10m", "2h", "1.5h", "1d" or "45"; nullopt when malformed, negative or not finite
// (for options that take a duration or a word, like search's --time unlimited).
std::optional<double> duration_seconds(const std::string& s);
Param flag(std::string name, std::string help);
Param boolean(std::string name, bool fallback, std::string help);
Param integer(std::string name, nlohmann::json fallback, double lo, double hi, std::string help);
Param seed(std::string name, nlohmann::json fallback, std::string help);
Param number(std::string name, nlohmann::json fallback, double lo, double hi, std::string help);
Param duration(std::string name, nlohmann::json fallback, double lo, double hi, std::string help);
Param choice(std::string name, nlohmann::json fallback, std::vector<std::string> choices, std::string help);
Param text(std::string name, nlohmann::json fallback, std::string help);
Param with_metavar(Param p, std::string metavar);
Param with_env(Param p, std::string env);
Param with_aliases(Param p, std::vector<std::pair<std::string, std::string>> aliases);  // a shared name ("TDISC_CATALOG_DIR"), or "-" for none

struct Table {
  std::string name;        // "search", "catalog add", "flip"
  std::string synopsis;    // "tdisc verify FILE… [--ring R]"; empty for an engine
  std::string summary;     // what it does (a few lines)
  std::vector<Param> params;
  std::string positional;  // name of the positional list ("FILE"); empty for none
  std::string env_prefix;  // "TDISC_SEARCH_": every parameter mirrors TDISC_SEARCH_<NAME>; empty: none

  const Param* find(const std::string& name) const;  // by long name, nullptr when unknown
  std::string env_of(const Param& p) const;          // the environment mirror of p, "" when none
  std::vector<std::string> names() const;
};

// Text (a flag's value or an environment variable) → the JSON value of p's kind. Throws
// UsageError "WHERE: what is wrong" when it does not parse or lies outside the range or choices.
nlohmann::json from_text(const Param& p, const std::string& text, const std::string& where);
// A JSON value (a recipe) checked against p: "" when acceptable, else one message starting with where.
std::string check_value(const Param& p, const nlohmann::json& value, const std::string& where);
// Every parameter that has a default, with it.
nlohmann::json defaults(const Table& t);
// One message per problem in a JSON object of parameters: unknown key (with the known ones), wrong
// type, out of range, unknown choice. Messages start with prefix + key ("params.clip: …").
std::vector<std::string> check_object(const Table& t, const nlohmann::json& object, const std::string& prefix);
// defaults(t) overlaid with a checked object (values of Duration given as text become seconds).
nlohmann::json merged(const Table& t, const nlohmann::json& object);

// How a value is shown: 10m stays "600s", 1e-9 stays "1e-09", strings bare.
std::string show(const Param& p, const nlohmann::json& value);
// "[0..1024]", "{auto, flip}", "" — the range or choices of p as the help shows them.
std::string domain(const Param& p);

}  // namespace tdisc::params
