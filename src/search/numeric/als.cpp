// Regularised, lattice-penalised CP-ALS on the sparse matmul tensor: each factor row solves
// (G + (reg+lattice)·I) x = mttkrp + lattice·nearest(x) with G = (YᴴY)∘(ZᴴZ) (Kolda–Bader 2009).
#include "src/search/numeric/als.hpp"

#include <cmath>

namespace tdisc::search::numeric {

// Identity up to c, then a tanh knee of slope 1 at c saturating at c + 1: lattice values below c
// are never moved, runaway entries (degenerate swamps) are bounded.
double soft_clip(double x, double c) {
  double r = std::abs(x);
  if (c <= 0 || r <= c) return x;
  return std::copysign(c + std::tanh(r - c), x);
}

cdouble soft_clip(cdouble x, double c) {
  double r = std::abs(x);
  if (c <= 0 || r <= c) return x;
  return x * ((c + std::tanh(r - c)) / r);
}

namespace {

template <class S>
S conj_of(S v) {
  if constexpr (std::is_same_v<S, double>) return v;
  else return std::conj(v);
}

// MTTKRP of T for mode q: M(x, r) = Σ_{(x,y,z) ∈ T} conj(Y(y,r)·Z(z,r)). (I_q × R)
template <class S>
Mat<S> mttkrp(const MatmulTensor& t, int q, const Mat<S>& y, const Mat<S>& z) {
  Mat<S> m = Mat<S>::Zero(t.dims[q], y.cols());
  for (const auto& o : t.ones[q])
    m.row(o[0]) += (y.row(o[1]).cwiseProduct(z.row(o[2]))).unaryExpr([](S v) { return conj_of(v); });
  return m;
}

template <class S>
void update_factor(const MatmulTensor& t, int q, Factors<S>& x, const Mask& fixed, const Weights& w) {
  Mat<S>& X = x.f[q];
  const Mat<S>& Y = x.f[(q + 1) % 3];
  const Mat<S>& Z = x.f[(q + 2) % 3];
  const Eigen::Index R = X.cols();
  Mat<S> g = (Y.adjoint() * Y).cwiseProduct(Z.adjoint() * Z);  // R × R, Hermitian PSD
  Mat<S> m = mttkrp(t, q, Y, Z);                                 // I_q × R
  const double damp = w.reg + w.lattice;
  // Rows without fixed entries share one factorisation.
  Mat<S> gd = g;
  gd.diagonal().array() += S(damp > 0 ? damp : 1e-12);
  Eigen::LDLT<Mat<S>> whole(gd);
  for (Eigen::Index row = 0; row < X.rows(); ++row) {
    Eigen::Matrix<S, Eigen::Dynamic, 1> rhs = m.row(row).transpose();
    if (w.lattice > 0)
      for (Eigen::Index r = 0; r < R; ++r) rhs(r) += S(w.lattice) * S(nearest(w.kind, X(row, r)));
    const auto nfixed = fixed.row(row).template cast<int>().sum();
    if (nfixed == 0) {
      X.row(row) = whole.solve(rhs).transpose();
    } else if (nfixed < R) {
      std::vector<Eigen::Index> free;
      for (Eigen::Index r = 0; r < R; ++r)
        if (!fixed(row, r)) free.push_back(r);
      const auto F = static_cast<Eigen::Index>(free.size());
      Mat<S> gff(F, F);
      Eigen::Matrix<S, Eigen::Dynamic, 1> b(F);
      for (Eigen::Index i = 0; i < F; ++i) {
        b(i) = rhs(free[i]);
        for (Eigen::Index r = 0; r < R; ++r)
          if (fixed(row, r)) b(i) -= g(free[i], r) * X(row, r);
        for (Eigen::Index j = 0; j < F; ++j) gff(i, j) = g(free[i], free[j]);
        gff(i, i) += S(damp > 0 ? damp : 1e-12);
      }
      Eigen::Matrix<S, Eigen::Dynamic, 1> sol = gff.ldlt().solve(b);
      for (Eigen::Index i = 0; i < F; ++i) X(row, free[i]) = sol(i);
    }
    if (w.clip > 0)
      for (Eigen::Index r = 0; r < R; ++r)
        if (!fixed(row, r)) X(row, r) = soft_clip(X(row, r), w.clip);
  }
}

}  // namespace

template <class S>
void als_sweep(const MatmulTensor& t, Factors<S>& x, const FixedMask& fixed, const Weights& w) {
  for (int q = 0; q < 3; ++q) update_factor(t, q, x, fixed.f[q], w);
}

template <class S>
void balance_terms(Factors<S>& x, const FixedMask& fixed) {
  for (Eigen::Index r = 0; r < x.f[0].cols(); ++r) {
    bool any_fixed = false;
    double n[3];
    for (int q = 0; q < 3; ++q) {
      any_fixed = any_fixed || fixed.f[q].col(r).any();
      n[q] = x.f[q].col(r).norm();
    }
    if (any_fixed || n[0] == 0 || n[1] == 0 || n[2] == 0) continue;
    double g = std::cbrt(n[0] * n[1] * n[2]);
    for (int q = 0; q < 3; ++q) x.f[q].col(r) *= S(g / n[q]);
  }
}

template void als_sweep(const MatmulTensor&, Factors<double>&, const FixedMask&, const Weights&);
template void als_sweep(const MatmulTensor&, Factors<cdouble>&, const FixedMask&, const Weights&);
template void balance_terms(Factors<double>&, const FixedMask&);
template void balance_terms(Factors<cdouble>&, const FixedMask&);

}  // namespace tdisc::search::numeric
