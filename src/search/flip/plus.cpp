// The plus transition (Arai–Ichikawa–Hukushima 2024): rank + 1 to leave a plateau,
// A⊗b⊗c + A'⊗b'⊗c' = (A−A')⊗b⊗c + A'⊗(b−b')⊗c + A'⊗b'⊗(c+c').
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

template <class F>
void Walker<F>::plus_transition() {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  this->plus_started();
  const int R = rank();
  if (R < 2 || R + 17 >= PairIndex::kMaxTerms) return;
  for (int attempt = 0; attempt < 64; ++attempt) {
    int i = static_cast<int>(rng_.below(R)), j = static_cast<int>(rng_.below(R - 1));
    if (j >= i) ++j;
    const int* p = kPerm[rng_.below(6)];
    const int ka = p[0], kb = p[1], kc = p[2];
    Vec Ai = scale<F>(t_.f[ka][i], t_.sign[i]), Aj = scale<F>(t_.f[ka][j], t_.sign[j]);
    bool ok1, ok2, ok3;
    Vec a1 = F::add(Ai, F::neg(Aj), ok1);
    Vec b2 = F::add(t_.f[kb][i], F::neg(t_.f[kb][j]), ok2);
    Vec c3 = F::add(t_.f[kc][i], t_.f[kc][j], ok3);
    if (!ok1 || !ok2 || !ok3 || F::is_zero(a1) || F::is_zero(b2) || F::is_zero(c3)) continue;
    // new terms: i := (A−A', b, c), j := (A', b−b', c), R := (A', b', c+c'), each normalised.
    const Vec bj = t_.f[kb][j], ci = t_.f[kc][i];
    const bool in_place = R < cap_;  // the index has room for term R: update it term by term
    if (in_place) detach(i), detach(j);
    int s = F::normalize(a1);
    t_.f[ka][i] = a1;
    t_.sign[i] = static_cast<std::int8_t>(s);
    Vec aj = Aj;
    int sa = F::normalize(aj);
    int sb = F::normalize(b2);
    t_.f[ka][j] = aj;
    t_.f[kb][j] = b2;
    t_.f[kc][j] = ci;
    t_.sign[j] = static_cast<std::int8_t>(sa * sb);
    int sc = F::normalize(c3);
    t_.f[ka].push_back(aj);
    t_.f[kb].push_back(bj);
    t_.f[kc].push_back(c3);
    t_.sign.push_back(static_cast<std::int8_t>(sa * sc));
    if (in_place) {
      attach(i), attach(j), attach(R);
      this->indexed(pairs_.size() == 0);
    } else {
      rebuild();
    }
    this->plussed();
    return;
  }
}

#define TDISC_PLUS(F) template void Walker<F>::plus_transition();
TDISC_FLIP_FIELDS(TDISC_PLUS)

}  // namespace tdisc::search::flip
