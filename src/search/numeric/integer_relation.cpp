// LLL with Gram–Schmidt data kept in GMP floats and recomputed row by row (dimensions here are tens).
#include "src/search/numeric/integer_relation.hpp"

#include "base/error.hpp"

namespace tdisc::search::numeric {

namespace {

struct Lll {
  std::vector<std::vector<mpz_class>>& b;
  unsigned prec;
  std::vector<std::vector<mpf_class>> mu;
  std::vector<mpf_class> norm2;  // |b*_i|²

  mpf_class dot(size_t i, size_t j) const {
    mpz_class s = 0;
    for (size_t x = 0; x < b[i].size(); ++x) s += b[i][x] * b[j][x];
    return mpf_class(s, prec);
  }

  // μ_{k,j} for j < k and |b*_k|², from rows 0 … k−1 (already current).
  void gram_schmidt_row(size_t k) {
    for (size_t j = 0; j < k; ++j) {
      mpf_class s = dot(k, j);
      for (size_t l = 0; l < j; ++l) s -= mu[j][l] * mu[k][l] * norm2[l];
      mu[k][j] = s / norm2[j];
    }
    mpf_class n = dot(k, k);
    for (size_t j = 0; j < k; ++j) n -= mu[k][j] * mu[k][j] * norm2[j];
    norm2[k] = n;
  }

  // b_k −= q·b_j with q the nearest integer to μ_{k,j}.
  void size_reduce(size_t k, size_t j) {
    mpf_class rounded = floor(mu[k][j] + mpf_class(0.5, prec));
    if (sgn(rounded) == 0) return;
    const mpz_class q(rounded);
    for (size_t x = 0; x < b[k].size(); ++x) b[k][x] -= q * b[j][x];
    const mpf_class qf(q, prec);
    mu[k][j] -= qf;
    for (size_t l = 0; l < j; ++l) mu[k][l] -= qf * mu[j][l];
  }

  void run() {
    const size_t d = b.size();
    mu.assign(d, std::vector<mpf_class>(d, mpf_class(0, prec)));
    norm2.assign(d, mpf_class(0, prec));
    gram_schmidt_row(0);
    const mpf_class delta(0.99, prec);
    size_t k = 1;
    long guard = 0;
    while (k < d && ++guard < 50'000'000) {
      gram_schmidt_row(k);
      for (size_t j = k; j-- > 0;) size_reduce(k, j);
      gram_schmidt_row(k);
      if (norm2[k] >= (delta - mu[k][k - 1] * mu[k][k - 1]) * norm2[k - 1]) {
        ++k;
        continue;
      }
      std::swap(b[k], b[k - 1]);
      gram_schmidt_row(k - 1);
      k = k > 1 ? k - 1 : 1;
    }
  }
};

}  // namespace

void lll_reduce(std::vector<std::vector<mpz_class>>& basis, unsigned bits) {
  if (basis.size() < 2) return;
  Lll{basis, bits, {}, {}}.run();
}

std::optional<std::vector<mpz_class>> integer_relation(const std::vector<HpComplex>& v, unsigned bits,
                                                       const mpz_class& max_coefficient) {
  TDISC_REQUIRE(v.size() >= 2 && bits >= 64, "integer_relation needs two values and 64 bits");
  const size_t d = v.size();
  const unsigned scale_bits = bits - 16;  // M = 2^scale_bits: the last 16 bits are noise
  mpf_class m(1, bits + 64);
  mpf_mul_2exp(m.get_mpf_t(), m.get_mpf_t(), scale_bits);
  std::vector<std::vector<mpz_class>> rows(d, std::vector<mpz_class>(d + 2, 0));
  for (size_t j = 0; j < d; ++j) {
    rows[j][j] = 1;
    rows[j][d] = mpz_class(floor(mpf_class(v[j].re * m, bits + 64) + 0.5));
    rows[j][d + 1] = mpz_class(floor(mpf_class(v[j].im * m, bits + 64) + 0.5));
  }
  lll_reduce(rows, 2 * bits + 64);
  for (const auto& row : rows) {
    if (row[0] == 0) continue;
    bool small = true;
    for (size_t j = 0; j < d && small; ++j) small = abs(row[j]) <= max_coefficient;
    if (!small) continue;
    HpComplex sum(bits);
    for (size_t j = 0; j < d; ++j) sum += v[j].scaled(mpf_class(row[j], bits));
    // A true relation leaves about 2^-bits times its coefficients; a spurious one of small
    // coefficients cannot fall below 2^(-bits/2) by chance.
    if (magnitude_exponent(sum) < -static_cast<long>(bits) / 2)
      return std::vector<mpz_class>(row.begin(), row.begin() + static_cast<long>(d));
  }
  return std::nullopt;
}

}  // namespace tdisc::search::numeric
