// verify_by_residues: the bound L·S, the primes, and the exact double contraction per prime.
#include "verifier/residues.hpp"
#include "verifier/brent.hpp"

#include "base/error.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <vector>

namespace tdisc {

namespace {

// More primes than this (a bound above about 1200 bits) cost more than the exact product.
constexpr size_t kMaxPrimes = 64;

// A prime p ≥ 3 when no smaller odd number divides it.
bool is_prime(long p) {
  if (p < 2) return false;
  for (long d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

mpq_class row_max_abs(const CoeffMatrix& m, Eigen::Index r) {
  mpq_class best = 0;
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    if (abs(m(r, c).re()) > best) best = abs(m(r, c).re());
  return best;
}

// L·S rounded up: the bound on every scaled residual.
mpz_class residual_bound(const Scheme& s, mpz_class& L) {
  mpq_class S = 1;
  L = 1;
  for (int r = 0; r < s.rank(); ++r) {
    S += row_max_abs(s.u, r) * row_max_abs(s.v, r) * row_max_abs(s.w, r);
    L = lcm(L, row_denominator(s.u, r) * row_denominator(s.v, r) * row_denominator(s.w, r));
  }
  mpq_class b = S * L;
  return b.get_num() / b.get_den() + 1;
}

// m modulo p as doubles in [0, p).
Eigen::MatrixXd residues(const CoeffMatrix& m, long p) {
  Eigen::MatrixXd out(m.rows(), m.cols());
  const mpz_class P = p;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const mpq_class& q = m(r, c).re();
      if (q == 0) {
        out(r, c) = 0;
        continue;
      }
      mpz_class inv, num = q.get_num() % P;
      mpz_invert(inv.get_mpz_t(), mpz_class(q.get_den() % P).get_mpz_t(), P.get_mpz_t());
      mpz_class x = (num * inv) % P;
      if (x < 0) x += P;
      out(r, c) = static_cast<double>(x.get_si());
    }
  return out;
}

// The first equation that fails modulo p, or -1.
long first_failure_mod(const Scheme& s, long p) {
  const Format& f = s.format;
  const Eigen::MatrixXd U = residues(s.u, p), V = residues(s.v, p), W = residues(s.w, p);
  const double P = static_cast<double>(p);
  const long B = f.b_size(), C = f.c_size();
  for (Eigen::Index a = 0; a < U.cols(); ++a) {
    std::vector<Eigen::Index> rows;
    for (Eigen::Index r = 0; r < U.rows(); ++r)
      if (U(r, a) != 0) rows.push_back(r);
    Eigen::MatrixXd X(static_cast<Eigen::Index>(rows.size()), B), Y(static_cast<Eigen::Index>(rows.size()), C);
    for (size_t k = 0; k < rows.size(); ++k) {
      const Eigen::Index r = rows[k], kk = static_cast<Eigen::Index>(k);
      for (long b = 0; b < B; ++b) X(kk, b) = std::fmod(U(r, a) * V(r, b), P);  // < 2^40, exact
      Y.row(kk) = W.row(r);
    }
    const Eigen::MatrixXd T = X.transpose() * Y;  // B × C, each entry < R·p² < 2^53: exact
    const long i = a / f.m, j = a % f.m;
    for (long b = 0; b < B; ++b)
      for (long c = 0; c < C; ++c) {
        const bool delta = b / f.p == j && c / f.n == b % f.p && c % f.n == i;
        if (std::fmod(T(b, c), P) != (delta ? 1.0 : 0.0)) return (a * B + b) * C + c;
      }
  }
  return -1;
}

}  // namespace

bool holds_mod_prime(const Scheme& s, long p) {
  TDISC_REQUIRE(p >= 2 && p < (1L << 20) && is_prime(p), "holds_mod_prime: " + std::to_string(p) + " is not a prime below 2^20");
  return first_failure_mod(s, p) < 0;
}

bool residues_preferred(const Scheme& s) {
  const Format& f = s.format;
  const long equations = static_cast<long>(f.a_size()) * f.b_size() * f.c_size();
  return equations >= (1L << 22) && coefficient_ring(s) != Ring::QI;
}

std::optional<ResidueVerdict> verify_by_residues(const Scheme& s) {
  if (coefficient_ring(s) == Ring::QI || s.rank() < 1) return std::nullopt;
  // Largest p with R·(p−1)² < 2^53, at most 2^20.
  const long p_max = std::min<long>(1L << 20, static_cast<long>(std::sqrt(std::ldexp(1.0, 53) / s.rank())));
  if (p_max < 1000) return std::nullopt;
  mpz_class L;
  const mpz_class bound = residual_bound(s, L);
  // The primes first (cheap), so that a bound no affordable set of primes covers (huge
  // coefficients) falls back to the exact product before any contraction is spent.
  std::vector<long> primes;
  mpz_class product = 1;
  for (long p = p_max; product <= bound; --p) {
    if (p < 1000 || primes.size() >= kMaxPrimes) return std::nullopt;
    if (!is_prime(p) || L % p == 0) continue;
    primes.push_back(p);
    product *= p;
  }
  ResidueVerdict v;
  for (long p : primes) {
    ++v.primes;
    long bad = first_failure_mod(s, p);
    if (bad >= 0) {
      v.first_failing = bad;  // non-zero modulo p, hence non-zero
      return v;
    }
  }
  v.valid = true;
  return v;
}

}  // namespace tdisc
