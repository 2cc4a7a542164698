// Test helpers for the numeric engine: random factors, a known scheme turned into floating-point
// factors with noise on every entry, and a Strassen valid over Q(i) with genuinely complex coefficients.
#pragma once
#include <random>

#include "src/search/numeric/tensor.hpp"
#include "tests/support.hpp"
#include "verifier/float_residual.hpp"

namespace tdisc::test {

// Gaussian random factors (both parts drawn when S is complex): I_q × rank each.
template <class S>
search::numeric::Factors<S> random_factors(const search::numeric::MatmulTensor& t, int rank, unsigned seed,
                                           double scale) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0, scale);
  search::numeric::Factors<S> x;
  for (int q = 0; q < 3; ++q) {
    x.f[q] = search::numeric::Mat<S>(t.dims[q], rank);
    for (Eigen::Index k = 0; k < x.f[q].size(); ++k) {
      if constexpr (std::is_same_v<S, double>) x.f[q].data()[k] = n(rng);
      else x.f[q].data()[k] = {n(rng), n(rng)};
    }
  }
  return x;
}

// Scheme → factors (I × R, verifier/float_residual's float_factors), plus uniform noise of the given
// size on every entry (on both parts when S is complex), drawn term by term.
template <class S>
search::numeric::Factors<S> perturbed(const Scheme& s, double noise, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  const FloatFactors f = float_factors(s);
  const Eigen::MatrixXcd* m[3] = {&f.a, &f.b, &f.c};
  search::numeric::Factors<S> x;
  for (int q = 0; q < 3; ++q) {
    x.f[q] = search::numeric::Mat<S>(m[q]->rows(), m[q]->cols());
    for (Eigen::Index r = 0; r < m[q]->cols(); ++r)
      for (Eigen::Index i = 0; i < m[q]->rows(); ++i) {
        const std::complex<double> c = (*m[q])(i, r);
        if constexpr (std::is_same_v<S, double>) x.f[q](i, r) = c.real() + u(rng);
        else x.f[q](i, r) = {c.real() + u(rng), c.imag() + u(rng)};
      }
  }
  return x;
}

// Strassen with terms rescaled by (1+i, 1, (1−i)/2) and (i, −i, 1): valid over Q(i) only in form.
inline Scheme gaussian_strassen() {
  Scheme s = strassen();
  Coeff a(1, 1), c(mpq_class(1, 2), mpq_class(-1, 2)), i(0, 1);
  for (Eigen::Index k = 0; k < 4; ++k) {
    s.u(0, k) *= a, s.w(0, k) *= c;
    s.u(3, k) *= i, s.v(3, k) *= -i;
  }
  s.ring = Ring::QI;
  return s;
}

}  // namespace tdisc::test
