// Builds L·Σ_r U_r⊗V_r⊗W_r exactly. Each term's factors are scaled to Gaussian integers, the
// tensor is one Eigen product U^T · (V ⊙ W) (Khatri–Rao), on int64 when a bound proves it cannot
// overflow and on GMP integers otherwise.
#include "verifier/brent.hpp"

#include <cstdint>

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

mpz_class row_denominator(const CoeffMatrix& m, Eigen::Index r) {
  mpz_class d = 1;
  for (Eigen::Index c = 0; c < m.cols(); ++c) d = lcm(d, m(r, c).denominator());
  return d;
}

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
IntMatrix<S> cast(const IntMatrix<mpz_class>& m) {
  if constexpr (std::is_same_v<S, mpz_class>) {
    return m;
  } else {
    IntMatrix<S> out(m.rows(), m.cols());
    for (Eigen::Index k = 0; k < m.size(); ++k) out(k) = static_cast<S>(m(k).get_si());
    return out;
  }
}

// Khatri–Rao row product: out(r, b·pn + c) = x(r, b)·y(r, c). R × (mp·pn).
template <class S>
IntMatrix<S> khatri_rao(const IntMatrix<S>& x, const IntMatrix<S>& y) {
  IntMatrix<S> out(x.rows(), x.cols() * y.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index b = 0; b < x.cols(); ++b)
      for (Eigen::Index c = 0; c < y.cols(); ++c) out(r, b * y.cols() + c) = x(r, b) * y(r, c);
  return out;
}

template <class S>
void store(const IntMatrix<S>& t, std::vector<mpz_class>& out) {
  // t is (nm) × (mp·pn); out index (a·mp + b)·pn + c = a·(mp·pn) + column.
  out.resize(static_cast<size_t>(t.size()));
  for (Eigen::Index a = 0; a < t.rows(); ++a)
    for (Eigen::Index col = 0; col < t.cols(); ++col) {
      if constexpr (std::is_same_v<S, mpz_class>) out[a * t.cols() + col] = t(a, col);
      else out[a * t.cols() + col] = static_cast<long>(t(a, col));
    }
}

template <class S>
void tensor_product(const IntegerFactors& f, ScaledTensor& out) {
  IntMatrix<S> ur = cast<S>(f.ur), vr = cast<S>(f.vr), wr = cast<S>(f.wr);
  if (!f.imaginary) {
    IntMatrix<S> t = ur.transpose() * khatri_rao(vr, wr);  // (nm) × (mp·pn)
    store(t, out.re);
    out.im.assign(out.re.size(), 0);
    return;
  }
  IntMatrix<S> ui = cast<S>(f.ui), vi = cast<S>(f.vi), wi = cast<S>(f.wi);
  IntMatrix<S> kr_re = khatri_rao(vr, wr) - khatri_rao(vi, wi);  // R × (mp·pn)
  IntMatrix<S> kr_im = khatri_rao(vr, wi) + khatri_rao(vi, wr);
  IntMatrix<S> t_re = ur.transpose() * kr_re - ui.transpose() * kr_im;
  IntMatrix<S> t_im = ur.transpose() * kr_im + ui.transpose() * kr_re;
  store(t_re, out.re);
  store(t_im, out.im);
}

}  // namespace

ScaledTensor scaled_tensor(const Scheme& s) {
  s.check_shape();
  IntegerFactors f = clear_denominators(s);
  ScaledTensor out;
  out.scale = f.scale;
  out.has_imaginary = f.imaginary;
  if (fits_int64(f)) tensor_product<std::int64_t>(f, out);
  else tensor_product<mpz_class>(f, out);
  return out;
}

}  // namespace tdisc
