// Exact arithmetic in Q(ζ_n)(r), r^k = β: bivariate products reduced by r^k → β, then modulo Φ_n.
#include "decomposition/number_field.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "base/error.hpp"

namespace tdisc {

namespace {

constexpr int kMaxCyclotomicOrder = 1000;
constexpr int kMaxRadicalDegree = 64;
constexpr int kMaxElementPower = 4096;  // z^a, r^b in a file: reduced, but not from any height

// p / q for integer polynomials with q monic and dividing p exactly (lowest degree first).
std::vector<mpz_class> exact_quotient(std::vector<mpz_class> p, const std::vector<mpz_class>& q) {
  const size_t dq = q.size() - 1;
  std::vector<mpz_class> quotient(p.size() - dq, 0);
  for (size_t d = p.size(); d-- > dq;) {
    const mpz_class c = p[d];
    quotient[d - dq] = c;
    for (size_t j = 0; j <= dq; ++j) p[d - dq + j] -= c * q[j];
  }
  return quotient;
}

std::string rational_text(const mpq_class& q) { return q.get_str(); }

// "z^a*r^b" without the coefficient; "" for a = b = 0.
std::string monomial_text(int a, int b) {
  std::string s;
  if (a > 0) s = a == 1 ? "z" : "z^" + std::to_string(a);
  if (b > 0) s += (s.empty() ? "" : "*") + std::string(b == 1 ? "r" : "r^" + std::to_string(b));
  return s;
}

std::string strip_spaces(std::string_view t) {
  std::string s;
  for (char ch : t)
    if (ch != ' ' && ch != '\t') s += ch;
  return s;
}

// "r^3" → exponent 3 of symbol 'r'; "r" → 1. nullopt when the power is malformed.
std::optional<int> power_of(const std::string& factor) {
  if (factor.size() == 1) return 1;
  if (factor.size() < 3 || factor[1] != '^' || factor.size() > 6) return std::nullopt;  // ≤ 4 digits
  int e = 0;
  for (size_t x = 2; x < factor.size(); ++x) {
    if (factor[x] < '0' || factor[x] > '9') return std::nullopt;
    e = e * 10 + (factor[x] - '0');
  }
  return e;
}

}  // namespace

std::vector<mpz_class> cyclotomic_polynomial(int n) {
  TDISC_REQUIRE(n >= 1, "cyclotomic_polynomial needs n >= 1");
  std::vector<mpz_class> p(n + 1, 0);  // x^n − 1
  p[0] = -1;
  p[n] = 1;
  for (int d = 1; d < n; ++d)
    if (n % d == 0) p = exact_quotient(std::move(p), cyclotomic_polynomial(d));
  return p;
}

bool FieldElement::is_zero() const {
  for (const mpq_class& x : c)
    if (sgn(x) != 0) return false;
  return true;
}

NumberField NumberField::cyclotomic(int n) {
  if (n < 1 || n > kMaxCyclotomicOrder)
    throw InputError("a cyclotomic field Q(ζ_n) needs 1 <= n <= " + std::to_string(kMaxCyclotomicOrder) +
                     ", not " + std::to_string(n));
  NumberField f;
  f.n_ = n;
  f.cyclotomic_ = tdisc::cyclotomic_polynomial(n);
  f.beta_.assign(f.phi(), 0);
  f.beta_[0] = 1;
  return f;
}

NumberField NumberField::radical(int n, int k, std::string_view beta) {
  NumberField f = cyclotomic(n);
  if (k < 1 || k > kMaxRadicalDegree)
    throw InputError("a radical r^k = β needs 1 <= k <= " + std::to_string(kMaxRadicalDegree));
  auto b = f.parse_element(beta);  // k is still 1 here: β may only use z
  if (!b) throw InputError("the radicand '" + std::string(beta) + "' is not a polynomial in z = ζ_" + std::to_string(n));
  if (b->is_zero()) throw InputError("the radicand of r^k = β must not be zero");
  f.k_ = k;
  f.beta_ = b->c;
  return f;
}

std::string NumberField::name() const {
  std::string base = n_ <= 2 ? "Q" : n_ == 4 ? "Q(i)" : "Q(ζ_" + std::to_string(n_) + ")";
  if (k_ == 1) return base;
  const std::string inner = n_ <= 2 ? "" : n_ == 4 ? "i, " : "ζ_" + std::to_string(n_) + ", ";
  const bool rational_beta = std::all_of(beta_.begin() + 1, beta_.end(), [](const mpq_class& q) { return sgn(q) == 0; });
  const std::string z = n_ == 4 ? "i" : "ζ_" + std::to_string(n_);
  return "Q(" + inner + "r) with r^" + std::to_string(k_) + " = " + element_text(FieldElement{beta_}) +
         (rational_beta ? "" : " (z = " + z + ")");
}

std::string NumberField::spec() const {
  if (k_ == 1) return std::to_string(n_);
  return std::to_string(n_) + ":" + std::to_string(k_) + ":" + element_text(FieldElement{beta_});
}

NumberField NumberField::parse_spec(std::string_view spec) {
  const std::string s(spec);
  const size_t a = s.find(':');
  auto integer = [&](const std::string& t) {
    if (t.empty() || t.size() > 4 || t.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("field '" + s + "': expected N or N:K:BETA (Q(ζ_N), r^K = BETA), e.g. 12 or 12:3:1 + z^3");
    return std::stoi(t);
  };
  if (a == std::string::npos) return cyclotomic(integer(s));
  const size_t b = s.find(':', a + 1);
  if (b == std::string::npos) throw InputError("field '" + s + "': expected N:K:BETA, e.g. 12:3:1 + z^3");
  return radical(integer(s.substr(0, a)), integer(s.substr(a + 1, b - a - 1)), s.substr(b + 1));
}

FieldElement NumberField::zero() const { return FieldElement{std::vector<mpq_class>(degree(), 0)}; }

FieldElement NumberField::one() const {
  FieldElement e = zero();
  e.c[0] = 1;
  return e;
}

FieldElement NumberField::basis_element(int a, int b) const {
  TDISC_REQUIRE(a >= 0 && b >= 0 && b < k_, "basis_element out of range");
  std::vector<mpq_class> p(std::max(a + 1, phi()), 0);
  p[a] = 1;
  reduce_cyclotomic(p);
  FieldElement e = zero();
  for (int x = 0; x < phi(); ++x) e.c[b * phi() + x] = p[x];
  return e;
}

FieldElement NumberField::from_coeff(const Coeff& x) const {
  FieldElement e = zero();
  e.c[0] = x.re();
  if (sgn(x.im()) == 0) return e;
  if (n_ % 4 != 0) throw InputError("the coefficient " + x.str() + " needs i, which " + name() + " does not hold");
  FieldElement i = basis_element(n_ / 4, 0);
  for (int y = 0; y < degree(); ++y) e.c[y] += x.im() * i.c[y];
  return e;
}

FieldElement NumberField::add(const FieldElement& x, const FieldElement& y) const {
  FieldElement e = x;
  for (int z = 0; z < degree(); ++z) e.c[z] += y.c[z];
  return e;
}

FieldElement NumberField::sub(const FieldElement& x, const FieldElement& y) const {
  FieldElement e = x;
  for (int z = 0; z < degree(); ++z) e.c[z] -= y.c[z];
  return e;
}

void NumberField::reduce_cyclotomic(std::vector<mpq_class>& p) const {
  const int f = phi();
  for (int d = static_cast<int>(p.size()) - 1; d >= f; --d) {
    if (sgn(p[d]) == 0) continue;
    const mpq_class c = p[d];
    for (int j = 0; j <= f; ++j) p[d - f + j] -= c * cyclotomic_[j];
  }
  p.resize(f);
}

// rows[b] is a polynomial in z (any length); the product's r-powers b ≥ k fold back by r^k = β.
FieldElement NumberField::mul(const FieldElement& x, const FieldElement& y) const {
  const int f = phi();
  std::vector<std::vector<mpq_class>> rows(2 * k_ - 1, std::vector<mpq_class>(2 * f - 1, 0));
  for (int i = 0; i < degree(); ++i) {
    if (sgn(x.c[i]) == 0) continue;
    for (int j = 0; j < degree(); ++j)
      if (sgn(y.c[j]) != 0) rows[i / f + j / f][i % f + j % f] += x.c[i] * y.c[j];
  }
  for (auto& row : rows) reduce_cyclotomic(row);
  for (int b = 2 * k_ - 2; b >= k_; --b) {
    std::vector<mpq_class> folded(2 * f - 1, 0);
    for (int a = 0; a < f; ++a)
      if (sgn(rows[b][a]) != 0)
        for (int a2 = 0; a2 < f; ++a2) folded[a + a2] += rows[b][a] * beta_[a2];
    reduce_cyclotomic(folded);
    for (int a = 0; a < f; ++a) rows[b - k_][a] += folded[a];
  }
  FieldElement e = zero();
  for (int b = 0; b < k_; ++b)
    for (int a = 0; a < f; ++a) e.c[b * f + a] = rows[b][a];
  return e;
}

FieldElement NumberField::beta_element() const {
  FieldElement e = zero();
  for (int a = 0; a < phi(); ++a) e.c[a] = beta_[a];
  return e;
}

std::string NumberField::element_text(const FieldElement& x) const {
  std::string s;
  for (int idx = 0; idx < static_cast<int>(x.c.size()); ++idx) {
    const mpq_class& q = x.c[idx];
    if (sgn(q) == 0) continue;
    const std::string mono = monomial_text(idx % phi(), idx / phi());
    const mpq_class mag = abs(q);
    std::string term = mono.empty() ? rational_text(mag) : mag == 1 ? mono : rational_text(mag) + "*" + mono;
    if (s.empty()) s = sgn(q) < 0 ? "-" + term : term;
    else s += (sgn(q) < 0 ? " - " : " + ") + term;
  }
  return s.empty() ? "0" : s;
}

std::optional<FieldElement> NumberField::parse_element(std::string_view text) const {
  const std::string s = strip_spaces(text);
  if (s.empty() || s.size() > 100000) return std::nullopt;
  std::vector<std::vector<mpq_class>> rows(k_);  // r-power → polynomial in z of any length
  size_t pos = 0;
  while (pos < s.size()) {
    int sign = 1;
    if (s[pos] == '+' || s[pos] == '-') sign = s[pos++] == '-' ? -1 : 1;
    size_t end = s.find_first_of("+-", pos);
    const std::string term = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? s.size() : end;
    if (term.empty()) return std::nullopt;
    mpq_class coeff = sign;
    int za = 0, rb = 0;
    size_t f0 = 0;
    while (f0 <= term.size()) {
      size_t f1 = term.find('*', f0);
      const std::string factor = term.substr(f0, f1 == std::string::npos ? std::string::npos : f1 - f0);
      if (factor.empty()) return std::nullopt;
      if (factor[0] == 'z' || factor[0] == 'r' || factor == "i") {
        auto e = factor == "i" ? std::optional<int>(1) : power_of(factor);
        if (!e) return std::nullopt;
        if (factor == "i") {
          if (n_ % 4 != 0) return std::nullopt;
          za += n_ / 4;
        } else if (factor[0] == 'z') {
          za += *e;
        } else {
          rb += *e;
        }
      } else {
        auto c = Coeff::parse(factor);
        if (!c || !c->is_real()) return std::nullopt;
        coeff *= c->re();
      }
      if (f1 == std::string::npos) break;
      f0 = f1 + 1;
    }
    if (za > kMaxElementPower || rb > kMaxElementPower) return std::nullopt;
    // z^za reduced, times r^rb folded by r^k = β.
    std::vector<mpq_class> zp(std::max(za + 1, phi()), 0);
    zp[za] = coeff;
    reduce_cyclotomic(zp);
    FieldElement zpart = zero();
    for (int a = 0; a < phi(); ++a) zpart.c[a] = zp[a];
    FieldElement rpart = one();
    for (int b = 0; b < rb / k_; ++b) rpart = mul(rpart, beta_element());
    if (rb % k_ != 0) rpart = mul(rpart, basis_element(0, rb % k_));
    const FieldElement term_value = mul(zpart, rpart);
    for (size_t x = 0; x < rows.size(); ++x)
      for (int a = 0; a < phi(); ++a) {
        if (rows[x].empty()) rows[x].assign(phi(), 0);
        rows[x][a] += term_value.c[x * phi() + a];
      }
  }
  FieldElement e = zero();
  for (int b = 0; b < k_; ++b)
    if (!rows[b].empty())
      for (int a = 0; a < phi(); ++a) e.c[b * phi() + a] = rows[b][a];
  return e;
}

std::complex<double> NumberField::zeta_value() const { return std::polar(1.0, 2 * std::numbers::pi / n_); }

std::complex<double> NumberField::root_value() const {
  std::complex<double> b = 0, z = zeta_value(), zp = 1;
  for (int a = 0; a < phi(); ++a, zp *= z) b += beta_[a].get_d() * zp;
  return std::polar(std::pow(std::abs(b), 1.0 / k_), std::arg(b) / k_);
}

std::complex<double> NumberField::value(const FieldElement& x) const {
  const std::complex<double> z = zeta_value(), r = root_value();
  std::complex<double> v = 0, rp = 1;
  for (int b = 0; b < k_; ++b, rp *= r) {
    std::complex<double> zp = 1;
    for (int a = 0; a < phi(); ++a, zp *= z) v += x.c[b * phi() + a].get_d() * zp * rp;
  }
  return v;
}

}  // namespace tdisc
