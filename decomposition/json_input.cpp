// The checks of json_input.hpp: one linear scan that tracks strings, depth and number tokens the way
// a JSON lexer does (RFC 8259 §6, §7), then nlohmann's parser, whose own errors are translated.
// The scan runs first because nlohmann accepts integers past 64 bits as lossy doubles, turns
// 1e400 into an out_of_range exception, and leaves deep values to recursive code downstream.
#include "decomposition/json_input.hpp"

#include <cmath>
#include <cstdlib>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/utf8.hpp"

namespace tdisc {

namespace {

constexpr size_t kMaxNumberChars = 400;  // longer than any double needs (17 digits and an exponent)

struct Problem {
  size_t at = std::string_view::npos;  // byte offset; npos when there is none
  std::string what;
};

// "LINE:COLUMN" of byte offset at, both 1-based (found only when reporting an error).
std::string position(std::string_view text, size_t at) {
  size_t line_start = at;
  while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
  return std::to_string(line_of_offset(text, at)) + ":" + std::to_string(at - line_start + 1);
}

bool fits_64_bits(std::string_view integer) {  // "-?[0-9]+": within [-2^63, 2^64 - 1]
  const bool negative = !integer.empty() && integer[0] == '-';
  std::string_view digits = integer.substr(negative ? 1 : 0);
  while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
  const std::string_view bound = negative ? "9223372036854775808" : "18446744073709551615";
  if (digits.size() != bound.size()) return digits.size() < bound.size();
  return digits <= bound;
}

// Why the number token is refused, or "" when it is fine.
std::string number_problem(std::string_view token) {
  if (token.size() > kMaxNumberChars)
    return "a number of " + std::to_string(token.size()) + " characters (at most " + std::to_string(kMaxNumberChars) + ")";
  const bool integer = token.find_first_of(".eE") == std::string_view::npos;
  if (integer) {
    if (token.find_first_not_of("-0123456789") != std::string_view::npos || token == "-") return "";  // the parser says why
    return fits_64_bits(token) ? "" : "the integer " + excerpt(token) + " does not fit 64 bits";
  }
  const std::string copy(token);
  char* end = nullptr;
  const double x = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() + copy.size() && !std::isfinite(x)) return "the number " + excerpt(token) + " does not fit a double";
  return "";
}

bool number_char(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// The first problem of text outside the parser's own errors: depth or a number that does not fit.
Problem scan(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return {i, "nested deeper than " + std::to_string(max_depth) + " levels"};
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = i;
      while (end < text.size() && number_char(text[end])) ++end;
      if (std::string why = number_problem(text.substr(i, end - i)); !why.empty()) return {i, why};
      i = end - 1;
    }
  }
  return {};
}

Problem check(std::string_view text, const JsonSource& source) {
  if (!source.repair_utf8)
    if (size_t bad = utf8_invalid_at(text); bad != std::string_view::npos) return {bad, "invalid UTF-8"};
  return scan(text, source.max_depth);
}

JsonParsed parse_checked(std::string_view text, const JsonSource& source) {
  if (Problem p = check(text, source); p.at != std::string_view::npos) return {std::nullopt, position(text, p.at) + ": " + p.what};
  try {
    return {nlohmann::json::parse(text.begin(), text.end()), ""};
  } catch (const nlohmann::json::parse_error& e) {
    const size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error …"
    if (size_t s = what.find("syntax error"); s != std::string::npos) what = what.substr(s);
    else what = json_library_message(e);
    return {std::nullopt, position(text, std::min(at, text.size())) + ": invalid JSON (truncated?): " + what};
  } catch (const nlohmann::json::exception& e) {
    return {std::nullopt, "1:1: invalid JSON: " + json_library_message(e)};
  }
}

}  // namespace

JsonParsed try_parse_json_input(std::string_view text, const JsonSource& source) {
  if (text.size() > source.max_bytes)
    return {std::nullopt, "1:1: " + std::to_string(text.size()) + " bytes, more than the limit of " +
                              std::to_string(source.max_bytes) + " for this kind of input (docs/reliability.md)"};
  if (source.repair_utf8 && utf8_invalid_at(text) != std::string_view::npos) {
    const std::string repaired = utf8_repaired(text);
    return parse_checked(repaired, source);
  }
  return parse_checked(text, source);
}

nlohmann::json parse_json_input(std::string_view text, const JsonSource& source) {
  JsonParsed p = try_parse_json_input(text, source);
  if (p.value) return std::move(*p.value);
  // why_not is "LINE:COLUMN: what": the line goes into the location, the column into the message.
  const size_t colon = p.why_not.find(':'), second = p.why_not.find(':', colon + 1);
  const int line = std::atoi(p.why_not.substr(0, colon).c_str());
  const std::string column = p.why_not.substr(colon + 1, second - colon - 1);
  throw InputError(source.origin, line, "not " + source.what + " (column " + column + "): " + p.why_not.substr(second + 2));
}

std::string json_library_message(const std::exception& e) {
  std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0)
    if (size_t close = what.find("] "); close != std::string::npos) return what.substr(close + 2);
  return what;
}

nlohmann::json json_double(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double read_json_double(const nlohmann::json& object, const char* key, double fallback) {
  if (!object.is_object() || !object.contains(key)) return fallback;
  const nlohmann::json& v = object[key];
  if (v.is_number()) return v.get<double>();
  if (v == "inf") return HUGE_VAL;
  if (v == "-inf") return -HUGE_VAL;
  if (v == "nan") return std::nan("");
  return fallback;
}

Coeff json_integer_coeff(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const unsigned long long u = v.get<unsigned long long>();
    return Coeff(mpq_class(mpz_class(std::to_string(u))));
  }
  return Coeff(static_cast<long>(v.get<long long>()));
}

nlohmann::json parse_json_input(std::string_view text, const std::string& origin, const std::string& what) {
  return parse_json_input(text, JsonSource{origin, what});
}

}  // namespace tdisc
