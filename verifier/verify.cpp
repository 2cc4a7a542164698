// Proves or refutes a scheme over a ring from the exact scaled tensor, and names the first failing
// Brent equation with the terms that contribute to it.
#include "verifier/verify.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "verifier/brent.hpp"
#include "verifier/residues.hpp"

namespace tdisc {

namespace {

bool is_delta(const Format& f, long a, long b, long c) {
  int i = static_cast<int>(a / f.m), j = static_cast<int>(a % f.m);
  int j2 = static_cast<int>(b / f.p), k = static_cast<int>(b % f.p);
  int k2 = static_cast<int>(c / f.n), i2 = static_cast<int>(c % f.n);
  return j == j2 && k == k2 && i == i2;
}

bool vanishes(const mpz_class& v, long p) { return p == 0 ? v == 0 : mpz_class(v % p) == 0; }

mpz_class lookup(const std::vector<std::pair<long, mpz_class>>& entries, long idx) {
  auto it = std::lower_bound(entries.begin(), entries.end(), idx,
                             [](const auto& e, long i) { return e.first < i; });
  return it != entries.end() && it->first == idx ? it->second : mpz_class(0);
}

// Flat indices of the equations that fail over the ring (mod p when p > 0), in order.
std::vector<long> failing_indices(const ScaledResidual& r, long p) {
  std::vector<long> bad;
  for (const auto* part : {&r.re, &r.im})
    for (const auto& [idx, v] : *part)
      if (!vanishes(v, p)) bad.push_back(idx);
  std::sort(bad.begin(), bad.end());
  bad.erase(std::unique(bad.begin(), bad.end()), bad.end());
  return bad;
}

// The value the scheme gives to equation idx: expected + residual / L.
std::string value_text(const ScaledResidual& r, long idx, bool delta, long p) {
  mpz_class re = lookup(r.re, idx), im = lookup(r.im, idx);
  if (p == 0) return (Coeff(delta ? 1 : 0) + Coeff(mpq_class(re, r.scale), mpq_class(im, r.scale))).str();
  mpz_class inv, value;
  mpz_invert(inv.get_mpz_t(), mpz_class(r.scale % p).get_mpz_t(), mpz_class(p).get_mpz_t());
  value = ((delta ? 1 : 0) + re * inv) % p;
  if (value < 0) value += p;
  return value.get_str() + " (mod " + std::to_string(p) + ")";
}

BrentFailure describe_failure(const Scheme& s, const ScaledResidual& r, long idx, long p) {
  const Format& f = s.format;
  const long bc = static_cast<long>(f.b_size()) * f.c_size();
  const long a = idx / bc, b = (idx % bc) / f.c_size(), c = idx % f.c_size();
  BrentFailure x;
  x.i = static_cast<int>(a / f.m), x.j = static_cast<int>(a % f.m);
  x.j2 = static_cast<int>(b / f.p), x.k = static_cast<int>(b % f.p);
  x.k2 = static_cast<int>(c / f.n), x.i2 = static_cast<int>(c % f.n);
  const bool delta = is_delta(f, a, b, c);
  x.expected = delta ? "1" : "0";
  x.got = value_text(r, idx, delta, p);
  for (int t = 0; t < s.rank(); ++t)
    if (!s.u(t, a).is_zero() && !s.v(t, b).is_zero() && !s.w(t, c).is_zero()) x.terms.push_back(t);
  return x;
}

// The first failing equation and the count of failures, or nullopt when all hold.
std::optional<BrentFailure> first_failure(const Scheme& s, const ScaledResidual& r, long p) {
  std::vector<long> bad = failing_indices(r, p);
  if (bad.empty()) return std::nullopt;
  BrentFailure x = describe_failure(s, r, bad.front(), p);
  x.failing_equations = static_cast<long>(bad.size());
  return x;
}

// Residues prove a large scheme valid quickly: over GF(p) one contraction mod p, over Q enough primes.
// A failure is left to the exact path, which names the failing equation.
bool proven_by_residues(const Scheme& s, int characteristic) {
  if (characteristic > 0) return holds_mod_prime(s, characteristic);
  const auto quick = verify_by_residues(s);
  return quick && quick->valid;
}

}  // namespace

std::string BrentFailure::describe() const {
  std::string t = "Brent equation (a[" + std::to_string(i) + "][" + std::to_string(j) + "], b[" +
                  std::to_string(j2) + "][" + std::to_string(k) + "], c[" + std::to_string(k2) + "][" +
                  std::to_string(i2) + "]) sums to " + got + ", expected " + expected + "; terms";
  if (terms.empty()) t += " (none)";
  for (size_t q = 0; q < terms.size() && q < 12; ++q) t += " " + std::to_string(terms[q] + 1);
  if (terms.size() > 12) t += " …";
  t += " (1-based); " + std::to_string(failing_equations) + " equation(s) fail";
  return t;
}

Verdict verify(const Scheme& s, Ring over) {
  Verdict v;
  v.ring = over;
  v.equations = static_cast<long>(s.format.a_size()) * s.format.b_size() * s.format.c_size();
  if (!ring_holds(over, s)) {
    v.why_not = "a coefficient cannot be held in " + std::string(ring_name(over)) +
                " (the coefficients need " + std::string(ring_name(coefficient_ring(s))) + ")";
    return v;
  }
  if (residues_preferred(s) && proven_by_residues(s, ring_characteristic(over))) return v.valid = true, v;
  ScaledResidual t = scaled_residual(s);
  v.failure = first_failure(s, t, ring_characteristic(over));
  v.valid = !v.failure;
  if (v.failure) v.why_not = v.failure->describe();
  return v;
}

ModularVerdict verify_mod(const Scheme& s, long modulus) {
  ModularVerdict v;
  v.modulus = modulus;
  v.equations = static_cast<long>(s.format.a_size()) * s.format.b_size() * s.format.c_size();
  if (modulus < 2) {
    v.why_not = "modulus " + std::to_string(modulus) + " is below 2";
    return v;
  }
  if (coefficient_ring(s) == Ring::QI) {
    v.why_not = "a Gaussian coefficient cannot be held mod " + std::to_string(modulus);
    return v;
  }
  ScaledResidual t = scaled_residual(s);
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), t.scale.get_mpz_t(), mpz_class(modulus).get_mpz_t());
  if (g != 1) {
    v.why_not = "a denominator (common scale " + t.scale.get_str() + ") is not a unit mod " + std::to_string(modulus);
    return v;
  }
  v.failure = first_failure(s, t, modulus);
  v.valid = !v.failure;
  if (v.failure) v.why_not = v.failure->describe();
  return v;
}

std::optional<Ring> RingReport::best() const {
  if (valid_char0) return smallest;
  if (valid_mod2) return Ring::GF2;
  if (valid_mod3) return Ring::GF3;
  return std::nullopt;
}

std::string RingReport::describe() const {
  if (valid_char0) return "valid over " + std::string(ring_name(smallest));
  if (valid_mod2 && valid_mod3) return "valid mod 2 and mod 3 only";
  if (valid_mod2) return "valid mod 2 only";
  if (valid_mod3) return "valid mod 3 only";
  return "not valid over any ring";
}

RingReport classify(const Scheme& s) {
  RingReport rep;
  if (residues_preferred(s)) {
    auto quick = verify_by_residues(s);
    if (quick && quick->valid) {
      rep.valid_char0 = true;
      rep.smallest = coefficient_ring(s);
      rep.valid_mod2 = ring_holds(Ring::GF2, s);
      rep.valid_mod3 = ring_holds(Ring::GF3, s);
      return rep;
    }
    if (quick) {  // shown invalid over Q: what holds mod 2 and mod 3, by one contraction each
      rep.smallest = coefficient_ring(s);
      rep.valid_mod2 = ring_holds(Ring::GF2, s) && holds_mod_prime(s, 2);
      rep.valid_mod3 = ring_holds(Ring::GF3, s) && holds_mod_prime(s, 3);
      return rep;
    }
  }
  ScaledResidual t = scaled_residual(s);
  rep.valid_char0 = !first_failure(s, t, 0);
  rep.smallest = coefficient_ring(s);
  if (rep.valid_char0) {
    rep.valid_mod2 = ring_holds(Ring::GF2, s);
    rep.valid_mod3 = ring_holds(Ring::GF3, s);
    return rep;
  }
  rep.valid_mod2 = ring_holds(Ring::GF2, s) && !first_failure(s, t, 2);
  rep.valid_mod3 = ring_holds(Ring::GF3, s) && !first_failure(s, t, 3);
  return rep;
}

}  // namespace tdisc
