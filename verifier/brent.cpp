// Builds the residual L·(Σ_r U_r⊗V_r⊗W_r − T) exactly. Each term's factors are scaled to Gaussian
// integers; the tensor is one sparse Eigen product Uᵀ · (V ⊙ W) (Khatri–Rao), on int64 when a bound
// proves it cannot overflow and on GMP integers otherwise.
#include "verifier/brent.hpp"

#include <Eigen/SparseCore>
#include <cstdint>

#include "base/error.hpp"

namespace tdisc {

namespace {

// Gaussian-integer factor matrices after clearing denominators: R × width, real and imaginary.
template <class S>
using IntMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

struct IntegerFactors {
  IntMatrix<mpz_class> ur, ui;  // R × (n·m)
  IntMatrix<mpz_class> vr, vi;  // R × (m·p)
  IntMatrix<mpz_class> wr, wi;  // R × (p·n)
  mpz_class scale = 1;          // L
  bool imaginary = false;
};

void scale_row(const CoeffMatrix& m, Eigen::Index r, const mpz_class& by, IntMatrix<mpz_class>& re,
               IntMatrix<mpz_class>& im) {
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    mpq_class x = m(r, c).re() * by, y = m(r, c).im() * by;
    re(r, c) = x.get_num();  // exact: by is a multiple of the denominator
    im(r, c) = y.get_num();
  }
}

IntegerFactors clear_denominators(const Scheme& s) {
  const Eigen::Index R = s.rank();
  IntegerFactors f;
  f.ur.resize(R, s.u.cols()); f.ui.resize(R, s.u.cols());
  f.vr.resize(R, s.v.cols()); f.vi.resize(R, s.v.cols());
  f.wr.resize(R, s.w.cols()); f.wi.resize(R, s.w.cols());
  std::vector<mpz_class> du(R), term_scale(R);
  for (Eigen::Index r = 0; r < R; ++r) {
    du[r] = row_denominator(s.u, r);
    mpz_class dv = row_denominator(s.v, r), dw = row_denominator(s.w, r);
    term_scale[r] = du[r] * dv * dw;
    f.scale = lcm(f.scale, term_scale[r]);
    scale_row(s.v, r, dv, f.vr, f.vi);
    scale_row(s.w, r, dw, f.wr, f.wi);
  }
  for (Eigen::Index r = 0; r < R; ++r) scale_row(s.u, r, du[r] * (f.scale / term_scale[r]), f.ur, f.ui);
  f.imaginary = coefficient_ring(s) == Ring::QI;
  return f;
}

mpz_class max_abs(const IntMatrix<mpz_class>& a, const IntMatrix<mpz_class>& b) {
  mpz_class m = 0;
  for (Eigen::Index k = 0; k < a.size(); ++k) m = std::max<mpz_class>(m, abs(a(k)) + abs(b(k)));
  return m;
}

// Whether every partial sum of the product fits in int64.
bool fits_int64(const IntegerFactors& f) {
  mpz_class bound = max_abs(f.ur, f.ui) * max_abs(f.vr, f.vi) * max_abs(f.wr, f.wi) *
                    (f.ur.rows() + 1) * 4;
  mpz_class limit = mpz_class(1) << 62;
  return bound < limit && f.scale < limit;
}

template <class S>
using Sparse = Eigen::SparseMatrix<S, Eigen::RowMajor, long>;

template <class S>
S narrow(const mpz_class& x) {
  if constexpr (std::is_same_v<S, mpz_class>) return x;
  else return static_cast<S>(x.get_si());
}

template <class S>
mpz_class widen(const S& x) {
  if constexpr (std::is_same_v<S, mpz_class>) return x;
  else return mpz_class(static_cast<long>(x));
}

// Uᵀ as a sparse (n·m) × R matrix.
template <class S>
Sparse<S> sparse_transpose(const IntMatrix<mpz_class>& u) {
  std::vector<Eigen::Triplet<S, long>> t;
  for (Eigen::Index r = 0; r < u.rows(); ++r)
    for (Eigen::Index a = 0; a < u.cols(); ++a)
      if (u(r, a) != 0) t.emplace_back(a, r, narrow<S>(u(r, a)));
  Sparse<S> m(u.cols(), u.rows());
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// Khatri–Rao row product, R × (mp·pn): row r holds x_r ⊗ y_r at column b·pn + c.
template <class S>
Sparse<S> khatri_rao(const IntMatrix<mpz_class>& x, const IntMatrix<mpz_class>& y) {
  std::vector<Eigen::Triplet<S, long>> t;
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index b = 0; b < x.cols(); ++b) {
      if (x(r, b) == 0) continue;
      for (Eigen::Index c = 0; c < y.cols(); ++c)
        if (y(r, c) != 0) t.emplace_back(r, b * y.cols() + c, narrow<S>(x(r, b)) * narrow<S>(y(r, c)));
    }
  Sparse<S> m(x.rows(), x.cols() * y.cols());
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// Appends the non-zero entries of t − L·T (T the matmul tensor when subtract_delta) in index order.
template <class S>
void residual_entries(const Format& f, const Sparse<S>& t, const mpz_class& scale, bool subtract_delta,
                      std::vector<std::pair<long, mpz_class>>& out) {
  const long cols = static_cast<long>(f.b_size()) * f.c_size();
  for (long a = 0; a < t.rows(); ++a) {
    const long i = a / f.m, j = a % f.m;
    int k = 0;  // next δ column of this row: b = j·p+k, c = k·n+i
    auto delta_col = [&](int kk) { return (j * f.p + kk) * static_cast<long>(f.c_size()) + kk * f.n + i; };
    auto emit = [&](long col, mpz_class v) {
      if (v != 0) out.emplace_back(a * cols + col, std::move(v));
    };
    for (typename Sparse<S>::InnerIterator it(t, a); it; ++it) {
      while (subtract_delta && k < f.p && delta_col(k) < it.col()) emit(delta_col(k++), -scale);
      mpz_class v = widen(it.value());
      if (subtract_delta && k < f.p && delta_col(k) == it.col()) {
        v -= scale;
        ++k;
      }
      emit(it.col(), std::move(v));
    }
    while (subtract_delta && k < f.p) emit(delta_col(k++), -scale);
  }
}

template <class S>
void residual_product(const Format& fmt, const IntegerFactors& f, ScaledResidual& out) {
  Sparse<S> ur = sparse_transpose<S>(f.ur);  // (nm) × R
  if (!f.imaginary) {
    Sparse<S> t = ur * khatri_rao<S>(f.vr, f.wr);  // (nm) × (mp·pn)
    residual_entries(fmt, t, f.scale, true, out.re);
    return;
  }
  Sparse<S> ui = sparse_transpose<S>(f.ui);
  Sparse<S> kr_re = khatri_rao<S>(f.vr, f.wr) - khatri_rao<S>(f.vi, f.wi);  // R × (mp·pn)
  Sparse<S> kr_im = khatri_rao<S>(f.vr, f.wi) + khatri_rao<S>(f.vi, f.wr);
  Sparse<S> t_re = ur * kr_re - ui * kr_im;
  Sparse<S> t_im = ur * kr_im + ui * kr_re;
  residual_entries(fmt, t_re, f.scale, true, out.re);
  residual_entries(fmt, t_im, f.scale, false, out.im);
}

}  // namespace

mpz_class row_denominator(const CoeffMatrix& m, Eigen::Index r) {
  mpz_class d = 1;
  for (Eigen::Index c = 0; c < m.cols(); ++c) d = lcm(d, m(r, c).denominator());
  return d;
}

ScaledResidual scaled_residual(const Scheme& s, Arithmetic arithmetic) {
  s.check_shape();
  IntegerFactors f = clear_denominators(s);
  ScaledResidual out;
  out.scale = f.scale;
  const bool fits = fits_int64(f);
  TDISC_REQUIRE(fits || arithmetic != Arithmetic::int64, "the int64 path would overflow on this scheme");
  if (arithmetic == Arithmetic::int64 || (arithmetic == Arithmetic::automatic && fits))
    residual_product<std::int64_t>(s.format, f, out);
  else
    residual_product<mpz_class>(s.format, f, out);
  return out;
}

bool int64_applies(const Scheme& s) { return fits_int64(clear_denominators(s)); }

}  // namespace tdisc
