// What every reader of a JSON file of ours shares (the native scheme file, the ansatz file): the
// text and its path, a failure at a line, the line of a key, and a string field checked by type,
// so each reader's messages come out as FILE:LINE: what is wrong.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "base/error.hpp"
#include "base/io.hpp"

namespace tdisc {

struct JsonTextReader {
  const std::string& text;
  const std::string& path;

  [[noreturn]] void fail(int line, const std::string& what) const { throw InputError(path, line, what); }

  int key_line(const char* key) const {
    size_t at = text.find(std::string("\"") + key + "\"");
    return at == std::string::npos ? 0 : line_of_offset(text, at);
  }

  // A text field, or `fallback` when absent; any other type is refused (json::value would throw
  // nlohmann's type_error, a library message instead of FILE:LINE).
  std::string text_field(const nlohmann::json& j, const char* key, const std::string& fallback = "") const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_string()) fail(key_line(key), std::string("field \"") + key + "\" must be a string");
    return j[key].get<std::string>();
  }
};

}  // namespace tdisc
