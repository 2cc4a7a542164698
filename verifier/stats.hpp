// Measures of a scheme beyond validity: sparsity, the additions of the naive algorithm, and the
// numerical stability factor of Bini–Lotti (1980) as used by Ballard et al. (SIMAX 2016).
#pragma once
#include "decomposition/scheme.hpp"

namespace tdisc {

struct SchemeStats {
  int rank = 0;
  long nnz_u = 0, nnz_v = 0, nnz_w = 0;
  // Additions of the straightforward algorithm: (nnz(U_r)−1) + (nnz(V_r)−1) per product, and
  // (number of products in C[i][k]) − 1 per output entry. No common subexpressions shared.
  long additions = 0;
  // e = max over C entries (i,k) of Σ_r |W_r[k][i]|·‖U_r‖₁·‖V_r‖₁: 12 for Strassen, 18 for
  // Strassen–Winograd, m for the classical algorithm (modulus for complex coefficients).
  double stability = 0;
};

SchemeStats scheme_stats(const Scheme& s);

}  // namespace tdisc
