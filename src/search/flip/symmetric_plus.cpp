// The symmetric plus transition (Moosbauer–Poole 2025 after Arai–Ichikawa–Hukushima 2024): rotated
// representatives P, Q of two orbits become three, A⊗b⊗c + A'⊗b'⊗c' = (A−A')⊗b⊗c + A'⊗(b−b')⊗c + A'⊗b'⊗(c+c').
#include "src/search/flip/symmetric_walker.hpp"

#include <array>
#include <type_traits>

namespace tdisc::search::flip {

template <class F>
void SymmetricWalker<F>::plus_transition() {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  this->plus_started();
  const int K = o_.orbits();
  if (K < 2 || 3 * K + 3 >= 32000) return;
  using Term = std::array<Vec, 3>;
  auto degenerate = [](const Term& t) { return !std::is_same_v<F, ZT> && t[0] == t[1] && t[1] == t[2]; };
  for (int attempt = 0; attempt < 64; ++attempt) {
    const int J = static_cast<int>(rng_.below(K));
    int L = static_cast<int>(rng_.below(K - 1));
    if (L >= J) ++L;
    const int a = static_cast<int>(rng_.below(3)), b = static_cast<int>(rng_.below(3));
    const int* perm = kPerm[rng_.below(6)];
    const int ka = perm[0], kb = perm[1], kc = perm[2];
    Term P, Q;
    for (int k = 0; k < 3; ++k) P[k] = o_.x[3 * J + (a + k) % 3], Q[k] = o_.x[3 * L + (b + k) % 3];
    const Vec Ap = scale<F>(P[ka], o_.sign[J]), Aq = scale<F>(Q[ka], o_.sign[L]);
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
    for (int k = 0; k < 3; ++k) {
      o_.x[3 * J + (a + k) % 3] = P2[k];
      o_.x[3 * L + (b + k) % 3] = Q2[k];
    }
    o_.sign[J] = static_cast<std::int8_t>(s1);
    o_.sign[L] = static_cast<std::int8_t>(sa * sb);
    for (int k = 0; k < 3; ++k) o_.x.push_back(R[k]);
    o_.sign.push_back(static_cast<std::int8_t>(sa * sc));
    rebuild();
    this->plussed();
    return;
  }
}

template void SymmetricWalker<GF2>::plus_transition();
template void SymmetricWalker<ZT>::plus_transition();
template void SymmetricWalker<GF3>::plus_transition();

}  // namespace tdisc::search::flip
