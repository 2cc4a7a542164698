// File-name hints (dimensions, rank, ring) and the names of matrix entries in text formats.
#include "decomposition/formats/hints.hpp"

#include <regex>

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
  if (std::regex_search(name, m, std::regex(R"((\d+)x(\d+)x(\d+)(?:_m(\d+))?)"))) {
    h.dims = Format{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
    if (m[4].matched) h.rank = std::stoi(m[4]);
  } else if (std::regex_search(name, m, std::regex(R"((?:^|[^0-9])([1-9])([1-9])([1-9])-(?:rank)?(\d+)(?:[^0-9]|$))"))) {
    // "444-47-mod2", "grey333-23-152", "gg-333-rank23-rec"
    h.dims = Format{m[1].str()[0] - '0', m[2].str()[0] - '0', m[3].str()[0] - '0'};
    h.rank = std::stoi(m[4]);
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
