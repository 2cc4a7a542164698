// Meta move "project" (Kauers–Wood 2025): setting rows, inner indices or columns of a larger scheme
// to zero gives a scheme for the smaller format; terms that vanish are dropped (restrict_scheme).
#include <algorithm>
#include <numeric>

#include "src/search/flip/meta_moves.hpp"

namespace tdisc::search::flip {

namespace {

// `keep` of the indices 0..d−1, drawn uniformly, in ascending order.
std::vector<int> random_subset(int d, int keep, Rng& rng) {
  std::vector<int> all(d);
  std::iota(all.begin(), all.end(), 0);
  for (int k = 0; k < keep; ++k) std::swap(all[k], all[k + rng.below(static_cast<std::uint32_t>(d - k))]);
  all.resize(keep);
  std::sort(all.begin(), all.end());
  return all;
}

Scheme project_randomly(const Scheme& big, Format target, Rng& rng) {
  const Format& f = big.format;
  return restrict_scheme(big, random_subset(f.n, target.n, rng), random_subset(f.m, target.m, rng),
                         random_subset(f.p, target.p, rng));
}

}  // namespace

std::vector<MetaStart> project_starts(Format target, const Shelf& shelf, int depth) {
  std::vector<MetaStart> out;
  for (const Format& sorted : shelf.formats())
    for (const Format& from : permutations_of(sorted)) {
      const int extra = (from.n - target.n) + (from.m - target.m) + (from.p - target.p);
      if (from.n < target.n || from.m < target.m || from.p < target.p || extra == 0 || extra > depth) continue;
      MetaStart s;
      s.move = "project";
      s.build = [&shelf, from, target](Rng& rng) { return project_randomly(*shelf.scheme(from), target, rng); };
      Rng probe(0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(from.n * 100 + from.m * 10 + from.p));
      s.rank = s.build(probe).rank();  // one draw; others may keep more or fewer terms
      s.describe = "project " + shelf.name(from) + " to " + target.str() + " (drop " + std::to_string(extra) +
                   " ind" + (extra == 1 ? "ex" : "ices") + ", vanished terms removed)";
      out.push_back(std::move(s));
    }
  return out;
}

}  // namespace tdisc::search::flip
