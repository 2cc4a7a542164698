// Proves or refutes a scheme over a ring from the exact scaled tensor, and names the first failing
// Brent equation with the terms that contribute to it.
#include "verifier/verify.hpp"

#include "decomposition/error.hpp"
#include "verifier/brent.hpp"

namespace tdisc {

namespace {

bool is_delta(const Format& f, long a, long b, long c) {
  int i = static_cast<int>(a / f.m), j = static_cast<int>(a % f.m);
  int j2 = static_cast<int>(b / f.p), k = static_cast<int>(b % f.p);
  int k2 = static_cast<int>(c / f.n), i2 = static_cast<int>(c % f.n);
  return j == j2 && k == k2 && i == i2;
}

// Residual entry L·(tensor − T) at idx is zero over the ring (mod p when p > 0).
bool residual_vanishes(const ScaledTensor& t, long idx, bool delta, long p) {
  mpz_class re = t.re[static_cast<size_t>(idx)] - (delta ? t.scale : mpz_class(0));
  const mpz_class& im = t.im[static_cast<size_t>(idx)];
  if (p == 0) return re == 0 && im == 0;
  return mpz_class(re % p) == 0 && mpz_class(im % p) == 0;
}

std::string value_text(const ScaledTensor& t, long idx, long p) {
  if (p == 0) return Coeff(mpq_class(t.re[idx], t.scale), mpq_class(t.im[idx], t.scale)).str();
  mpz_class inv, value;
  mpz_invert(inv.get_mpz_t(), mpz_class(t.scale % p).get_mpz_t(), mpz_class(p).get_mpz_t());
  value = (t.re[idx] * inv) % p;
  if (value < 0) value += p;
  return value.get_str() + " (mod " + std::to_string(p) + ")";
}

BrentFailure describe_failure(const Scheme& s, const ScaledTensor& t, long a, long b, long c, long p) {
  const Format& f = s.format;
  BrentFailure x;
  x.i = static_cast<int>(a / f.m), x.j = static_cast<int>(a % f.m);
  x.j2 = static_cast<int>(b / f.p), x.k = static_cast<int>(b % f.p);
  x.k2 = static_cast<int>(c / f.n), x.i2 = static_cast<int>(c % f.n);
  x.expected = is_delta(f, a, b, c) ? "1" : "0";
  x.got = value_text(t, (a * f.b_size() + b) * f.c_size() + c, p);
  for (int r = 0; r < s.rank(); ++r)
    if (!s.u(r, a).is_zero() && !s.v(r, b).is_zero() && !s.w(r, c).is_zero()) x.terms.push_back(r);
  return x;
}

// Checks every equation; fills the first failure and the count of failures.
std::optional<BrentFailure> first_failure(const Scheme& s, const ScaledTensor& t, long p) {
  const Format& f = s.format;
  std::optional<BrentFailure> first;
  long failures = 0;
  for (long a = 0; a < f.a_size(); ++a)
    for (long b = 0; b < f.b_size(); ++b)
      for (long c = 0; c < f.c_size(); ++c) {
        long idx = (a * f.b_size() + b) * f.c_size() + c;
        if (residual_vanishes(t, idx, is_delta(f, a, b, c), p)) continue;
        if (!first) first = describe_failure(s, t, a, b, c, p);
        ++failures;
      }
  if (first) first->failing_equations = failures;
  return first;
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
  ScaledTensor t = scaled_tensor(s);
  v.failure = first_failure(s, t, ring_characteristic(over));
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
  ScaledTensor t = scaled_tensor(s);
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
