// Meta move "product" (Kauers–Wood 2025): the Kronecker product of schemes for ⟨a,b,c⟩ and ⟨d,e,f⟩
// is a scheme for ⟨ad,be,cf⟩ of rank R·R' (decomposition's kronecker).
#include "src/search/flip/meta_moves.hpp"

namespace tdisc::search::flip {

namespace {

// The divisors of d, ascending.
std::vector<int> divisors(int d) {
  std::vector<int> out;
  for (int x = 1; x <= d; ++x)
    if (d % x == 0) out.push_back(x);
  return out;
}

}  // namespace

std::vector<MetaStart> product_starts(Format target, const Shelf& shelf) {
  std::vector<MetaStart> out;
  for (int a : divisors(target.n))
    for (int b : divisors(target.m))
      for (int c : divisors(target.p)) {
        const Format f{a, b, c}, g{target.n / a, target.m / b, target.p / c};
        if (f.classical_rank() == 1 || g.classical_rank() == 1 || g < f) continue;  // trivial, or counted as (g, f)
        if (has_unit_dimension(f) && has_unit_dimension(g)) continue;  // classical ⊗ classical is classical
        auto rf = shelf.rank(f), rg = shelf.rank(g);
        if (!rf || !rg) continue;
        MetaStart s;
        s.move = "product";
        s.rank = *rf * *rg;
        s.describe = "product " + shelf.name(f) + " ⊗ " + shelf.name(g);
        s.build = [&shelf, f, g](Rng&) { return kronecker(*shelf.scheme(f), *shelf.scheme(g)); };
        out.push_back(std::move(s));
      }
  return out;
}

}  // namespace tdisc::search::flip
