// The symmetric plus transition (Moosbauer–Poole 2025 after Arai–Ichikawa–Hukushima 2024): rotated
// representatives P, Q of two classes become three, A⊗b⊗c + A'⊗b'⊗c' = (A−A')⊗b⊗c + A'⊗(b−b')⊗c + A'⊗b'⊗(c+c'),
// in every rotation (and J-image: the new class is R with J(R)).
#include "src/search/flip/symmetric_walker.hpp"

#include <array>
#include <optional>
#include <type_traits>

namespace tdisc::search::flip {

template <class F, int kImages>
void SymmetricWalker<F, kImages>::plus_transition() {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  this->plus_started();
  const int K = o_.orbits() / kImages;  // classes
  if (K < 2 || 3 * kImages * (K + 1) >= 32000) return;
  using Term = std::array<Vec, 3>;
  auto degenerate = [](const Term& t) { return F::characteristic != 0 && t[0] == t[1] && t[1] == t[2]; };
  for (int attempt = 0; attempt < 64; ++attempt) {
    const int J = static_cast<int>(rng_.below(K));
    int L = static_cast<int>(rng_.below(K - 1));
    if (L >= J) ++L;
    int tJ = J, tL = L;  // the orbit of each class the transition works on (z3: draws nothing, as before s3)
    if constexpr (kImages == 2) tJ = 2 * J + static_cast<int>(rng_.below(2)), tL = 2 * L + static_cast<int>(rng_.below(2));
    const int a = static_cast<int>(rng_.below(3)), b = static_cast<int>(rng_.below(3));
    const int* perm = kPerm[rng_.below(6)];
    const int ka = perm[0], kb = perm[1], kc = perm[2];
    Term P, Q;
    for (int k = 0; k < 3; ++k) P[k] = o_.x[3 * tJ + (a + k) % 3], Q[k] = o_.x[3 * tL + (b + k) % 3];
    const Vec Ap = scale<F>(P[ka], o_.sign[tJ]), Aq = scale<F>(Q[ka], o_.sign[tL]);
    bool ok1, ok2, ok3;
    Vec a1 = F::add(Ap, F::neg(Aq), ok1);
    Vec b2 = F::add(P[kb], F::neg(Q[kb]), ok2);
    Vec c3 = F::add(P[kc], Q[kc], ok3);
    if (!ok1 || !ok2 || !ok3 || F::is_zero(a1) || F::is_zero(b2) || F::is_zero(c3)) continue;
    // P' = (A−A', b, c), Q' = (A', b−b', c), R = (A', b', c+c'), each normalised.
    Term P2 = P, Q2 = Q, R;
    const int s1 = F::normalize(a1);
    P2[ka] = a1;
    Vec aq = Aq;
    const int sa = F::normalize(aq), sb = F::normalize(b2), sc = F::normalize(c3);
    Q2[ka] = aq, Q2[kb] = b2, Q2[kc] = P[kc];
    R[ka] = aq, R[kb] = Q[kb], R[kc] = c3;
    if (degenerate(P2) || degenerate(Q2) || degenerate(R)) continue;
    std::optional<OrbitTerms<F>> before;  // kImages 2: to undo a transition whose mirror cancels
    if constexpr (kImages == 2) before = o_;
    for (int k = 0; k < 3; ++k) {
      o_.x[3 * tJ + (a + k) % 3] = P2[k];
      o_.x[3 * tL + (b + k) % 3] = Q2[k];
    }
    o_.sign[tJ] = static_cast<std::int8_t>(s1);
    o_.sign[tL] = static_cast<std::int8_t>(sa * sb);
    for (int i = 0; i < kImages; ++i) {
      for (int k = 0; k < 3; ++k) o_.x.push_back(R[k]);
      o_.sign.push_back(static_cast<std::int8_t>(sa * sc));
    }
    if constexpr (kImages == 2) {
      mirror_triple(tJ), mirror_triple(tL), mirror_triple(o_.orbits() - 2);
      if (cancels(J) || cancels(L) || cancels(K)) {  // a cancelling class would lose the new terms at once
        o_ = std::move(*before);
        continue;
      }
    }
    rebuild();
    this->plussed();
    return;
  }
}

#define TDISC_SYMMETRIC_PLUS(F)                                 \
  template void SymmetricWalker<F, 1>::plus_transition();       \
  template void SymmetricWalker<F, 2>::plus_transition();
TDISC_FLIP_FIELDS(TDISC_SYMMETRIC_PLUS)

}  // namespace tdisc::search::flip
