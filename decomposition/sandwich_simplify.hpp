// A sparser scheme equivalent to a rational one, by a sandwich chosen from the scheme itself: P, Q and
// S send the column vectors of n, m and p independent rank-one factors of U, V and W to the standard
// basis, so those factors become single columns of unit vectors and many others follow. The choices
// come from a seed; the scheme with the fewest non-zero coefficients (then the fewest bits) is kept.
// Exact; it changes neither the rank nor the tensor (de Groote's action), and the caller verifies.
#pragma once
#include <cstdint>

#include "decomposition/symmetry.hpp"

namespace tdisc {

// Each term rescaled (αU, βV, γW with αβγ = 1) so that U and V are primitive integral with their first
// non-zero entry positive; W carries the scale. A factor that stays non-real keeps its first entry 1.
void normalise_terms(Scheme& s);

// Non-zero coefficients, and their total size in bits (numerators and denominators).
struct Sparsity {
  long nonzeros = 0;
  long bits = 0;
  friend bool operator<(const Sparsity& a, const Sparsity& b) {
    return a.nonzeros != b.nonzeros ? a.nonzeros < b.nonzeros : a.bits < b.bits;
  }
};
Sparsity sparsity(const Scheme& s);

struct Simplified {
  Scheme scheme;     // normalised; s itself (normalised) when no sandwich tried does better
  Isotropy sandwich; // P, Q, S applied (empty: the identity)
  int tried = 0;     // sandwiches tried
};
// s must be rational (coefficient ring ZT, Z or Q); a complex s comes back normalised only.
Simplified simplify_by_sandwich(const Scheme& s, std::uint64_t seed, int tries);

}  // namespace tdisc
