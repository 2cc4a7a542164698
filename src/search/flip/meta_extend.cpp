// Meta move "extend" (Kauers–Wood 2025): a scheme for ⟨n−1,m,p⟩ plus the m·p classical products of
// the new row of A gives ⟨n,m,p⟩ (likewise along m and p); it is the join with the classical ⟨1,m,p⟩.
#include "src/search/flip/meta_moves.hpp"

namespace tdisc::search::flip {

std::vector<MetaStart> extend_starts(Format target, const Shelf& shelf) {
  std::vector<MetaStart> out;
  for (Axis axis : {Axis::N, Axis::M, Axis::P}) {
    Format from = target, slice = target;
    if (--meta_dimension(from, axis) < 2) continue;  // from ⟨1,m,p⟩ the result is the classical scheme
    meta_dimension(slice, axis) = 1;
    auto r = shelf.rank(from);
    if (!r) continue;
    MetaStart s;
    s.move = "extend";
    s.rank = *r + static_cast<int>(slice.classical_rank());
    s.describe = "extend " + shelf.name(from) + " along " + meta_axis_name(axis) + " (+" +
                 std::to_string(slice.classical_rank()) + " classical products)";
    s.build = [&shelf, from, slice, axis](Rng&) { return join(*shelf.scheme(from), classical_scheme(slice), axis); };
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tdisc::search::flip
