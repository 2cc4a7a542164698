// The reader limits of limits.hpp.
#include "base/limits.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "base/utf8.hpp"

namespace tdisc {

size_t input_ceiling(InputKind kind) {
  static const long override_mb = [] {
    const char* v = std::getenv("TDISC_MAX_INPUT_MB");
    return v ? parse_count(v, 1L << 20).value_or(0) : 0L;
  }();
  if (override_mb > 0) return static_cast<size_t>(override_mb) << 20;
  switch (kind) {
    case InputKind::params: return size_t{1} << 20;
    case InputKind::server_reply: return size_t{16} << 20;
    case InputKind::scheme_file:
    case InputKind::gzip_member:
    case InputKind::run_file:
    case InputKind::results: break;
  }
  return size_t{64} << 20;
}

std::optional<long> parse_count(std::string_view digits, long max) {
  if (digits.empty()) return std::nullopt;
  long v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > max) return std::nullopt;
  }
  return v;
}

std::string excerpt(std::string_view text) {
  if (text.size() <= 60) return std::string(text);
  return std::string(utf8_prefix(text, 57)) + "…";
}

std::string json_excerpt(const nlohmann::json& v) {
  if (v.is_array()) return "an array of " + std::to_string(v.size());
  if (v.is_object()) return "an object";
  return excerpt(v.dump());
}

}  // namespace tdisc
