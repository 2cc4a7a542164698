// Arithmetic in F_p for the prime p = 998244353 (p ≡ 1 mod 4, so i ↦ a square root of −1 makes
// F_p a homomorphic image of Z[i] localised at a prime above p): a fast shadow of exact Q(i) linear
// algebra. Ranks only drop modulo p, so a solution space computed here is never smaller than the
// exact one; the stabiliser search prunes with it and decides everything else exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "decomposition/coeff.hpp"

namespace tdisc::modp {

using Fp = std::uint32_t;
inline constexpr Fp kPrime = 998244353;

inline Fp add(Fp a, Fp b) { return a + b >= kPrime ? a + b - kPrime : a + b; }
inline Fp sub(Fp a, Fp b) { return a >= b ? a - b : a + kPrime - b; }
inline Fp mul(Fp a, Fp b) { return static_cast<Fp>(static_cast<std::uint64_t>(a) * b % kPrime); }
Fp power(Fp a, std::uint64_t e);
Fp inverse(Fp a);  // a ≠ 0
Fp sqrt_minus_one();

// The image of a Gaussian rational; nullopt when a denominator is divisible by p.
std::optional<Fp> reduce(const Coeff& c);

// A dense matrix over F_p, row-major.
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<Fp> a;  // rows × cols

  Matrix() = default;
  Matrix(int r, int c) : rows(r), cols(c), a(static_cast<size_t>(r) * static_cast<size_t>(c), 0) {}
  Fp& operator()(int r, int c) { return a[static_cast<size_t>(r) * static_cast<size_t>(cols) + static_cast<size_t>(c)]; }
  Fp operator()(int r, int c) const { return a[static_cast<size_t>(r) * static_cast<size_t>(cols) + static_cast<size_t>(c)]; }
  static Matrix identity(int n);
};

Matrix product(const Matrix& x, const Matrix& y);
// A basis of {v : M·v = 0} as the columns of a cols × d matrix.
Matrix nullspace(const Matrix& m);
int rank(const Matrix& m);
// The inverse of a square matrix; nullopt when singular modulo p.
std::optional<Matrix> inverse(const Matrix& m);
// Scales a vector so that its first non-zero entry is 1; false when it is zero.
bool normalise(std::vector<Fp>& v);

}  // namespace tdisc::modp
