// Recursive-descent JSON reader (see json_lite.hpp). \u escapes outside ASCII are kept as '?': table
// keys are GPU names and plan names, which are ASCII.
#include "json_lite.hpp"

#include <cstdlib>

namespace tdisc_gemm {

const Json* Json::get(const std::string& key) const {
  if (kind != Object) return nullptr;
  auto it = fields.find(key);
  return it == fields.end() ? nullptr : &it->second;
}

namespace {

struct Reader {
  const std::string& s;
  size_t at = 0;
  std::string error;

  void space() {
    while (at < s.size() && (s[at] == ' ' || s[at] == '\n' || s[at] == '\r' || s[at] == '\t')) ++at;
  }
  bool fail(const std::string& what) {
    if (error.empty()) error = "offset " + std::to_string(at) + ": " + what;
    return false;
  }
  bool literal(const char* word, Json& out, Json::Kind kind, double value) {
    const std::string w(word);
    if (s.compare(at, w.size(), w) != 0) return fail("unexpected character");
    at += w.size();
    out.kind = kind;
    out.number = value;
    return true;
  }
  bool string(std::string& out) {
    ++at;  // opening quote
    while (at < s.size() && s[at] != '"') {
      char c = s[at++];
      if (c == '\\') {
        if (at >= s.size()) return fail("unterminated escape");
        const char e = s[at++];
        if (e == 'u') {
          if (at + 4 > s.size()) return fail("short \\u escape");
          const long code = std::strtol(s.substr(at, 4).c_str(), nullptr, 16);
          at += 4;
          c = code < 128 ? static_cast<char>(code) : '?';
        } else {
          c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
        }
      }
      out += c;
    }
    if (at >= s.size()) return fail("unterminated string");
    ++at;
    return true;
  }
  bool number(Json& out) {
    const char* begin = s.c_str() + at;
    char* end = nullptr;
    out.number = std::strtod(begin, &end);
    if (end == begin) return fail("bad number");
    at += static_cast<size_t>(end - begin);
    out.kind = Json::Number;
    return true;
  }
  bool value(Json& out, int depth) {
    if (depth > 64) return fail("nested too deeply");
    space();
    if (at >= s.size()) return fail("unexpected end");
    const char c = s[at];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') {
      out.kind = Json::String;
      return string(out.text);
    }
    if (c == 't') return literal("true", out, Json::Bool, 1);
    if (c == 'f') return literal("false", out, Json::Bool, 0);
    if (c == 'n') return literal("null", out, Json::Null, 0);
    return number(out);
  }
  bool array(Json& out, int depth) {
    out.kind = Json::Array;
    ++at;
    space();
    if (at < s.size() && s[at] == ']') return ++at, true;
    for (;;) {
      out.items.emplace_back();
      if (!value(out.items.back(), depth + 1)) return false;
      space();
      if (at < s.size() && s[at] == ',') ++at;
      else if (at < s.size() && s[at] == ']') return ++at, true;
      else return fail("expected ',' or ']'");
    }
  }
  bool object(Json& out, int depth) {
    out.kind = Json::Object;
    ++at;
    space();
    if (at < s.size() && s[at] == '}') return ++at, true;
    for (;;) {
      space();
      std::string key;
      if (at >= s.size() || s[at] != '"' || !string(key)) return fail("expected a key");
      space();
      if (at >= s.size() || s[at] != ':') return fail("expected ':'");
      ++at;
      if (!value(out.fields[key], depth + 1)) return false;
      space();
      if (at < s.size() && s[at] == ',') ++at;
      else if (at < s.size() && s[at] == '}') return ++at, true;
      else return fail("expected ',' or '}'");
    }
  }
};

}  // namespace

JsonParse parse_json(const std::string& text) {
  JsonParse p;
  Reader r{text, 0, {}};
  if (r.value(p.value, 0)) {
    r.space();
    if (r.at != text.size()) r.fail("trailing characters");
  }
  p.error = r.error;
  return p;
}

}  // namespace tdisc_gemm
