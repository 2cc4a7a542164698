// Spelling of a format (see format_text.hpp).
#include "base/format_text.hpp"

#include <cctype>
#include <charconv>
#include <vector>

namespace tdisc {

std::optional<std::array<int, 3>> format_dims(std::string_view s) {
  std::vector<int> dims;
  bool all_digits = !s.empty();
  for (char c : s) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
  if (all_digits && s.size() == 3) {
    for (char c : s) dims.push_back(c - '0');
  } else {
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find_first_of("x,X*", start);
      if (end == std::string_view::npos) end = s.size();
      auto part = s.substr(start, end - start);
      int v = 0;
      auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
      if (ec != std::errc() || ptr != part.data() + part.size()) return std::nullopt;
      dims.push_back(v);
      start = end + 1;
    }
  }
  if (dims.size() == 2) dims.push_back(dims[0]);  // "4x4" means ⟨4,4,4⟩, as in the literature
  if (dims.size() != 3) return std::nullopt;
  for (int d : dims)
    if (d <= 0 || d > 64) return std::nullopt;
  return std::array<int, 3>{dims[0], dims[1], dims[2]};
}

}  // namespace tdisc
