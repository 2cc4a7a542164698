// Conversions between exact schemes and packed walker terms (see convert.hpp).
#include "src/search/flip/convert.hpp"

#include "base/error.hpp"
#include "src/search/run/checkpoint.hpp"

namespace tdisc::search::flip {

namespace {

// The representative of an integer coefficient in F as -1, 0, 1 (GF2: 0, 1).
template <class F>
int reduce_into(const Coeff& c, const std::string& where) {
  if (!c.is_real()) throw InputError(where + ": " + c.str() + " is not real; the flip graph runs over " + F::name);
  mpz_class den = c.re().get_den(), num = c.re().get_num();
  if constexpr (F::characteristic == 0) {
    if (den != 1 || num > 1 || num < -1)
      throw InputError(where + ": coefficient " + c.str() + " is not in {-1,0,1}; use --ring Z/Q with a modular walk, or GF2/GF3");
    return static_cast<int>(num.get_si());
  } else {
    const long p = F::characteristic;
    mpz_class inv;
    if (mpz_invert(inv.get_mpz_t(), den.get_mpz_t(), mpz_class(p).get_mpz_t()) == 0)
      throw InputError(where + ": coefficient " + c.str() + " has a denominator divisible by " + std::to_string(p));
    mpz_class r = (num * inv) % p;
    if (r < 0) r += p;
    long v = r.get_si();
    return v == 2 ? -1 : static_cast<int>(v);
  }
}

template <class F>
typename F::Vec row_vec(const CoeffMatrix& m, int r, const std::string& where) {
  typename F::Vec v = F::zero();
  for (int e = 0; e < m.cols(); ++e) F::set_entry(v, e, reduce_into<F>(m(r, e), where));
  return v;
}

template <class F>
void push_term(Terms<F>& t, typename F::Vec a, typename F::Vec b, typename F::Vec c, int sign) {
  if (F::is_zero(a) || F::is_zero(b) || F::is_zero(c)) return;
  sign *= F::normalize(a);
  sign *= F::normalize(b);
  sign *= F::normalize(c);
  t.f[0].push_back(a);
  t.f[1].push_back(b);
  t.f[2].push_back(c);
  t.sign.push_back(static_cast<std::int8_t>(F::has_signs ? sign : 1));
}

// Row r of a checkpoint's u, v or w: small integers only (a walk's coefficients are in {-1, 0, 1});
// get<int> of 1e300 would be undefined behaviour.
std::vector<int> json_row(const nlohmann::json& j, const char* key, int r) {
  std::vector<int> row;
  for (const nlohmann::json& x : j.at(key).at(r)) {
    if (!x.is_number_integer() || x.get<long long>() < -2 || x.get<long long>() > 2)
      throw BadCheckpointState("a walker's term holds " + x.dump() + ", not a coefficient in {-2..2}");
    row.push_back(x.get<int>());
  }
  return row;
}

}  // namespace

template <class F>
Terms<F> standard_terms(Format f) {
  Terms<F> t;
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) {
        typename F::Vec a = F::zero(), b = F::zero(), c = F::zero();
        F::set_entry(a, f.a_index(i, j), 1);
        F::set_entry(b, f.b_index(j, k), 1);
        F::set_entry(c, f.c_index(k, i), 1);
        push_term<F>(t, a, b, c, 1);
      }
  return t;
}

template <class F>
Terms<F> terms_from_scheme(const Scheme& s) {
  s.check_shape();
  Terms<F> t;
  for (int r = 0; r < s.rank(); ++r) {
    std::string where = "term " + std::to_string(r + 1);
    push_term<F>(t, row_vec<F>(s.u, r, where), row_vec<F>(s.v, r, where), row_vec<F>(s.w, r, where), 1);
  }
  return t;
}

template <class F>
Scheme scheme_from_terms(Format f, const Terms<F>& t) {
  Ring ring = F::characteristic == 2 ? Ring::GF2 : F::characteristic == 3 ? Ring::GF3 : Ring::ZT;
  Scheme s = Scheme::zeros(f, t.rank(), ring);
  for (int r = 0; r < t.rank(); ++r) {
    for (int e = 0; e < f.a_size(); ++e) s.u(r, e) = F::entry(t.f[0][r], e);
    for (int e = 0; e < f.b_size(); ++e) s.v(r, e) = F::entry(t.f[1][r], e);
    for (int e = 0; e < f.c_size(); ++e) s.w(r, e) = t.sign[r] * F::entry(t.f[2][r], e);
  }
  return s;
}

template <class F>
nlohmann::json terms_json(Format f, const Terms<F>& t) {
  nlohmann::json u = nlohmann::json::array(), v = nlohmann::json::array(), w = nlohmann::json::array();
  for (int r = 0; r < t.rank(); ++r) {
    std::vector<int> a, b, c;
    for (int e = 0; e < f.a_size(); ++e) a.push_back(F::entry(t.f[0][r], e));
    for (int e = 0; e < f.b_size(); ++e) b.push_back(F::entry(t.f[1][r], e));
    for (int e = 0; e < f.c_size(); ++e) c.push_back(t.sign[r] * F::entry(t.f[2][r], e));
    u.push_back(a), v.push_back(b), w.push_back(c);
  }
  return {{"u", u}, {"v", v}, {"w", w}};
}

template <class F>
Terms<F> terms_from_json(Format f, const nlohmann::json& j) {
  Terms<F> t;
  const size_t R = j.at("u").size();
  for (size_t r = 0; r < R; ++r) {
    typename F::Vec a = F::zero(), b = F::zero(), c = F::zero();
    auto ur = json_row(j, "u", r), vr = json_row(j, "v", r), wr = json_row(j, "w", r);
    if (static_cast<int>(ur.size()) != f.a_size() || static_cast<int>(vr.size()) != f.b_size() ||
        static_cast<int>(wr.size()) != f.c_size())
      throw BadCheckpointState("a walker's term " + std::to_string(r) + " does not have the shape of " + f.str());
    for (int e = 0; e < f.a_size(); ++e) F::set_entry(a, e, ur[e]);
    for (int e = 0; e < f.b_size(); ++e) F::set_entry(b, e, vr[e]);
    for (int e = 0; e < f.c_size(); ++e) F::set_entry(c, e, wr[e]);
    push_term<F>(t, a, b, c, 1);
  }
  return t;
}

#define TDISC_FLIP_CONVERT(F)                                                        \
  template Terms<F> standard_terms<F>(Format);                                       \
  template Terms<F> terms_from_scheme<F>(const Scheme&);                             \
  template Scheme scheme_from_terms<F>(Format, const Terms<F>&);                     \
  template nlohmann::json terms_json<F>(Format, const Terms<F>&);                    \
  template Terms<F> terms_from_json<F>(Format, const nlohmann::json&);
TDISC_FLIP_FIELDS(TDISC_FLIP_CONVERT)

}  // namespace tdisc::search::flip
