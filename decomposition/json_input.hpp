// The one way tdisc parses JSON that comes from outside: scheme files, checkpoints and other run
// files, --params, bench and report inputs, and servers' replies. Before the JSON library sees the
// text it is checked in one pass without recursion: its size, its nesting, every number (an
// integer must fit 64 bits, a fraction or exponent form a finite double) and its UTF-8. Every
// refusal is an InputError "ORIGIN:LINE: not WHAT: …" naming the line and column.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/limits.hpp"
#include "decomposition/coeff.hpp"

namespace tdisc {

struct JsonSource {
  std::string origin;  // the file, or the endpoint whose reply this is ("FILE" of "FILE:LINE: …")
  std::string what;    // the kind of content, "a tdisc checkpoint" ("not a tdisc checkpoint: …")
  size_t max_bytes = kMaxJsonBytes;
  int max_depth = kMaxNesting;
  bool repair_utf8 = false;  // replace invalid UTF-8 by U+FFFD (servers' text) instead of refusing it
};

// The parsed value; throws InputError on anything the checks or the parser refuse.
nlohmann::json parse_json_input(std::string_view text, const JsonSource& source);
nlohmann::json parse_json_input(std::string_view text, const std::string& origin, const std::string& what);

// The same for callers that try several candidates (a model's reply): the value, or why not.
struct JsonParsed {
  std::optional<nlohmann::json> value;
  std::string why_not;  // "LINE:COLUMN: what is wrong" when value is empty
};
JsonParsed try_parse_json_input(std::string_view text, const JsonSource& source);

// The JSON library's message without its "[json.exception.type_error.302] " tag, for an error
// that names the file (a field of a type the reader did not expect).
std::string json_library_message(const std::exception& e);

// Doubles that may be infinite or NaN (a residual nobody computed): JSON has no form for them and
// nlohmann writes null, which a reader then cannot take as a number. json_double writes them as the
// strings "inf", "-inf" and "nan"; read_json_double reads a number or those strings back, and gives
// the fallback for anything else (a missing key, null from an older file, another type).
nlohmann::json json_double(double x);
double read_json_double(const nlohmann::json& object, const char* key, double fallback);

// An integer JSON value (is_number_integer) as an exact coefficient: unsigned values past 2^63 − 1
// keep their value instead of wrapping to a negative long.
Coeff json_integer_coeff(const nlohmann::json& v);

}  // namespace tdisc
