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

// The exact Brent residual scaled to integers: L·(Σ_r U_r⊗V_r⊗W_r − T⟨n,m,p⟩), with L the lcm of
// the terms' denominators. Only non-zero entries are kept (a valid scheme has none), keyed by the
// flat equation index (a·mp + b)·pn + c with a = i·m+j, b = j'·p+k, c = k'·n+i'.
struct ScaledResidual {
  std::vector<std::pair<long, mpz_class>> re, im;  // sorted by index
  mpz_class scale;                                 // L
};

// Which integers the product runs on: automatic picks int64 when a bound proves no overflow and
// GMP otherwise; the property tests force each path to check that they agree.
enum class Arithmetic { automatic, int64, gmp };

// Sparse exact products (Eigen::SparseMatrix on int64 when a bound proves no overflow, on GMP
// integers otherwise): cost Σ_r nnz(U_r)·nnz(V_r)·nnz(W_r), not (nm)(mp)(pn)·R. Forcing int64
// where the bound does not hold is a ContractError.
ScaledResidual scaled_residual(const Scheme& s, Arithmetic arithmetic = Arithmetic::automatic);
// Whether the int64 path applies to s (the overflow bound holds).
bool int64_applies(const Scheme& s);

// The least common denominator of row r of m (real and imaginary parts).
mpz_class row_denominator(const CoeffMatrix& m, Eigen::Index r);

}  // namespace tdisc
