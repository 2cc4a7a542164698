// The symmetric flip (Moosbauer–Poole 2025): two orbits whose representatives, suitably rotated, share
// a factor A trade a summand, (A,p1,p2) + (A,q1,q2) = (A, p1 + t·q1, p2) + (A, q1, q2 − t·p2), in all
// rotations, and under the 6-fold symmetry also on the two J-image orbits.
#include "src/search/flip/symmetric_walker.hpp"

#include <type_traits>

namespace tdisc::search::flip {

// Rejection from a uniform pair: a factor held at m positions is drawn with probability ∝ C(m,2)
// as a uniform pair, so keeping it with probability 1/C(m,2) makes every shared factor equally likely.
template <class F, int kImages>
bool SymmetricWalker<F, kImages>::accept_by_factor(std::uint32_t code, std::uint64_t r) const {
  const long m = holders_[PositionPairs::lo_of(code)];
  return m <= 2 || static_cast<long>((r >> 8) & 0xFFFFFF) * m * (m - 1) < 2L * 0x1000000;
}

template <class F, int kImages>
bool SymmetricWalker<F, kImages>::flip() {
  const size_t np = pairs_.size();
  if (np == 0) {
    this->no_flip();
    return false;
  }
  std::uint64_t r;
  std::uint32_t code;
  do {
    r = rng_.next();
    code = random_pair(pairs_, r);
  } while (params_.pick_by_factor && !accept_by_factor(code, r));
  int p = PositionPairs::lo_of(code), q = PositionPairs::hi_of(code);
  if (r & 1) std::swap(p, q);
  const int kb = (r & 2) ? 2 : 1, kc = 3 - kb;  // P gains in slot kb, Q loses in slot kc
  const int J = orbit_of(p), L = orbit_of(q), tp = triple_of(p), tq = triple_of(q);
  const int pb = at(p, kb), qb = at(q, kb), pc = at(p, kc), qc = at(q, kc);
  const int sp = o_.sign[tp], sq = o_.sign[tq];
  // P = sp·A⊗x[pb]⊗x[pc], Q = sq·A⊗x[qb]⊗x[qc]: x[pb] += t·x[qb], x[qc] −= t·sp·sq·x[pc].
  int t = (F::has_signs && (r & 4)) ? -1 : 1;
  bool ok_b = true, ok_c = true;
  Vec nb, nc;
  for (int attempt = 0; attempt < (F::has_signs ? 2 : 1); ++attempt, t = -t) {
    nb = F::add(o_.x[pb], scale<F>(o_.x[qb], t), ok_b);
    nc = F::add(o_.x[qc], scale<F>(o_.x[pc], -t * sp * sq), ok_c);
    if (ok_b && ok_c) break;
  }
  if (!ok_b || !ok_c) {  // ZT: both signs leave {-1,0,1}
    this->flip_failed(np);
    return false;
  }
  this->flipped();
  const bool zero_b = F::is_zero(nb), zero_c = F::is_zero(nc);
  if (!zero_b) o_.sign[tp] = static_cast<std::int8_t>(sp * F::normalize(nb));
  if (!zero_c) o_.sign[tq] = static_cast<std::int8_t>(sq * F::normalize(nc));
  auto degenerate = [&](int position, Vec v) {  // would the orbit become (a,a,a)?
    return F::characteristic != 0 && v == o_.x[at(position, 1)] && v == o_.x[at(position, 2)];
  };
  if (zero_b || zero_c || degenerate(pb, nb) || degenerate(qc, nc)) {
    std::vector<int> dead;
    if (zero_b) dead.push_back(J);
    else o_.x[pb] = nb;
    if (zero_c) dead.push_back(L);
    else o_.x[qc] = nc;
    if constexpr (kImages == 2) {
      if (!zero_b) mirror_triple(tp);
      if (!zero_c) mirror_triple(tq);
    }
    restructure(dead, {J, L});
    return true;
  }
  set_factor(pb, nb);
  set_factor(qc, nc);
  if constexpr (kImages == 2) {  // the same flip on the J-images: J is linear
    mirror_factor(pb);
    mirror_factor(qc);
    if (cancels(J) || cancels(L)) restructure({}, {J, L});
  }
  return true;
}

#define TDISC_SYMMETRIC_FLIP(F)                        \
  template bool SymmetricWalker<F, 1>::flip();         \
  template bool SymmetricWalker<F, 2>::flip();
TDISC_FLIP_FIELDS(TDISC_SYMMETRIC_FLIP)

}  // namespace tdisc::search::flip
