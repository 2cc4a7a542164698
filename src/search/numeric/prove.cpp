// Steps 4–5 of prove_numerical: each refined coordinate recognised in K, then the exact expansion and
// the verifier over K.
#include "src/search/numeric/prove.hpp"

#include <algorithm>
#include <cmath>

#include "src/search/numeric/integer_relation.hpp"
#include "src/search/numeric/prove_refine.hpp"
#include "verifier/field_verify.hpp"

namespace tdisc::search::numeric {

namespace {

// Groups of basis indices to try, smallest first: one power r^b at a time, then the classes
// b ≡ c (mod m) for the divisors m of k from the largest down to 1 (everything).
std::vector<std::vector<int>> basis_classes(const NumberField& k) {
  std::vector<std::vector<int>> classes;
  for (int m = k.k(); m >= 1; --m) {
    if (k.k() % m != 0) continue;
    for (int c = 0; c < m; ++c) {
      std::vector<int> idx;
      for (int b = c; b < k.k(); b += m)
        for (int a = 0; a < k.phi(); ++a) idx.push_back(b * k.phi() + a);
      classes.push_back(std::move(idx));
    }
  }
  return classes;
}

// The largest coefficient for which a chance relation among d values known to `bits` bits is
// unlikely (below 2^-64): (2H)^d·2^(-2·(bits−16)) ≤ 2^-64.
mpz_class coefficient_bound(unsigned bits, size_t d) {
  const long e = std::clamp((2L * (static_cast<long>(bits) - 16) - 64) / static_cast<long>(d) - 1, 1L, 40L);
  return mpz_class(1) << static_cast<unsigned>(e);
}

std::optional<FieldElement> recognise(const HpComplex& x, const NumberField& k, const HpEmbedding& emb,
                                      unsigned bits) {
  if (magnitude_exponent(x) < -static_cast<long>(bits) / 2) return k.zero();
  for (const std::vector<int>& cls : basis_classes(k)) {
    std::vector<HpComplex> v{x};
    for (int idx : cls) v.push_back(emb.basis[idx]);
    auto rel = integer_relation(v, bits, coefficient_bound(bits, v.size()));
    if (!rel) continue;
    FieldElement e = k.zero();
    for (size_t j = 0; j < cls.size(); ++j) {
      e.c[cls[j]] = mpq_class(-(*rel)[j + 1], (*rel)[0]);
      e.c[cls[j]].canonicalize();
    }
    return e;
  }
  return std::nullopt;
}

// A field for refined coordinates: over the base C = Q(ζ_n), each coordinate x not in C is raised to
// the powers k = 2 … max_root until x^k is recognised in C; the largest such k (the coordinate that
// needs the deepest root) gives K = C(r), r^k = x^k. nullopt when no coordinate leaves C or none is
// a pure radical over it.
std::optional<NumberField> discover_field(const std::vector<HpComplex>& theta, int n, int max_root, unsigned bits,
                                          const std::function<void(const std::string&)>& log) {
  const NumberField base = NumberField::cyclotomic(n);
  const HpEmbedding emb = hp_embedding(base, bits);
  int best_k = 1;
  FieldElement best_beta;
  for (size_t j = 0; j < theta.size(); ++j) {
    if (recognise(theta[j], base, emb, bits)) continue;
    HpComplex power = theta[j];
    for (int k = 2; k <= max_root; ++k) {
      power = power * theta[j];
      auto beta = recognise(power, base, emb, bits - 8 * static_cast<unsigned>(k));
      if (!beta) continue;
      if (k > best_k) {
        best_k = k;
        best_beta = *beta;
        if (log) log("coordinate " + std::to_string(j) + " is a root of x^" + std::to_string(k) + " = " +
                     base.element_text(*beta) + " over " + base.name());
      }
      break;
    }
  }
  if (best_k == 1) return std::nullopt;
  return NumberField::radical(n, best_k, base.element_text(best_beta));
}

// The exact scheme of seed coordinates in K: x_t = E_t·θ_o with E_t = A_g·B_o exact in Q(i) ⊂ K.
FieldScheme expand_over(const SeedSpace& s, const std::vector<FieldElement>& theta, const NumberField& k) {
  const Format& f = s.format;
  const int na = f.a_size(), nb = f.b_size(), nc = f.c_size();
  FieldScheme out{f, k, {}, {}, {}, {}};
  const std::vector<CoeffMatrix> maps = exact_term_maps(s);
  for (size_t t = 0; t < maps.size(); ++t) {
    const CoeffMatrix& m = maps[t];  // (nm+mp+pn) × d_o
    std::vector<FieldElement> x(static_cast<size_t>(na + nb + nc), k.zero());
    for (int r = 0; r < m.rows(); ++r)
      for (int c = 0; c < m.cols(); ++c)
        if (!m(r, c).is_zero()) x[r] = k.add(x[r], k.mul(k.from_coeff(m(r, c)), theta[s.term_offset[t] + c]));
    out.u.insert(out.u.end(), x.begin(), x.begin() + na);
    out.v.insert(out.v.end(), x.begin() + na, x.begin() + na + nb);
    out.w.insert(out.w.end(), x.begin() + na + nb, x.end());
  }
  return out;
}

}  // namespace

ProofOutcome prove_numerical(const SeedSpace& s, const Vec<cdouble>& theta0, const std::optional<NumberField>& given,
                             const ProveOptions& options) {
  auto log = [&](const std::string& line) {
    if (options.log) options.log(line);
  };
  ProofOutcome out;
  out.coordinates = s.parameters;
  Vec<cdouble> theta = theta0;
  std::vector<int> all(s.parameters);
  for (int j = 0; j < s.parameters; ++j) all[j] = j;
  out.double_residual = gauss_newton(s, theta, all, 8, 1e-14);
  log("refined in double: residual " + std::to_string(out.double_residual));
  if (out.double_residual > 1e-10) {
    out.why_not = "Gauss–Newton did not converge (residual " + std::to_string(out.double_residual) + "): not a solution";
    return out;
  }
  GaugeFix g = fix_gauge(s, theta, 1e-14);
  out.family_dimension = g.family_dimension;
  log("solution family of dimension " + std::to_string(g.family_dimension) + "; " + std::to_string(g.fixed.size()) +
      " coordinates moved to 1, residual " + std::to_string(g.residual) + ", conditioning " +
      std::to_string(g.conditioning));
  if (g.residual > 1e-10 || g.conditioning < 1e-9) {
    out.why_not = g.residual > 1e-10 ? "the gauge continuation lost the solution"
                                     : "the point is not isolated after fixing the gauge";
    return out;
  }
  const unsigned bits = static_cast<unsigned>(std::ceil(options.digits * std::log2(10.0))) + 64;
  HpRefinement hp = refine_hp(s, theta, g, bits);
  log("refined to 2^" + std::to_string(hp.residual_exponent) + " in " + std::to_string(hp.iterations) + " steps");
  if (hp.residual_exponent > -static_cast<long>(bits) + 64) {
    out.why_not = "the refinement stalled at 2^" + std::to_string(hp.residual_exponent);
    return out;
  }
  std::optional<NumberField> found = given;
  if (!found) found = discover_field(hp.theta, options.auto_cyclotomic, options.auto_max_root, bits - 64, options.log);
  if (!found) found = NumberField::cyclotomic(options.auto_cyclotomic);
  const NumberField& k = *found;
  out.field = k;
  log("field: " + k.name());
  const HpEmbedding emb = hp_embedding(k, bits);
  std::vector<FieldElement> exact;
  for (int j = 0; j < s.parameters; ++j) {
    auto e = recognise(hp.theta[j], k, emb, bits - 64);
    if (!e) {
      out.why_not = "coordinate " + std::to_string(j) + " (" + std::to_string(hp.theta[j].to_double().real()) + ", " +
                    std::to_string(hp.theta[j].to_double().imag()) + ") is not recognised in " + k.name();
      log(out.why_not);
      continue;
    }
    exact.push_back(std::move(*e));
    ++out.recognised;
  }
  log("recognised " + std::to_string(out.recognised) + " of " + std::to_string(out.coordinates) + " coordinates in " +
      k.name());
  if (out.recognised < out.coordinates) return out;
  FieldScheme scheme = expand_over(s, exact, k);
  FieldVerdict v = verify_over_field(scheme);
  if (!v.valid) {
    out.why_not = "the exact expansion fails " + std::to_string(v.failing_equations) + " equations over " + v.field +
                  " (" + v.first_failure + ")";
    return out;
  }
  out.scheme = std::move(scheme);
  return out;
}

}  // namespace tdisc::search::numeric
