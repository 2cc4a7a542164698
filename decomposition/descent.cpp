// Galois descent from Q(i) to Q (descent.hpp): the identity-matching sandwich S → σ(S), its
// normalisation to a cocycle, Hilbert 90, and the normalised rational terms.
#include "decomposition/descent.hpp"

#include <random>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/sandwich_simplify.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc {

namespace {

constexpr unsigned long kNormSearchLimit = 100'000'000'000'000UL;  // 10¹⁴: up to 10⁷ trial squares

Coeff conj(const Coeff& c) { return Coeff(c.re(), -c.im()); }

CoeffMatrix conj(const CoeffMatrix& m) {
  CoeffMatrix out = m;
  for (Eigen::Index i = 0; i < out.size(); ++i) out.data()[i] = conj(m.data()[i]);
  return out;
}

// Whether m = μ·I for one scalar μ; μ is returned.
std::optional<Coeff> scalar_of(const CoeffMatrix& m) {
  const Coeff mu = m(0, 0);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (m(i, j) != (i == j ? mu : Coeff(0))) return std::nullopt;
  return mu;
}

// x² + y² = n for integers, by trying every x (n ≤ kNormSearchLimit); nullopt when there is none.
std::optional<std::pair<mpz_class, mpz_class>> two_squares(const mpz_class& n) {
  for (mpz_class x = 0; x * x <= n; ++x) {
    const mpz_class rest = n - x * x;
    const mpz_class y = sqrt(rest);
    if (y * y == rest) return std::pair{x, y};
  }
  return std::nullopt;
}

// The sandwich carrying each term S_r onto σ(S_r) (identity matching), exactly; nullopt when none.
std::optional<std::array<CoeffMatrix, 3>> identity_matching(const Scheme& s, const Scheme& conjugated) {
  const std::vector<stab::TermSpaces> src = stab::term_spaces(s), tgt = stab::term_spaces(conjugated);
  stab::Matching matched;
  for (int r = 0; r < s.rank(); ++r) matched.push_back({r, r});
  std::array<CoeffMatrix, 3> pqs;
  for (int k = 0; k < 3; ++k) {
    std::optional<CoeffMatrix> m = stab::exact_slot(src, tgt, matched, k, nullptr);
    if (!m) return std::nullopt;
    pqs[static_cast<size_t>(k)] = std::move(*m);
  }
  std::vector<int> identity(static_cast<size_t>(s.rank()));
  for (int r = 0; r < s.rank(); ++r) identity[static_cast<size_t>(r)] = r;
  if (!stab::exact_images(s, conjugated, pqs, identity)) return std::nullopt;
  return pqs;
}

// M scaled so that M·σ(M) = I, or the reason it cannot be (μ not a rational norm).
std::optional<CoeffMatrix> normalised_cocycle(const CoeffMatrix& m, const char* name, std::string& why_not) {
  const std::optional<Coeff> mu = scalar_of(exact_product(m, conj(m)));
  if (!mu || !mu->is_real())
    throw ContractError("descent: M·σ(M) is not a rational scalar for " + std::string(name) +
                        " although M fixes every term");
  const NormSplit split = split_norm(mu->re());
  if (!split.decided) {
    why_not = std::string(name) + "·σ(" + name + ") = " + mu->str() + "·I: too large to decide whether it is a norm";
    return std::nullopt;
  }
  if (!split.c) {
    why_not = std::string(name) + "·σ(" + name + ") = " + mu->str() +
              "·I and " + mu->str() + " is not a sum of two rational squares (a Brauer obstruction)";
    return std::nullopt;
  }
  CoeffMatrix out = m;
  for (Eigen::Index i = 0; i < out.size(); ++i) out.data()[i] /= *split.c;
  return out;
}

CoeffMatrix random_gaussian(int d, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> part(-1, 1);
  CoeffMatrix z(d, d);
  for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = Coeff(part(rng), part(rng));
  return z;
}

// h·S with terms normalised; nullopt when a coefficient stays non-real (h·S is not σ-fixed).
std::optional<Scheme> rational_image(const Scheme& s, const std::array<CoeffMatrix, 3>& h) {
  Scheme out = de_groote(s, h[0], h[1], h[2]);
  normalise_terms(out);
  out.ring = coefficient_ring(out);
  if (out.ring == Ring::QI) return std::nullopt;
  return out;
}

}  // namespace

Scheme conjugate(const Scheme& s) {
  Scheme out = s;
  out.u = conj(s.u);
  out.v = conj(s.v);
  out.w = conj(s.w);
  return out;
}

NormSplit split_norm(const mpq_class& q) {
  if (sgn(q) < 0) return {true, std::nullopt};
  if (sgn(q) == 0) return {true, Coeff(0)};
  // q = a/b = (a·b)/b²: a norm exactly when a·b = x² + y², and then c = (x + y·i)/b.
  const mpz_class ab = q.get_num() * q.get_den();
  if (ab > mpz_class(std::to_string(kNormSearchLimit))) return {false, std::nullopt};
  const auto xy = two_squares(ab);
  if (!xy) return {true, std::nullopt};
  return {true, Coeff(mpq_class(xy->first, q.get_den()), mpq_class(xy->second, q.get_den()))};
}

Descent descend_to_rationals(const Scheme& s, std::uint64_t seed, int tries) {
  Descent d;
  const Format f = s.format;
  const std::array<int, 3> sides = stab::slot_sizes(f);
  stab::require_supported(s);
  if (coefficient_ring(s) != Ring::QI) {
    d.rational = s;
    return d;
  }
  stab::require_determined(s, stab::term_spaces(s));
  const Scheme conjugated = conjugate(s);
  const std::optional<std::array<CoeffMatrix, 3>> g = identity_matching(s, conjugated);
  if (!g) {
    d.proved_none = true;
    d.why_not = "no sandwich carries each term onto its complex conjugate, so no rational scheme is equivalent";
    return d;
  }
  std::array<CoeffMatrix, 3> m;
  const char* names[3] = {"P", "Q", "S"};
  for (size_t k = 0; k < 3; ++k) {
    std::optional<CoeffMatrix> mk = normalised_cocycle((*g)[k], names[k], d.why_not);
    if (!mk) {
      d.proved_none = d.why_not.find("too large") == std::string::npos;
      return d;
    }
    m[k] = std::move(*mk);
  }
  d.cocycle = Isotropy{false, 0, m[0], m[1], m[2]};
  std::mt19937_64 rng(seed);
  std::optional<Sparsity> best;
  for (d.attempts = 0; d.attempts < tries;) {
    ++d.attempts;
    std::array<CoeffMatrix, 3> h;
    bool invertible = true;
    for (size_t k = 0; k < 3; ++k) {
      const CoeffMatrix z = random_gaussian(sides[k], rng);
      h[k] = z + exact_product(conj(z), m[k]);  // σ(h)·M = h: Hilbert 90
      invertible = invertible && stab::exact_rank(h[k]) == sides[k];
    }
    if (!invertible) continue;
    std::optional<Scheme> r = rational_image(s, h);
    if (!r) throw ContractError("descent: h·S is not rational although σ(h)·g = h");
    if (const Sparsity score = sparsity(*r); !best || score < *best) {
      best = score;
      d.rational = std::move(*r);
      d.h = Isotropy{false, 0, h[0], h[1], h[2]};
    }
  }
  if (!d.rational) d.why_not = "every Z tried gave a singular h (try more --tries or another --seed)";
  return d;
}

}  // namespace tdisc
