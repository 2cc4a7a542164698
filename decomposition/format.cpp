// Parsing and printing of formats ⟨n,m,p⟩.
#include "decomposition/format.hpp"

#include "base/format_text.hpp"

#include <cctype>
#include <charconv>
#include <vector>

namespace tdisc {

std::string Format::str() const {
  return std::to_string(n) + "x" + std::to_string(m) + "x" + std::to_string(p);
}

std::optional<Format> parse_format(std::string_view s) {
  const auto d = format_dims(s);
  if (!d) return std::nullopt;
  return Format{(*d)[0], (*d)[1], (*d)[2]};
}

}  // namespace tdisc
