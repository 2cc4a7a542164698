// The meta walk's shelf: the catalogue's best scheme per format usable over the walk's ring (the
// neighbours of Kauers–Wood 2025's meta flip graph start from known schemes, not from scratch).
#include "src/search/flip/meta_shelf.hpp"

#include <algorithm>
#include <array>

#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"

namespace tdisc::search::flip {

std::vector<Format> permutations_of(Format f) {
  std::array<int, 3> d{f.n, f.m, f.p};
  std::sort(d.begin(), d.end());
  std::vector<Format> out;
  do out.push_back({d[0], d[1], d[2]});
  while (std::next_permutation(d.begin(), d.end()));
  return out;
}

Shelf::Shelf(std::vector<CatalogueEntry> entries, Ring usable, Format target)
    : all_(std::move(entries)), usable_(usable), target_(sorted_format(target)) {
  for (const auto& e : all_) {
    const Format f = sorted_format(e.format);
    if (f == target_ || best_.count(f)) continue;
    if (auto b = best(all_, {f, true, usable_})) best_[f] = *b;
  }
}

std::optional<CatalogueEntry> Shelf::entry(Format f) const {
  auto it = best_.find(sorted_format(f));
  if (it == best_.end()) return std::nullopt;
  return it->second;
}

bool has_unit_dimension(Format f) { return f.n == 1 || f.m == 1 || f.p == 1; }

std::optional<Scheme> Shelf::scheme(Format f) const {
  if (f.n < 1 || f.m < 1 || f.p < 1 || sorted_format(f) == target_) return std::nullopt;
  if (has_unit_dimension(f)) return classical_scheme(f);
  auto e = entry(f);
  if (!e) return std::nullopt;
  Scheme s = read_native(e->path);
  if (s.provenance.source.empty()) s.provenance.source = e->path;
  return s.format == f ? s : permute_to(s, f);
}

std::optional<int> Shelf::rank(Format f) const {
  if (f.n < 1 || f.m < 1 || f.p < 1 || sorted_format(f) == target_) return std::nullopt;
  if (has_unit_dimension(f)) return static_cast<int>(f.classical_rank());
  auto e = entry(f);
  if (!e) return std::nullopt;
  return e->rank;
}

std::string Shelf::name(Format f) const {
  auto r = rank(f);
  std::string head = f.str() + ":" + (r ? std::to_string(*r) : std::string("?"));
  if (has_unit_dimension(f)) return head + " (classical)";
  auto e = entry(f);
  return head + (e ? " (" + e->relative + ")" : std::string());
}

std::vector<Format> Shelf::formats() const {
  std::vector<Format> out;
  for (const auto& [f, e] : best_) out.push_back(f);
  return out;
}

}  // namespace tdisc::search::flip
