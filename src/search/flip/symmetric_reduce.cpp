// The symmetric reduction (Moosbauer–Poole 2025): two classes whose rotated representatives share two
// factors merge, (A,B,c) + (A,B,c') = (A,B,c+c') in every rotation (and J-image): rank − 3·kImages
// (twice that when c + c' = 0).
#include "src/search/flip/symmetric_walker.hpp"

namespace tdisc::search::flip {

template <class F, int kImages>
void SymmetricWalker<F, kImages>::reduce() {
  auto [p, q] = pending_.back();
  pending_.pop_back();
  const int P = 3 * o_.orbits();
  if (p >= P || q >= P) return;
  const int J = orbit_of(p), L = orbit_of(q), tp = triple_of(p), tq = triple_of(q);
  if (J == L || !(o_.x[p] == o_.x[q])) return;  // stale: a later move undid it
  int shared = 0;                                // the second shared offset
  for (int d = 1; d <= 2 && !shared; ++d)
    if (o_.x[at(p, d)] == o_.x[at(q, d)]) shared = d;
  if (!shared) return;
  const int e = 3 - shared;  // the offset where they may differ
  bool ok = true;
  Vec c = F::add(scale<F>(o_.x[at(p, e)], o_.sign[tp]), scale<F>(o_.x[at(q, e)], o_.sign[tq]), ok);
  if (!ok) return;  // ZT: the merged factor would hold ±2
  if (F::is_zero(c)) {
    restructure({J, L}, {});
    return;
  }
  o_.sign[tp] = static_cast<std::int8_t>(F::normalize(c));
  o_.x[at(p, e)] = c;
  if constexpr (kImages == 2) mirror_triple(tp);
  restructure({L}, {J});
}

#define TDISC_SYMMETRIC_REDUCE(F)                     \
  template void SymmetricWalker<F, 1>::reduce();      \
  template void SymmetricWalker<F, 2>::reduce();
TDISC_FLIP_FIELDS(TDISC_SYMMETRIC_REDUCE)

}  // namespace tdisc::search::flip
