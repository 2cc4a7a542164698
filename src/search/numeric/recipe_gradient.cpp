// The recipe terms on the CPU: per factor entry through entry_gradient (recipe_terms.hpp), the target
// noise as a dense pass over the nm·mp·pn entries of T (the same hash values the device draws).
#include "src/search/numeric/recipe_gradient.hpp"

namespace tdisc::search::numeric {

namespace {

template <class S>
constexpr bool kComplex = !std::is_same_v<S, double>;

template <class S>
S conj_of(const S& z) {
  if constexpr (kComplex<S>) return std::conj(z);
  else return z;
}

// −N(a,b,c)·conj(the other two entries) into each factor, N redrawn for this step.
template <class S>
void target_noise_gradient(const RecipeStep& r, const Factors<S>& x, std::array<Mat<S>, 3>& g) {
  const Eigen::Index d0 = x.f[0].rows(), d1 = x.f[1].rows(), d2 = x.f[2].rows(), R = x.rank();
  for (Eigen::Index a = 0; a < d0; ++a)
    for (Eigen::Index b = 0; b < d1; ++b)
      for (Eigen::Index c = 0; c < d2; ++c) {
        const double n = r.terms->target_noise * recipe_gaussian(r.seed, kTargetNoise, r.step, (a * d1 + b) * d2 + c);
        for (Eigen::Index t = 0; t < R; ++t) {
          const S u = x.f[0](a, t), v = x.f[1](b, t), w = x.f[2](c, t);
          g[0](a, t) -= n * conj_of<S>(v * w);
          g[1](b, t) -= n * conj_of<S>(u * w);
          g[2](c, t) -= n * conj_of<S>(u * v);
        }
      }
}

}  // namespace

template <class S>
void hallucinate(const RecipeStep& r, Factors<S>& x) {
  if (!(r.terms->hallucinate > 0)) return;
  const long len = x.f[0].rows() + x.f[1].rows() + x.f[2].rows();
  for (int q = 0, off = 0; q < 3; off += static_cast<int>(x.f[q].rows()), ++q)
    for (Eigen::Index t = 0; t < x.rank(); ++t)
      for (Eigen::Index e = 0; e < x.f[q].rows(); ++e) {
        const long row = t * len + off + e;
        if (!hallucinated(*r.terms, r.seed, r.step, row)) continue;
        const double re = hallucination(*r.terms, r.seed, r.step, row, 0, kComplex<S>);
        if constexpr (kComplex<S>) x.f[q](e, t) = {re, hallucination(*r.terms, r.seed, r.step, row, 1, true)};
        else x.f[q](e, t) = re;
      }
}

template <class S>
void add_recipe_gradient(const RecipeStep& r, const Factors<S>& x, std::array<Mat<S>, 3>& g) {
  const RecipeTerms& terms = *r.terms;
  if (terms.target_noise > 0) target_noise_gradient(r, x, g);
  const double disc = discrete_weight_at(terms, r.step, r.steps);
  const long len = x.f[0].rows() + x.f[1].rows() + x.f[2].rows();
  for (int q = 0, off = 0; q < 3; off += static_cast<int>(x.f[q].rows()), ++q) {
    const double disc_q = disc / (6.0 * static_cast<double>(x.f[q].size()));
    for (Eigen::Index t = 0; t < x.rank(); ++t)
      for (Eigen::Index e = 0; e < x.f[q].rows(); ++e) {
        if (hallucinated(terms, r.seed, r.step, t * len + off + e)) {
          g[q](e, t) = S(0);
          continue;
        }
        const S z = x.f[q](e, t);
        double g_re = 0, g_im = 0;
        if constexpr (kComplex<S>) entry_gradient(terms, disc_q, z.real(), z.imag(), true, g_re, g_im);
        else entry_gradient(terms, disc_q, z, 0.0, false, g_re, g_im);
        if constexpr (kComplex<S>) g[q](e, t) += S(g_re, g_im);
        else g[q](e, t) += g_re;
      }
  }
}

template void hallucinate(const RecipeStep&, Factors<double>&);
template void hallucinate(const RecipeStep&, Factors<cdouble>&);
template void add_recipe_gradient(const RecipeStep&, const Factors<double>&, std::array<Mat<double>, 3>&);
template void add_recipe_gradient(const RecipeStep&, const Factors<cdouble>&, std::array<Mat<cdouble>, 3>&);

}  // namespace tdisc::search::numeric
