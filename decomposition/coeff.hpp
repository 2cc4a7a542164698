// Exact coefficients: Gaussian rationals a + b·i with a, b ∈ Q (GMP rationals). Every ring of
// DESIGN §1 embeds here; modular rings use integer representatives and reduce at verification.
#pragma once
#include <gmpxx.h>

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>

namespace tdisc {

class Coeff {
public:
  Coeff() = default;
  Coeff(long v) : re_(v) {}  // NOLINT: integers convert implicitly, as in mathematics
  Coeff(int v) : re_(v) {}   // NOLINT
  Coeff(mpq_class re, mpq_class im = 0) : re_(std::move(re)), im_(std::move(im)) {
    re_.canonicalize();
    im_.canonicalize();
  }

  // "-2", "1/2", "0.25", "1/2-1/2i", "i", "-1/2i", "3+2i". nullopt when malformed.
  static std::optional<Coeff> parse(std::string_view s);
  // The exact value of a double (every double is a dyadic rational); NaN/inf → nullopt.
  static std::optional<Coeff> from_double(double re, double im = 0.0);

  const mpq_class& re() const { return re_; }
  const mpq_class& im() const { return im_; }
  bool is_zero() const { return sgn(re_) == 0 && sgn(im_) == 0; }
  bool is_real() const { return sgn(im_) == 0; }
  bool is_integer() const;  // real with denominator 1
  bool is_ternary() const;  // in {-1, 0, 1}
  // lcm of the denominators of both parts (1 for Gaussian integers).
  mpz_class denominator() const;
  std::string str() const;  // canonical text, as written in native files
  double real_double() const { return re_.get_d(); }
  double imag_double() const { return im_.get_d(); }

  Coeff operator-() const { return Coeff(-re_, -im_); }
  Coeff& operator+=(const Coeff& o);
  Coeff& operator-=(const Coeff& o);
  Coeff& operator*=(const Coeff& o);
  Coeff& operator/=(const Coeff& o);  // o ≠ 0
  friend Coeff operator+(Coeff a, const Coeff& b) { return a += b; }
  friend Coeff operator-(Coeff a, const Coeff& b) { return a -= b; }
  friend Coeff operator*(Coeff a, const Coeff& b) { return a *= b; }
  friend Coeff operator/(Coeff a, const Coeff& b) { return a /= b; }
  friend bool operator==(const Coeff& a, const Coeff& b) { return a.re_ == b.re_ && a.im_ == b.im_; }
  friend bool operator!=(const Coeff& a, const Coeff& b) { return !(a == b); }
  // A total order (re, then im) so terms can be sorted canonically.
  friend bool operator<(const Coeff& a, const Coeff& b) {
    return a.re_ != b.re_ ? a.re_ < b.re_ : a.im_ < b.im_;
  }

private:
  mpq_class re_{0};
  mpq_class im_{0};
};

std::ostream& operator<<(std::ostream& os, const Coeff& c);

}  // namespace tdisc

namespace Eigen {
template <>
struct NumTraits<tdisc::Coeff> : GenericNumTraits<tdisc::Coeff> {
  using Real = tdisc::Coeff;
  using NonInteger = tdisc::Coeff;
  using Nested = tdisc::Coeff;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1,
         ReadCost = 4, AddCost = 16, MulCost = 32 };
  static int digits10() { return 0; }  // exact: no rounding digits to print
  static int max_digits10() { return 0; }
};
}  // namespace Eigen
