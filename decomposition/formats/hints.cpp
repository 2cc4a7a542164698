// File-name hints (dimensions, rank, ring) and the names of matrix entries in text formats.
#include "decomposition/formats/hints.hpp"

#include <regex>

#include "base/limits.hpp"

namespace tdisc::fmt {

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

NameHints name_hints(const std::string& path) {
  NameHints h;
  std::string name = base_name(path);
  std::smatch m;
  // "2x4x5_m33", "2x2x2_tensor"
  // Numbers out of range (1..64 for a dimension) make no hint rather than an exception.
  auto count = [](const std::ssub_match& d, long max) { return parse_count(std::string_view(&*d.first, d.length()), max); };
  if (std::regex_search(name, m, std::regex(R"((\d+)x(\d+)x(\d+)(?:_m(\d+))?)"))) {
    auto n = count(m[1], 64), mm = count(m[2], 64), p = count(m[3], 64);
    if (n && mm && p && *n > 0 && *mm > 0 && *p > 0) h.dims = Format{static_cast<int>(*n), static_cast<int>(*mm), static_cast<int>(*p)};
    if (m[4].matched)
      if (auto r = count(m[4], 1 << 20)) h.rank = static_cast<int>(*r);
  } else if (std::regex_search(name, m, std::regex(R"((?:^|[^0-9])([1-9])([1-9])([1-9])-(?:rank)?(\d+)(?:[^0-9]|$))"))) {
    // "444-47-mod2", "grey333-23-152", "gg-333-rank23-rec"
    h.dims = Format{m[1].str()[0] - '0', m[2].str()[0] - '0', m[3].str()[0] - '0'};
    if (auto r = count(m[4], 1 << 20)) h.rank = static_cast<int>(*r);
  }
  h.mod2 = std::regex_search(name, std::regex(R"((^|[-_.])(mod2|f2|gf2|z2|GF2|F2)([-_.]|$))"));
  return h;
}

std::optional<Format> chosen_dims(const NameHints& h, const ImportOptions& opt) {
  if (opt.dims) return opt.dims;
  return h.dims;
}

std::string entry_name(char letter, int row, int col, bool wide) {
  std::string s(1, letter);
  s += std::to_string(row + 1);
  if (wide) s += "_";
  s += std::to_string(col + 1);
  return s;
}

}  // namespace tdisc::fmt
