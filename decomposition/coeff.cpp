// Parsing, printing and arithmetic of exact Gaussian-rational coefficients.
#include "decomposition/coeff.hpp"

#include <cctype>
#include <cmath>
#include <ostream>

#include "decomposition/scheme_limits.hpp"

namespace tdisc {

namespace {

// An unsigned rational: "3", "3/4", "0.25", "2.". nullopt when malformed.
// Digits are read in base 10 always: GMP's default base 0 reads "010" as octal 8 and throws on
// "08" (both found by fuzzing: a silently wrong coefficient, and std::invalid_argument).
std::optional<mpq_class> parse_unsigned_rational(std::string_view s) {
  if (s.empty()) return std::nullopt;
  auto digits = [](std::string_view d) {
    if (d.empty()) return false;
    for (char c : d)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
  };
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    auto num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!digits(num) || !digits(den)) return std::nullopt;
    mpz_class d(std::string(den), 10);
    if (d == 0) return std::nullopt;
    mpq_class q(mpz_class(std::string(num), 10), d);
    q.canonicalize();
    return q;
  }
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    auto ip = s.substr(0, dot), fp = s.substr(dot + 1);
    if ((!ip.empty() && !digits(ip)) || (!fp.empty() && !digits(fp)) || (ip.empty() && fp.empty()))
      return std::nullopt;
    mpz_class scale;
    mpz_ui_pow_ui(scale.get_mpz_t(), 10, fp.size());
    mpz_class whole(ip.empty() ? std::string("0") : std::string(ip), 10);
    mpz_class frac(fp.empty() ? std::string("0") : std::string(fp), 10);
    mpq_class q(whole * scale + frac, scale);
    q.canonicalize();
    return q;
  }
  if (!digits(s)) return std::nullopt;
  return mpq_class(mpz_class(std::string(s), 10));
}

// A signed real part, or an imaginary part ending in 'i' with an optional magnitude.
std::optional<mpq_class> parse_part(std::string_view s, bool imaginary) {
  int sign = 1;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (imaginary) {
    if (s.empty() || s.back() != 'i') return std::nullopt;
    s.remove_suffix(1);
    if (!s.empty() && s.back() == '*') s.remove_suffix(1);
    if (s.empty()) return mpq_class(sign);
  }
  auto q = parse_unsigned_rational(s);
  if (!q) return std::nullopt;
  return sign < 0 ? mpq_class(-*q) : *q;
}

std::string part_text(const mpq_class& q) { return q.get_str(); }

}  // namespace

std::optional<Coeff> Coeff::parse(std::string_view s) {
  if (s.size() > kMaxCoefficientChars) return std::nullopt;  // see limits.hpp
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  if (s.back() != 'i' && s.back() != 'I') {
    auto re = parse_part(s, false);
    if (!re) return std::nullopt;
    return Coeff(*re);
  }
  std::string t(s);
  t.back() = 'i';
  // Split at the last sign that is not the first character and not after 'e' (no exponents here).
  size_t split = std::string::npos;
  for (size_t k = t.size(); k-- > 1;)
    if (t[k] == '+' || t[k] == '-') {
      split = k;
      break;
    }
  if (split == std::string::npos) {
    auto im = parse_part(t, true);
    if (!im) return std::nullopt;
    return Coeff(mpq_class(0), *im);
  }
  auto re = parse_part(std::string_view(t).substr(0, split), false);
  auto im = parse_part(std::string_view(t).substr(split), true);
  if (!re || !im) return std::nullopt;
  return Coeff(*re, *im);
}

std::optional<Coeff> Coeff::from_double(double re, double im) {
  if (!std::isfinite(re) || !std::isfinite(im)) return std::nullopt;
  return Coeff(mpq_class(re), mpq_class(im));
}

bool Coeff::is_integer() const { return is_real() && re_.get_den() == 1; }

bool Coeff::is_ternary() const { return is_integer() && abs(re_) <= 1; }

mpz_class Coeff::denominator() const { return lcm(re_.get_den(), im_.get_den()); }

std::string Coeff::str() const {
  if (is_real()) return part_text(re_);
  std::string im;
  if (im_ == 1) im = "i";
  else if (im_ == -1) im = "-i";
  else im = part_text(im_) + "i";
  if (sgn(re_) == 0) return im;
  return part_text(re_) + (sgn(im_) > 0 ? "+" : "") + im;
}

Coeff& Coeff::operator+=(const Coeff& o) {
  re_ += o.re_;
  im_ += o.im_;
  return *this;
}

Coeff& Coeff::operator-=(const Coeff& o) {
  re_ -= o.re_;
  im_ -= o.im_;
  return *this;
}

Coeff& Coeff::operator*=(const Coeff& o) {
  if (is_real() && o.is_real()) {
    re_ *= o.re_;
    return *this;
  }
  mpq_class r = re_ * o.re_ - im_ * o.im_;
  mpq_class i = re_ * o.im_ + im_ * o.re_;
  re_ = std::move(r);
  im_ = std::move(i);
  return *this;
}

Coeff& Coeff::operator/=(const Coeff& o) {
  if (o.is_real()) {
    re_ /= o.re_;
    im_ /= o.re_;
    return *this;
  }
  mpq_class norm = o.re_ * o.re_ + o.im_ * o.im_;
  mpq_class r = (re_ * o.re_ + im_ * o.im_) / norm;
  mpq_class i = (im_ * o.re_ - re_ * o.im_) / norm;
  re_ = std::move(r);
  im_ = std::move(i);
  return *this;
}

std::ostream& operator<<(std::ostream& os, const Coeff& c) { return os << c.str(); }

}  // namespace tdisc
