// AlphaEvolve's recipe terms in the seed-space Adam (recipe_terms.hpp): off, they leave a restart's
// trajectory exactly as before (whatever the seed); on, each one changes it, reproducibly from the
// restart's seed; the deterministic gradients match finite differences; culling ends a restart at
// cull_at without touching which point any restart starts from.
#include <catch2/catch.hpp>

#include <random>

#include "src/search/engine.hpp"
#include "src/search/numeric/restart.hpp"
#include "src/search/numeric/seed_adam.hpp"
#include "src/search/numeric/seed_space.hpp"
#include "tests/numeric/recording_reporter.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::numeric;

namespace {

Params short_adam() {
  Params p;
  p.adam_steps = 200;  // no convergence or stall within: every step runs
  p.adam_stall = 100000;
  p.converge_residual = 0;
  return p;
}

template <class S>
Vec<S> adam_from(const SeedSpace& s, const Params& p, unsigned long long seed) {
  std::mt19937_64 rng(5);
  Vec<S> theta0 = random_seeds<S>(s, 0.3, rng);
  return optimise_seeds<S>(s, matmul_tensor(s.format), p, theta0, [] { return false; }, seed).theta;
}

template <class S>
double distance(const Vec<S>& a, const Vec<S>& b) { return (a - b).cwiseAbs().maxCoeff(); }

// Each term alone, at a setting that acts within 200 steps.
std::vector<std::pair<const char*, Params>> each_term() {
  std::vector<std::pair<const char*, Params>> out;
  auto with = [&](const char* name, auto set) {
    Params p = short_adam();
    set(p.recipe);
    out.emplace_back(name, p);
  };
  with("grad_noise", [](RecipeTerms& r) { r.grad_noise = 1e-3; });
  with("param_noise", [](RecipeTerms& r) { r.param_noise = 1e-3; });
  with("target_noise", [](RecipeTerms& r) { r.target_noise = 1e-2; });
  with("hallucinate", [](RecipeTerms& r) { r.hallucinate = 0.05; });
  with("soft_clip", [](RecipeTerms& r) { r.soft_clip_period = 100, r.soft_clip_min = 0.05, r.soft_clip_max = 0.1; });
  with("discrete_weight", [](RecipeTerms& r) { r.discrete_weight = 0.1; });
  with("large_weight", [](RecipeTerms& r) { r.large_weight = 0.5, r.large_above = 0.1; });
  return out;
}

}  // namespace

TEST_CASE("recipe terms: off by default, the trajectory is the plain one whatever the seed", "[fast][recipe]") {
  const SeedSpace s = seed_space(builtin_ansatz("z3xz4", Format{3, 3, 3}, 24));
  const Params plain = short_adam();
  Params off = plain;  // every term's shape changed, every term off
  off.recipe.hallucinate_scale = 0.5, off.recipe.soft_clip_min = 0.01, off.recipe.soft_clip_max = 0.02;
  off.recipe.discrete_floor = 0.9, off.recipe.large_above = 0.01, off.recipe.cull_at = 0.1;
  const Vec<cdouble> a = adam_from<cdouble>(s, plain, 1), b = adam_from<cdouble>(s, off, 99);
  CHECK(distance(a, b) == 0.0);
}

TEST_CASE("recipe terms: each one changes the trajectory, reproducibly from the restart's seed", "[fast][recipe]") {
  const SeedSpace complex_space = seed_space(builtin_ansatz("z3xz4", Format{3, 3, 3}, 24));
  const SeedSpace real_space = seed_space(builtin_ansatz("z3", Format{2, 2, 2}, 7));
  const Vec<cdouble> plain_c = adam_from<cdouble>(complex_space, short_adam(), 1);
  const Vec<double> plain_r = adam_from<double>(real_space, short_adam(), 1);
  for (const auto& [name, p] : each_term()) {
    INFO(name);
    const Vec<cdouble> c1 = adam_from<cdouble>(complex_space, p, 1), c1again = adam_from<cdouble>(complex_space, p, 1);
    CHECK(distance(c1, plain_c) > 1e-9);
    CHECK(distance(c1, c1again) == 0.0);
    const Vec<double> r1 = adam_from<double>(real_space, p, 1);
    CHECK(distance(r1, plain_r) > 1e-9);
    const bool random = std::string(name).find("noise") != std::string::npos || std::string(name) == "hallucinate";
    if (random) CHECK(distance(adam_from<cdouble>(complex_space, p, 2), c1) > 1e-9);  // another seed, other draws
  }
}

TEST_CASE("recipe terms: the soft clip holds every real part near its threshold", "[fast][recipe]") {
  const SeedSpace s = seed_space(builtin_ansatz("z3xz4", Format{3, 3, 3}, 24));
  Params p = short_adam();
  p.recipe.soft_clip_period = 400;  // step 199 is near the middle of the swing: threshold ≈ soft_clip_min
  p.recipe.soft_clip_min = 0.1, p.recipe.soft_clip_max = 0.2, p.recipe.soft_clip_slope = 0;
  const Vec<cdouble> t = adam_from<cdouble>(s, p, 1);
  const double tau = soft_clip_threshold(p.recipe, 199);
  for (Eigen::Index k = 0; k < t.size(); ++k) {
    CHECK(std::abs(t(k).real()) <= tau + 1e-15);
    CHECK(std::abs(t(k).imag()) <= tau + 1e-15);
  }
  CHECK(adam_from<cdouble>(s, short_adam(), 1).cwiseAbs().maxCoeff() > tau);  // not vacuous
}

TEST_CASE("recipe terms: the large-value and target-noise gradients match finite differences", "[fast][recipe]") {
  const SeedSpace s = seed_space(builtin_ansatz("z3", Format{2, 2, 2}, 7));
  const MatmulTensor t = matmul_tensor(s.format);
  RecipeTerms r;
  r.large_weight = 0.7, r.large_above = 0.3, r.target_noise = 0.05;
  const RecipeStep step{&r, 42, 3, 100};
  // The terms' loss: large_weight·Σ max(0, |x| − above)² − 2⟨N, X⟩ (+ constants), N as hashed.
  auto terms_loss = [&](const Vec<double>& theta) {
    const Factors<double> x = expand(s, theta);
    double l = 0;
    for (int q = 0; q < 3; ++q)
      for (Eigen::Index k = 0; k < x.f[q].size(); ++k) l += r.large_weight * std::pow(std::max(0.0, std::abs(x.f[q].data()[k]) - r.large_above), 2);
    const Eigen::Index d0 = x.f[0].rows(), d1 = x.f[1].rows(), d2 = x.f[2].rows();
    for (Eigen::Index a = 0; a < d0; ++a)
      for (Eigen::Index b = 0; b < d1; ++b)
        for (Eigen::Index c = 0; c < d2; ++c) {
          double xabc = 0;
          for (int k = 0; k < x.rank(); ++k) xabc += x.f[0](a, k) * x.f[1](b, k) * x.f[2](c, k);
          l -= 2 * r.target_noise * recipe_gaussian(42, kTargetNoise, 3, (a * d1 + b) * d2 + c) * xabc;
        }
    return l;
  };
  std::mt19937_64 rng(3);
  const Vec<double> theta = random_seeds<double>(s, 0.6, rng);
  Vec<double> with, without;
  loss_and_gradient(s, t, theta, with, 0, 0.5, &step);
  loss_and_gradient(s, t, theta, without);
  const Vec<double> g = with - without;
  CHECK(g.norm() > 1e-3);
  const double h = 1e-6;
  for (Eigen::Index k = 0; k < theta.size(); ++k) {
    Vec<double> up = theta, down = theta;
    up(k) += h, down(k) -= h;
    CHECK(g(k) == Approx((terms_loss(up) - terms_loss(down)) / (2 * h)).margin(1e-6).epsilon(1e-5));
  }
}

TEST_CASE("recipe terms: the discretisation pulls each complex entry along its nearer part only", "[fast][recipe]") {
  RecipeTerms r;
  double g_re = 0, g_im = 0;
  entry_gradient(r, 1.0, 0.30, 0.52, true, g_re, g_im);  // Im is 0.02 from ½Z (Re 0.2): Im only, and from Z: Re 0.3 < Im 0.48
  CHECK(g_im == Approx(0.5));   // towards 0.5: d/dIm of |Im − 0.5| is +1, halved for ∂/∂x̄
  CHECK(g_re == Approx(0.5));   // the distance to Z: Re 0.3 nearer than Im 0.48
  CHECK(discrete_weight_at(RecipeTerms{}, 50, 100) == 0.0);
  r.discrete_weight = 0.1, r.discrete_floor = 0.25, r.discrete_cycles = 4;
  CHECK(discrete_weight_at(r, 0, 100) == 0.0);                        // the ramp starts at 0
  CHECK(discrete_weight_at(r, 50, 100) == Approx(0.1 * 0.5 * 1.0));   // φ = 0 at a cycle's start
  CHECK(discrete_weight_at(r, 74, 100) == Approx(0.1 * 0.74 * 0.25)); // annealed down to the floor
}

TEST_CASE("culling: a restart above cull_residual ends at cull_at, and no start point moves", "[fast][recipe]") {
  const Target target{Format{2, 2, 2}, 7, Ring::Q};
  const MatmulTensor t = matmul_tensor(target.format);
  const auto space = load_seed_space("z3", target.format, 7, -1);
  Params plain = resolve({{"ansatz", "z3"}, {"adam_steps", 1000}, {"converge_residual", 0}}, target);
  Params cull = plain;
  cull.recipe.cull_at = 0.3, cull.recipe.cull_residual = 1e-12;  // nothing is that close at step 300
  for (unsigned long long k = 0; k < 6; ++k) {
    RestartInput a{.tensor = t, .params = plain, .target = target, .seed = restart_seed(9, k)};
    RestartInput b{.tensor = t, .params = cull, .target = target, .seed = restart_seed(9, k)};
    a.ansatz = b.ansatz = space.get();
    CHECK(initial_seeds(a) == initial_seeds(b));
    const RestartOutcome out = run_restart(b);
    CHECK(out.stage == "culled");
    CHECK(out.steps == 300);
    CHECK_FALSE(out.scheme);
  }
}

TEST_CASE("culling: the engine counts culled restarts", "[fast][recipe]") {
  EngineConfig c;
  c.target = {Format{2, 2, 2}, 7, Ring::Q};
  c.seed = 11;
  c.threads = 1;
  c.params = {{"ansatz", "z3"}, {"device", "cpu"}, {"adam_steps", 600}, {"restarts", 12}, {"keep_going", true},
              {"cull_at", 0.25}, {"cull_residual", 0.5}};
  test::RecordingReporter culled(Ring::Q, 60);
  tdisc::search::make_engine("numeric")->run(c, culled);
  CHECK(culled.counters["culled"] > 0);
  CHECK(culled.counters["culled"] < culled.counters["restarts"]);
}
