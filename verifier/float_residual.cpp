// Scheme → complex double factors, and the dense Brent residual of floating-point factors: the
// mode-0 unfolding A·(B ⊙ C)ᵀ − T₍₀₎, ⊙ the Khatri–Rao product (Kolda–Bader 2009 §3, row-major).
#include "verifier/float_residual.hpp"

#include "base/error.hpp"

namespace tdisc {

Eigen::MatrixXcd to_complex(const CoeffMatrix& m) {
  Eigen::MatrixXcd out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = {m(i, j).real_double(), m(i, j).imag_double()};
  return out;
}

FloatFactors float_factors(const Scheme& s) {
  s.check_shape();
  return {to_complex(s.u).transpose(), to_complex(s.v).transpose(), to_complex(s.w).transpose()};
}

namespace {

// Khatri–Rao product: (J·K) × R with row y·K + z equal to Y(y,:) ∘ Z(z,:).
template <class S>
FloatMatrix<S> khatri_rao(const FloatMatrix<S>& y, const FloatMatrix<S>& z) {
  const auto J = y.rows(), K = z.rows();
  FloatMatrix<S> kr(J * K, y.cols());
  for (Eigen::Index r = 0; r < y.cols(); ++r)
    for (Eigen::Index a = 0; a < J; ++a) kr.col(r).segment(a * K, K) = y(a, r) * z.col(r);
  return kr;
}

}  // namespace

template <class S>
FloatMatrix<S> brent_residual_unfolding(Format f, const FloatMatrix<S>& a, const FloatMatrix<S>& b,
                                        const FloatMatrix<S>& c) {
  TDISC_REQUIRE(a.rows() == f.a_size() && b.rows() == f.b_size() && c.rows() == f.c_size() &&
                    a.cols() == b.cols() && b.cols() == c.cols(),
                "factor shapes do not match the format");
  FloatMatrix<S> e = a * khatri_rao<S>(b, c).transpose();  // (nm) × ((mp)·(pn))
  const Eigen::Index K = f.c_size();
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) e(f.a_index(i, j), f.b_index(j, k) * K + f.c_index(k, i)) -= S(1);
  return e;
}

template <class S>
double brent_residual(Format f, const FloatMatrix<S>& a, const FloatMatrix<S>& b, const FloatMatrix<S>& c) {
  return brent_residual_unfolding<S>(f, a, b, c).norm();
}

double brent_residual(const Scheme& s) {
  const FloatFactors x = float_factors(s);
  return brent_residual<std::complex<double>>(s.format, x.a, x.b, x.c);
}

using RealMatrix = FloatMatrix<double>;
using ComplexMatrix = FloatMatrix<std::complex<double>>;
template RealMatrix brent_residual_unfolding(Format, const RealMatrix&, const RealMatrix&, const RealMatrix&);
template ComplexMatrix brent_residual_unfolding(Format, const ComplexMatrix&, const ComplexMatrix&,
                                                const ComplexMatrix&);
template double brent_residual(Format, const RealMatrix&, const RealMatrix&, const RealMatrix&);
template double brent_residual(Format, const ComplexMatrix&, const ComplexMatrix&, const ComplexMatrix&);

}  // namespace tdisc
