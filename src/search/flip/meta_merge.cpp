// Meta move "merge" (Kauers–Wood 2025): two schemes that agree on two dimensions give a scheme for
// their direct sum along the third, ⟨n1,m,p;R1⟩ ⊕ ⟨n2,m,p;R2⟩ = ⟨n1+n2,m,p;R1+R2⟩ (join).
#include "src/search/flip/meta_moves.hpp"

namespace tdisc::search::flip {

std::vector<MetaStart> merge_starts(Format target, const Shelf& shelf) {
  std::vector<MetaStart> out;
  for (Axis axis : {Axis::N, Axis::M, Axis::P}) {
    const int d = meta_dimension(target, axis);
    for (int first = 2; first + 2 <= d && first <= d - first; ++first) {  // parts of 1 are "extend"
      Format a = target, b = target;
      meta_dimension(a, axis) = first;
      meta_dimension(b, axis) = d - first;
      auto ra = shelf.rank(a), rb = shelf.rank(b);
      if (!ra || !rb) continue;
      MetaStart s;
      s.move = "merge";
      s.rank = *ra + *rb;
      s.describe = "merge " + shelf.name(a) + " and " + shelf.name(b) + " along " + meta_axis_name(axis);
      s.build = [&shelf, a, b, axis](Rng&) { return join(*shelf.scheme(a), *shelf.scheme(b), axis); };
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace tdisc::search::flip
