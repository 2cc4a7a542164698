// read_known_table: the TSV reader; known_rank: the lookup with sorted dimensions.
#include "src/catalog/best_known.hpp"

#include <sstream>
#include <vector>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/limits.hpp"
#include "src/catalog/catalogue.hpp"

namespace tdisc {

namespace {

std::vector<std::string> tab_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, '\t')) out.push_back(field);
  return out;
}

}  // namespace

KnownTable read_known_table(const std::string& path) {
  const std::string text = read_text_file(path);
  KnownTable t;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = tab_fields(line);
    if (f.size() != 5) throw InputError(path, number, "expected 5 tab-separated fields: format ring rank source date");
    auto format = parse_format(f[0]);
    auto ring = parse_ring(f[1]);
    auto rank = parse_count(f[2], 1L << 30);
    if (!format) throw InputError(path, number, "\"" + f[0] + "\" is not a format");
    if (!ring) throw InputError(path, number, "\"" + f[1] + "\" is not a ring");
    if (!rank || *rank < 1) throw InputError(path, number, "\"" + f[2] + "\" is not a rank");
    KnownRank k{static_cast<int>(*rank), f[3], f[4]};
    auto key = std::make_pair(sorted_format(*format), *ring);
    auto it = t.find(key);
    if (it == t.end() || k.rank < it->second.rank) t[key] = k;
  }
  return t;
}

std::optional<KnownRank> known_rank(const KnownTable& t, const Format& f, Ring r) {
  auto it = t.find({sorted_format(f), r == Ring::QI ? Ring::Q : r});
  if (it == t.end()) return std::nullopt;
  return it->second;
}

}  // namespace tdisc
