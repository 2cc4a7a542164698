// Number fields for exact schemes beyond Q(i): the cyclotomic fields Q(ζ_n) and their pure radical
// extensions K = Q(ζ_n)(r) with r^k = β, β ∈ Q(ζ_n). An element is Σ c_{a,b}·z^a·r^b with rational
// c, z = ζ_n, 0 ≤ a < φ(n), 0 ≤ b < k. Arithmetic is exact (GMP rationals) in the ring
// Q[z, r]/(Φ_n(z), r^k − β(z)); the fixed complex embedding z ↦ e^{2πi/n}, r ↦ the principal k-th root
// of β maps it into C, so an identity that holds in the ring holds in C (a scheme verified here is
// correct over C even where x^k − β is reducible and the ring is not a field).
#pragma once
#include <gmpxx.h>

#include <complex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decomposition/coeff.hpp"

namespace tdisc {

// Coefficients in the power basis: index b·φ(n) + a holds the coefficient of z^a·r^b.
struct FieldElement {
  std::vector<mpq_class> c;
  bool is_zero() const;
};

class NumberField {
public:
  // Q(ζ_n), n ≥ 1 (Q for n = 1, 2; Q(i) for n = 4). Throws InputError beyond n = 1000.
  static NumberField cyclotomic(int n);
  // Q(ζ_n)(r) with r^k = β; β is a polynomial in z (text as element_text writes it: "1 + z^3").
  static NumberField radical(int n, int k, std::string_view beta);

  int n() const { return n_; }
  int phi() const { return static_cast<int>(cyclotomic_.size()) - 1; }  // φ(n) = deg Φ_n
  int k() const { return k_; }
  int degree() const { return phi() * k_; }  // [K : Q] when x^k − β is irreducible
  const std::vector<mpq_class>& beta() const { return beta_; }           // φ(n) rationals (k = 1: 1)
  const std::vector<mpz_class>& cyclotomic_polynomial() const { return cyclotomic_; }  // Φ_n, low first
  // "Q(ζ_12)", "Q(ζ_12, r) with r^3 = 1 + z^3" (z = ζ_12).
  std::string name() const;
  // The spec a file stores and --field reads: "12" or "12:3:1 + z^3" (n, k, β).
  std::string spec() const;
  static NumberField parse_spec(std::string_view spec);  // throws InputError

  FieldElement zero() const;
  FieldElement one() const;
  FieldElement from_coeff(const Coeff& x) const;   // a + b·i; i needs 4 | n (InputError otherwise)
  FieldElement basis_element(int a, int b) const;  // z^a·r^b
  FieldElement beta_element() const;               // β = r^k
  FieldElement add(const FieldElement& x, const FieldElement& y) const;
  FieldElement sub(const FieldElement& x, const FieldElement& y) const;
  FieldElement mul(const FieldElement& x, const FieldElement& y) const;

  // "0", "1/2", "-z^2 + 1/4*z*r", the inverse of parse_element.
  std::string element_text(const FieldElement& x) const;
  // nullopt when malformed (unknown symbol, power of z ≥ φ(n) or of r ≥ k is reduced, not refused).
  std::optional<FieldElement> parse_element(std::string_view text) const;

  // The embedding in double precision: z = e^{2πi/n}, r = |β|^{1/k}·e^{i·arg(β)/k}.
  std::complex<double> zeta_value() const;
  std::complex<double> root_value() const;
  std::complex<double> value(const FieldElement& x) const;

  friend bool operator==(const NumberField& a, const NumberField& b) {
    return a.n_ == b.n_ && a.k_ == b.k_ && a.beta_ == b.beta_;
  }

private:
  int n_ = 1, k_ = 1;
  std::vector<mpz_class> cyclotomic_;  // Φ_n, coefficients from z^0 to z^φ(n) (monic)
  std::vector<mpq_class> beta_;        // r^k = β(z), φ(n) coefficients
  // Reduces a polynomial in z of any degree modulo Φ_n in place and truncates it to φ(n) terms.
  void reduce_cyclotomic(std::vector<mpq_class>& p) const;
};

// Φ_n with integer coefficients, lowest degree first.
std::vector<mpz_class> cyclotomic_polynomial(int n);

}  // namespace tdisc
