// The exact Brent residual, computed with Eigen on exact integer scalars after clearing
// denominators term by term: L·(Σ_r U_r⊗V_r⊗W_r − T) with L the lcm of the terms' denominators.
#pragma once
#include <gmpxx.h>

#include <Eigen/Core>
#include <vector>

#include "decomposition/scheme.hpp"

namespace Eigen {
template <>
struct NumTraits<mpz_class> : GenericNumTraits<mpz_class> {
  using Real = mpz_class;
  using NonInteger = mpz_class;
  using Nested = mpz_class;
  enum { IsComplex = 0, IsInteger = 1, IsSigned = 1, RequireInitialization = 1,
         ReadCost = 4, AddCost = 8, MulCost = 16 };
  static int digits10() { return 0; }  // exact: no rounding digits to print
  static int max_digits10() { return 0; }
};
}  // namespace Eigen

namespace tdisc {

// The scaled tensor L·Σ_r U_r⊗V_r⊗W_r, real and imaginary parts, flattened
// (nm) × ((mp)·(pn)): entry (a, b·pn + c). L is returned so the caller can compare with L·T.
struct ScaledTensor {
  std::vector<mpz_class> re, im;  // size nm·mp·pn, index (a·mp + b)·pn + c
  mpz_class scale;                // L
  bool has_imaginary = false;
  const mpz_class& at_re(long idx) const { return re[static_cast<size_t>(idx)]; }
};

ScaledTensor scaled_tensor(const Scheme& s);

}  // namespace tdisc
