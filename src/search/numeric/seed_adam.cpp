// Adam in seed space (Kingma–Ba 2015) on the real view of θ (a complex entry is two reals), checked
// every 50 steps against the dense residual; then the seed-space lattice pull (AlphaEvolve 2025's
// discretisation loss, here a plain squared distance to ½·Z or ½·Z[i]).
#include "src/search/numeric/seed_adam.hpp"

#include <cmath>

namespace tdisc::search::numeric {

namespace {

template <class S>
Eigen::Map<Eigen::VectorXd> real_view(Vec<S>& v) {
  return {reinterpret_cast<double*>(v.data()), v.size() * static_cast<Eigen::Index>(sizeof(S) / sizeof(double))};
}

template <class S>
struct Adam {
  Eigen::VectorXd m, v;
  long t = 0;
  explicit Adam(Eigen::Index n) : m(Eigen::VectorXd::Zero(n)), v(Eigen::VectorXd::Zero(n)) {}
  void step(Vec<S>& theta, Vec<S>& grad, double lr) {
    constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-12;
    auto x = real_view(theta);
    auto g = real_view(grad);
    ++t;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g.cwiseAbs2();
    const double c1 = 1 - std::pow(b1, static_cast<double>(t)), c2 = 1 - std::pow(b2, static_cast<double>(t));
    x.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
  }
};

// Gradient noise before the moments (Neelakantan et al. 2015), one draw per real component.
void add_gradient_noise(const RecipeTerms& r, unsigned long long seed, long k, Eigen::Map<Eigen::VectorXd> g) {
  if (!(r.grad_noise > 0)) return;
  for (Eigen::Index j = 0; j < g.size(); ++j) g(j) += r.grad_noise * recipe_gaussian(seed, kGradNoise, k, j);
}

// After the update: the decaying parameter noise, then the periodic soft clip, per real component.
void perturb_and_clip(const RecipeTerms& r, unsigned long long seed, long k, long K, Eigen::Map<Eigen::VectorXd> x) {
  const double sigma = param_sigma(r, k, K);
  if (sigma > 0)
    for (Eigen::Index j = 0; j < x.size(); ++j) x(j) += sigma * recipe_gaussian(seed, kParamNoise, k, j);
  if (r.soft_clip_period <= 0) return;
  const double tau = soft_clip_threshold(r, k);
  for (Eigen::Index j = 0; j < x.size(); ++j) x(j) = soft_clip(x(j), tau, r.soft_clip_slope);
}

template <class S>
double dense_residual(const SeedSpace& s, const MatmulTensor& t, const Vec<S>& theta) {
  return residual(t, expand(s, theta));
}

}  // namespace

template <class S>
Vec<S> random_seeds(const SeedSpace& s, double scale, std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, scale);
  Vec<S> theta(s.parameters);
  for (Eigen::Index k = 0; k < theta.size(); ++k) {
    if constexpr (std::is_same_v<S, double>) theta(k) = n(rng);
    else theta(k) = {n(rng) / std::sqrt(2.0), n(rng) / std::sqrt(2.0)};
  }
  return theta;
}

template <class S>
SeedRun<S> optimise_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, Vec<S> theta0,
                          const std::function<bool()>& stopped, unsigned long long seed) {
  SeedRun<S> out{std::move(theta0)};
  Adam<S> adam(real_view(out.theta).size());
  Vec<S> grad;
  const long K = p.adam_steps, slow_from = static_cast<long>(std::llround(p.adam_slow_from * static_cast<double>(K)));
  double best = INFINITY;
  long best_at = 0;
  const RecipeTerms& terms = p.recipe;
  RecipeStep step{&terms, seed, 0, K};
  const RecipeStep* in_loss = terms.any_loss_term() ? &step : nullptr;
  for (long k = 0; k < K; ++k) {
    out.steps = k + 1;
    step.step = k;
    loss_and_gradient(s, t, out.theta, grad, 0, 0.5, in_loss);
    add_gradient_noise(terms, seed, k, real_view(grad));
    adam.step(out.theta, grad, k < slow_from ? p.adam_lr : p.adam_lr / 10);
    perturb_and_clip(terms, seed, k, K, real_view(out.theta));
    if (k % 50 != 49) continue;
    const double r = dense_residual(s, t, out.theta);
    if (!std::isfinite(r)) break;
    if (r < best * 0.99) best = r, best_at = k;
    if (cull_check(terms, k, K) && r > terms.cull_residual) {
      out.culled = true;
      break;
    }
    if (r < p.converge_residual || k - best_at > p.adam_stall || stopped()) break;
  }
  out.residual = dense_residual(s, t, out.theta);
  if (!out.culled) pull_seeds(s, t, p, out, stopped);
  return out;
}

template <class S>
void pull_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, SeedRun<S>& out,
                const std::function<bool()>& stopped) {
  if (p.ansatz_pull <= 0 || !(out.residual <= p.discretise_below) || stopped()) return;
  // The pull: weight ramped geometrically, Adam restarted at the slow step size, then relaxation.
  out.pulled = true;
  Vec<S> grad;
  Adam<S> pull_adam(real_view(out.theta).size());
  const double step = p.lattice == Lattice::Ternary || p.lattice == Lattice::Integer ? 1.0 : 0.5;
  const long L = p.lattice_iterations, relax = p.relax_iterations;
  for (long k = 0; k < L + relax && !stopped(); ++k, ++out.steps) {
    const double f = L > 1 ? std::min(1.0, static_cast<double>(k) / static_cast<double>(L - 1)) : 1.0;
    const double w = k < L ? p.lattice_weight_start * std::pow(p.ansatz_pull / p.lattice_weight_start, f) : 0.0;
    loss_and_gradient(s, t, out.theta, grad, w, step);
    pull_adam.step(out.theta, grad, p.adam_lr / 10);
  }
  out.residual = dense_residual(s, t, out.theta);
}

template Vec<double> random_seeds(const SeedSpace&, double, std::mt19937_64&);
template Vec<cdouble> random_seeds(const SeedSpace&, double, std::mt19937_64&);
template SeedRun<double> optimise_seeds(const SeedSpace&, const MatmulTensor&, const Params&, Vec<double>,
                                        const std::function<bool()>&, unsigned long long);
template void pull_seeds(const SeedSpace&, const MatmulTensor&, const Params&, SeedRun<double>&,
                         const std::function<bool()>&);
template void pull_seeds(const SeedSpace&, const MatmulTensor&, const Params&, SeedRun<cdouble>&,
                         const std::function<bool()>&);
template SeedRun<cdouble> optimise_seeds(const SeedSpace&, const MatmulTensor&, const Params&, Vec<cdouble>,
                                         const std::function<bool()>&, unsigned long long);

}  // namespace tdisc::search::numeric
