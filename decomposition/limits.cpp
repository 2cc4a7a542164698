// The reader limits of limits.hpp, and JSON parsing that refuses deep nesting before it recurses.
#include "decomposition/limits.hpp"

#include <nlohmann/json.hpp>

#include "decomposition/coeff.hpp"
#include "decomposition/error.hpp"
#include "decomposition/io.hpp"

namespace tdisc {

void check_scheme_size(const std::string& path, int line, const Format& f, long rank) {
  if (f.n < 1 || f.m < 1 || f.p < 1) throw InputError(path, line, "dimensions must be at least 1, not " + f.str());
  if (rank < 0) throw InputError(path, line, "the rank cannot be negative (" + std::to_string(rank) + ")");
  const long per_term = static_cast<long>(f.n) * f.m + static_cast<long>(f.m) * f.p + static_cast<long>(f.p) * f.n;
  if (per_term > kMaxCoefficients || rank > kMaxCoefficients / per_term)
    throw InputError(path, line, "a scheme of format " + f.str() + " and rank " + std::to_string(rank) +
                                     " would hold more than " + std::to_string(kMaxCoefficients) +
                                     " coefficients; refused (damaged file?)");
}

bool coefficient_text_fits(const Coeff& c) {
  auto digits = [](const mpq_class& q) {
    return mpz_sizeinbase(q.get_num_mpz_t(), 10) + mpz_sizeinbase(q.get_den_mpz_t(), 10) + 2;
  };
  return digits(c.re()) + digits(c.im()) + 2 <= kMaxCoefficientChars;
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
  return std::string(text.substr(0, 57)) + "…";
}

nlohmann::json parse_json_bounded(const std::string& text, const std::string& path, const std::string& what) {
  struct TooDeep {};
  auto depth_guard = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxNesting) throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, depth_guard);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, line_of_offset(text, e.byte > 0 ? e.byte - 1 : 0),
                     "not " + what + " (invalid JSON, truncated?): " + e.what());
  } catch (const TooDeep&) {
    throw InputError(path, 0, "not " + what + ": JSON nested deeper than " + std::to_string(kMaxNesting) + " levels");
  }
}

std::string json_excerpt(const nlohmann::json& v) {
  if (v.is_array()) return "an array of " + std::to_string(v.size());
  if (v.is_object()) return "an object";
  return excerpt(v.dump());
}

}  // namespace tdisc
