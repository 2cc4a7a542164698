// Complex numbers of GMP floats for refining numerical schemes far beyond double precision (issue 25,
// 3b): a numerical solution is refined to a few hundred digits before its coordinates are recognised
// as algebraic numbers. Precision is explicit: every value carries the bits it was made with.
#pragma once
#include <gmpxx.h>

#include <complex>

#include "decomposition/coeff.hpp"
#include "decomposition/number_field.hpp"

namespace tdisc::search::numeric {

struct HpComplex {
  mpf_class re, im;

  HpComplex(unsigned bits = 64) : re(0, bits), im(0, bits) {}
  HpComplex(std::complex<double> z, unsigned bits) : re(z.real(), bits), im(z.imag(), bits) {}
  HpComplex(const Coeff& c, unsigned bits);  // exact rationals rounded once to `bits`

  bool is_zero() const { return sgn(re) == 0 && sgn(im) == 0; }
  std::complex<double> to_double() const { return {re.get_d(), im.get_d()}; }
  HpComplex& operator+=(const HpComplex& o);
  HpComplex& operator-=(const HpComplex& o);
  HpComplex operator*(const HpComplex& o) const;
  HpComplex operator+(const HpComplex& o) const;
  HpComplex operator-(const HpComplex& o) const;
  HpComplex scaled(const mpf_class& s) const;
  HpComplex inverse() const;
  mpf_class norm() const;  // |z|²
};

// |z| ≤ 2^exponent with exponent the smallest such integer (a cheap magnitude for stopping tests).
long magnitude_exponent(const HpComplex& z);

// The embedding of a number field (decomposition/number_field.hpp) at `bits`: ζ_n and r refined by
// Newton's method from their double values, and the basis values z^a·r^b in the element order.
struct HpEmbedding {
  HpComplex zeta, root;
  std::vector<HpComplex> basis;  // degree() values, index b·φ(n) + a
};
HpEmbedding hp_embedding(const NumberField& k, unsigned bits);

}  // namespace tdisc::search::numeric
