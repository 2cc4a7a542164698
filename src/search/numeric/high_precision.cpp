#include "src/search/numeric/high_precision.hpp"

#include <cmath>

namespace tdisc::search::numeric {

HpComplex::HpComplex(const Coeff& c, unsigned bits) : re(c.re(), bits), im(c.im(), bits) {}

HpComplex& HpComplex::operator+=(const HpComplex& o) {
  re += o.re;
  im += o.im;
  return *this;
}

HpComplex& HpComplex::operator-=(const HpComplex& o) {
  re -= o.re;
  im -= o.im;
  return *this;
}

HpComplex HpComplex::operator*(const HpComplex& o) const {
  HpComplex z(static_cast<unsigned>(re.get_prec()));
  z.re = re * o.re - im * o.im;
  z.im = re * o.im + im * o.re;
  return z;
}

HpComplex HpComplex::operator+(const HpComplex& o) const { return HpComplex(*this) += o; }
HpComplex HpComplex::operator-(const HpComplex& o) const { return HpComplex(*this) -= o; }

HpComplex HpComplex::scaled(const mpf_class& s) const {
  HpComplex z(*this);
  z.re *= s;
  z.im *= s;
  return z;
}

mpf_class HpComplex::norm() const { return re * re + im * im; }

HpComplex HpComplex::inverse() const {
  const mpf_class n = norm();
  HpComplex z(*this);
  z.re /= n;
  z.im = -im / n;
  return z;
}

long magnitude_exponent(const HpComplex& z) {
  long er = 0, ei = 0;
  const double mr = sgn(z.re) ? mpf_get_d_2exp(&er, z.re.get_mpf_t()) : 0;
  const double mi = sgn(z.im) ? mpf_get_d_2exp(&ei, z.im.get_mpf_t()) : 0;
  if (mr == 0 && mi == 0) return std::numeric_limits<long>::min() / 2;
  return std::max(mr != 0 ? er : std::numeric_limits<long>::min() / 2, mi != 0 ? ei : std::numeric_limits<long>::min() / 2);
}

namespace {

// p(x) and p'(x) for a polynomial with coefficients c (lowest first) in HpComplex.
std::pair<HpComplex, HpComplex> evaluate(const std::vector<HpComplex>& c, const HpComplex& x, unsigned bits) {
  HpComplex p(bits), dp(bits);
  for (size_t d = c.size(); d-- > 0;) {
    dp = dp * x + p;
    p = p * x + c[d];
  }
  return {p, dp};
}

// A root of p refined by Newton from x0; quadratic convergence doubles the digits per step.
HpComplex newton_root(const std::vector<HpComplex>& p, std::complex<double> x0, unsigned bits) {
  HpComplex x(x0, bits);
  for (int step = 0; step < 64 && (1L << std::min(step, 40)) < static_cast<long>(bits) * 4; ++step) {
    auto [v, dv] = evaluate(p, x, bits);
    x -= v * dv.inverse();
  }
  return x;
}

}  // namespace

HpEmbedding hp_embedding(const NumberField& k, unsigned bits) {
  std::vector<HpComplex> phi;
  for (const mpz_class& c : k.cyclotomic_polynomial()) phi.emplace_back(Coeff(mpq_class(c)), bits);
  HpEmbedding e{newton_root(phi, k.zeta_value(), bits), HpComplex(bits), {}};
  // r^k − β(ζ): its coefficients are β(ζ) at x^0 and 1 at x^k.
  HpComplex beta(bits), zp(std::complex<double>(1, 0), bits);
  for (int a = 0; a < k.phi(); ++a, zp = zp * e.zeta) beta += zp.scaled(mpf_class(k.beta()[a], bits));
  std::vector<HpComplex> radical(k.k() + 1, HpComplex(bits));
  radical[0] = HpComplex(bits) - beta;
  radical[k.k()] = HpComplex(std::complex<double>(1, 0), bits);
  e.root = k.k() == 1 ? beta : newton_root(radical, k.root_value(), bits);
  HpComplex rp(std::complex<double>(1, 0), bits);
  for (int b = 0; b < k.k(); ++b, rp = rp * e.root) {
    HpComplex zq(std::complex<double>(1, 0), bits);
    for (int a = 0; a < k.phi(); ++a, zq = zq * e.zeta) e.basis.push_back(zq * rp);
  }
  return e;
}

}  // namespace tdisc::search::numeric
