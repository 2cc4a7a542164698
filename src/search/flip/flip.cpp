// The flip (Kauers–Moosbauer 2022): two terms sharing a factor a trade a summand,
// a⊗b⊗c + a⊗b'⊗c' = a⊗(b+t·b')⊗c + a⊗b'⊗(c' − t·c); over GF2 two XORs. A zeroed factor drops its term.
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

template <class F>
bool Walker<F>::flip() {
  const size_t np = pairs_.size();
  if (np == 0) {
    this->no_flip();
    return false;
  }
  const std::uint64_t x = rng_.next();
  const std::uint32_t code = random_pair(pairs_, x);
  const int shared = PairIndex::kind_of(code);
  int i = PairIndex::lo_of(code), j = PairIndex::hi_of(code);
  if (x & 1) std::swap(i, j);
  int kb = shared == 0 ? 1 : 0, kc = 3 - shared - kb;
  if (x & 2) std::swap(kb, kc);
  // term i = s_i·a⊗b_i⊗c_i, term j = s_j·a⊗b_j⊗c_j: b_i += t·b_j, c_j −= s_i·s_j·t·c_i.
  int t = (F::has_signs && (x & 4)) ? -1 : 1;
  bool ok_b = true, ok_c = true;
  Vec nb, nc;
  for (int attempt = 0; attempt < (F::has_signs ? 2 : 1); ++attempt, t = -t) {
    nb = F::add(t_.f[kb][i], scale<F>(t_.f[kb][j], t), ok_b);
    nc = F::add(t_.f[kc][j], scale<F>(t_.f[kc][i], -t * t_.sign[i] * t_.sign[j]), ok_c);
    if (ok_b && ok_c) break;
  }
  if (!ok_b || !ok_c) {  // ZT: both signs leave {-1,0,1}
    this->flip_failed(np);
    return false;
  }
  this->flipped();
  if (F::is_zero(nb) || F::is_zero(nc)) {
    if (params_.undo_dead_ends) keep_for_undo(-1, -1);
    std::vector<int> dead;
    if (F::is_zero(nb)) dead.push_back(i);
    else t_.sign[i] = static_cast<std::int8_t>(t_.sign[i] * F::normalize(nb)), set_factor(kb, i, nb);
    if (F::is_zero(nc)) dead.push_back(j);
    else t_.sign[j] = static_cast<std::int8_t>(t_.sign[j] * F::normalize(nc)), set_factor(kc, j, nc);
    remove_terms(dead);
    return true;
  }
  t_.sign[i] = static_cast<std::int8_t>(t_.sign[i] * F::normalize(nb));
  t_.sign[j] = static_cast<std::int8_t>(t_.sign[j] * F::normalize(nc));
  set_factor(kb, i, nb);
  set_factor(kc, j, nc);
  return true;
}

#define TDISC_FLIP(F) template bool Walker<F>::flip();
TDISC_FLIP_FIELDS(TDISC_FLIP)

}  // namespace tdisc::search::flip
