// A small JSON reader for the plan tables (objects, arrays, strings, numbers, true/false/null): the
// library depends on CUDA alone, so it cannot use nlohmann_json as the tdisc binary does.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace tdisc_gemm {

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  double number = 0;
  std::string text;
  std::vector<Json> items;                 // Array
  std::map<std::string, Json> fields;      // Object
  const Json* get(const std::string& key) const;  // nullptr when absent or not an object
};

struct JsonParse {
  Json value;
  std::string error;  // empty when ok: "offset N: what is wrong"
};
JsonParse parse_json(const std::string& text);

}  // namespace tdisc_gemm
