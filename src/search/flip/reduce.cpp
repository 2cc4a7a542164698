// Reduction (Kauers–Moosbauer 2022): two terms that share two factors merge into one,
// a⊗b⊗c + a⊗b⊗c' = a⊗b⊗(c+c'), lowering the rank by one (by two when c + c' = 0).
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

template <class F>
void Walker<F>::reduce() {
  auto [a, b] = pending_.back();
  pending_.pop_back();
  if (a >= rank() || b >= rank() || a == b) return;
  int differing = 2, shared = 0;
  for (int k = 0; k < 3; ++k) {
    if (t_.f[k][a] == t_.f[k][b]) ++shared;
    else differing = k;
  }
  if (shared < 2) return;  // stale: a later change undid it
  bool ok = true;
  Vec c = F::add(scale<F>(t_.f[differing][a], t_.sign[a]), scale<F>(t_.f[differing][b], t_.sign[b]), ok);
  if (!ok) return;  // ZT: the merged factor would hold ±2
  if (params_.undo_dead_ends) keep_for_undo(a, b);
  if (F::is_zero(c)) {
    remove_terms({a, b});
    return;
  }
  t_.sign[a] = static_cast<std::int8_t>(F::normalize(c));
  set_factor(differing, a, c);
  remove_terms({b});
}

#define TDISC_REDUCE(F) template void Walker<F>::reduce();
TDISC_FLIP_FIELDS(TDISC_REDUCE)

}  // namespace tdisc::search::flip
