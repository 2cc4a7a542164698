// F_p arithmetic and Gauss–Jordan elimination modulo p = 998244353 (see modp.hpp for why).
#include "decomposition/modp.hpp"

#include <utility>

namespace tdisc::modp {

Fp power(Fp a, std::uint64_t e) {
  Fp r = 1;
  for (; e; e >>= 1, a = mul(a, a))
    if (e & 1) r = mul(r, a);
  return r;
}

Fp inverse(Fp a) { return power(a, kPrime - 2); }

Fp sqrt_minus_one() {
  // 3 generates F_p^× for this prime, so 3^((p−1)/4) has order 4: its square is −1.
  static const Fp root = power(3, (kPrime - 1) / 4);
  return root;
}

namespace {

std::optional<Fp> reduce_rational(const mpq_class& q) {
  const Fp den = static_cast<Fp>(mpz_fdiv_ui(q.get_den_mpz_t(), kPrime));
  if (den == 0) return std::nullopt;
  const Fp num = static_cast<Fp>(mpz_fdiv_ui(q.get_num_mpz_t(), kPrime));
  return mul(num, inverse(den));
}

}  // namespace

std::optional<Fp> reduce(const Coeff& c) {
  auto re = reduce_rational(c.re());
  auto im = reduce_rational(c.im());
  if (!re || !im) return std::nullopt;
  return add(*re, mul(*im, sqrt_minus_one()));
}

Matrix Matrix::identity(int n) {
  Matrix m(n, n);
  for (int i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}

Matrix product(const Matrix& x, const Matrix& y) {
  Matrix z(x.rows, y.cols);
  for (int i = 0; i < x.rows; ++i)
    for (int k = 0; k < x.cols; ++k) {
      const Fp a = x(i, k);
      if (a == 0) continue;
      for (int j = 0; j < y.cols; ++j) z(i, j) = add(z(i, j), mul(a, y(k, j)));
    }
  return z;
}

namespace {

// Reduced row echelon form in place; returns the pivot column of each non-zero row.
std::vector<int> reduce_rows(Matrix& m) {
  std::vector<int> pivots;
  int top = 0;
  for (int c = 0; c < m.cols && top < m.rows; ++c) {
    int p = top;
    while (p < m.rows && m(p, c) == 0) ++p;
    if (p == m.rows) continue;
    for (int j = 0; j < m.cols; ++j) std::swap(m(top, j), m(p, j));
    const Fp inv = inverse(m(top, c));
    for (int j = c; j < m.cols; ++j) m(top, j) = mul(m(top, j), inv);
    for (int i = 0; i < m.rows; ++i) {
      const Fp f = m(i, c);
      if (i == top || f == 0) continue;
      for (int j = c; j < m.cols; ++j) m(i, j) = sub(m(i, j), mul(f, m(top, j)));
    }
    pivots.push_back(c);
    ++top;
  }
  return pivots;
}

}  // namespace

Matrix nullspace(const Matrix& m) {
  Matrix r = m;
  const std::vector<int> pivots = reduce_rows(r);
  std::vector<bool> is_pivot(static_cast<size_t>(m.cols), false);
  for (int c : pivots) is_pivot[static_cast<size_t>(c)] = true;
  Matrix basis(m.cols, m.cols - static_cast<int>(pivots.size()));
  int k = 0;
  for (int f = 0; f < m.cols; ++f) {
    if (is_pivot[static_cast<size_t>(f)]) continue;
    basis(f, k) = 1;
    for (size_t i = 0; i < pivots.size(); ++i) basis(pivots[i], k) = sub(0, r(static_cast<int>(i), f));
    ++k;
  }
  return basis;
}

int rank(const Matrix& m) {
  Matrix r = m;
  return static_cast<int>(reduce_rows(r).size());
}

std::optional<Matrix> inverse(const Matrix& m) {
  const int n = m.rows;
  Matrix aug(n, 2 * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) aug(i, j) = m(i, j);
    aug(i, n + i) = 1;
  }
  const std::vector<int> pivots = reduce_rows(aug);
  if (static_cast<int>(pivots.size()) < n || pivots.back() >= n) return std::nullopt;
  Matrix inv(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) inv(i, j) = aug(i, n + j);
  return inv;
}

bool normalise(std::vector<Fp>& v) {
  for (Fp x : v)
    if (x != 0) {
      const Fp inv = inverse(x);
      for (Fp& y : v) y = mul(y, inv);
      return true;
    }
  return false;
}

}  // namespace tdisc::modp
