// The sparse matmul tensor and the dense residual of a floating-point decomposition of it.
// Plain CP algebra (Kolda–Bader 2009 notation: unfoldings, Khatri–Rao products).
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

MatmulTensor matmul_tensor(Format f) {
  MatmulTensor t;
  t.format = f;
  t.dims = {f.a_size(), f.b_size(), f.c_size()};
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) {
        int a = f.a_index(i, j), b = f.b_index(j, k), c = f.c_index(k, i);
        t.ones[0].push_back({a, b, c});
        t.ones[1].push_back({b, c, a});
        t.ones[2].push_back({c, a, b});
      }
  return t;
}

long FixedMask::count() const {
  long n = 0;
  for (const auto& m : f) n += m.cast<long>().sum();
  return n;
}

template <class S>
FixedMask no_fixed(const Factors<S>& x) {
  FixedMask m;
  for (int q = 0; q < 3; ++q) m.f[q] = Mask::Zero(x.f[q].rows(), x.f[q].cols());
  return m;
}

template <class S>
Mat<S> khatri_rao(const Mat<S>& y, const Mat<S>& z) {
  const auto J = y.rows(), K = z.rows();
  Mat<S> kr(J * K, y.cols());
  for (Eigen::Index r = 0; r < y.cols(); ++r)
    for (Eigen::Index a = 0; a < J; ++a) kr.col(r).segment(a * K, K) = y(a, r) * z.col(r);
  return kr;
}

template <class S>
Mat<S> residual_unfolding(const MatmulTensor& t, const Factors<S>& x) {
  Mat<S> e = x.f[0] * khatri_rao<S>(x.f[1], x.f[2]).transpose();  // (nm) × ((mp)·(pn))
  const Eigen::Index K = t.dims[2];
  for (const auto& o : t.ones[0]) e(o[0], o[1] * K + o[2]) -= S(1);
  return e;
}

template <class S>
double residual(const MatmulTensor& t, const Factors<S>& x) {
  return residual_unfolding(t, x).norm();
}

template FixedMask no_fixed(const Factors<double>&);
template FixedMask no_fixed(const Factors<cdouble>&);
template Mat<double> khatri_rao(const Mat<double>&, const Mat<double>&);
template Mat<cdouble> khatri_rao(const Mat<cdouble>&, const Mat<cdouble>&);
template Mat<double> residual_unfolding(const MatmulTensor&, const Factors<double>&);
template Mat<cdouble> residual_unfolding(const MatmulTensor&, const Factors<cdouble>&);
template double residual(const MatmulTensor&, const Factors<double>&);
template double residual(const MatmulTensor&, const Factors<cdouble>&);

}  // namespace tdisc::search::numeric
