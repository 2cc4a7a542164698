// Seed-space Adam on the GPU against the CPU (on a machine with a GPU; run_gpu_tests.sh reports
// skipped elsewhere): the same starts reach the same θ after the same steps, and the engine finds an
// exact 2x2:7 inside z3 on the device.
#include <catch2/catch.hpp>

#include "src/search/engine.hpp"
#include "src/search/numeric/seed_adam.hpp"
#include "src/search/numeric/seed_batch.hpp"
#include "tests/numeric/recording_reporter.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::numeric;

namespace {

template <class S>
void compare_with_cpu(const char* name, Format f, int rank, int starts, const RecipeTerms& terms = {}) {
  const SeedSpace s = seed_space(builtin_ansatz(name, f, rank));
  const MatmulTensor t = matmul_tensor(f);
  Params p;
  p.adam_steps = 300;   // no convergence or stall within: both run every step
  p.adam_stall = 100000;
  p.converge_residual = 0;
  p.recipe = terms;
  const bool complex = !std::is_same_v<S, double>;
  auto device = make_cuda_seed_device(seed_problem(s, t, p, complex), 0);
  std::vector<std::vector<double>> packed;
  std::vector<Vec<S>> theta0;
  for (int k = 0; k < starts; ++k) {
    std::mt19937_64 rng(static_cast<unsigned long long>(k) + 1);
    theta0.push_back(random_seeds<S>(s, 0.3, rng));
    std::vector<cdouble> z(theta0.back().data(), theta0.back().data() + theta0.back().size());
    packed.push_back(pack_seeds(z, complex));
  }
  std::vector<unsigned long long> seeds;
  for (int k = 0; k < starts; ++k) seeds.push_back(1000 + static_cast<unsigned long long>(k));
  std::vector<SeedOutcome> gpu = device->run(packed, seeds);
  REQUIRE(gpu.size() == static_cast<size_t>(starts));
  for (int k = 0; k < starts; ++k) {
    SeedRun<S> cpu = optimise_seeds<S>(s, t, p, theta0[k], [] { return false; }, seeds[static_cast<size_t>(k)]);
    std::vector<cdouble> g = unpack_seeds(gpu[k].theta, complex);
    double diff = 0;
    for (size_t j = 0; j < g.size(); ++j) diff = std::max(diff, std::abs(g[j] - cdouble(cpu.theta(static_cast<Eigen::Index>(j)))));
    INFO(name << " start " << k << ": cpu residual " << cpu.residual << ", gpu " << gpu[k].residual);
    CHECK(diff < 1e-6);
    CHECK(gpu[k].residual == Approx(cpu.residual).epsilon(1e-6).margin(1e-9));
    CHECK(gpu[k].steps == cpu.steps);
    CHECK(gpu[k].culled == cpu.culled);
  }
}

}  // namespace

TEST_CASE("seed-space Adam on the GPU follows the CPU step for step (real z3, complex z3xz4)", "[gpu]") {
  compare_with_cpu<double>("z3", Format{3, 3, 3}, 23, 8);
  compare_with_cpu<cdouble>("z3xz4", Format{3, 3, 3}, 24, 8);
  compare_with_cpu<cdouble>("z3xz4", Format{4, 4, 4}, 48, 4);
}

TEST_CASE("the recipe terms on the GPU follow the CPU step for step (every term on, and culling)", "[gpu]") {
  RecipeTerms r;
  r.grad_noise = 1e-4, r.param_noise = 1e-3, r.target_noise = 1e-3, r.hallucinate = 0.02, r.hallucinate_scale = 0.1;
  r.soft_clip_period = 100, r.soft_clip_min = 0.3, r.soft_clip_max = 1.5;
  r.discrete_weight = 0.05, r.discrete_floor = 0.2, r.large_weight = 0.01, r.large_above = 0.8;
  compare_with_cpu<double>("z3", Format{3, 3, 3}, 23, 8, r);
  compare_with_cpu<cdouble>("z3xz4", Format{3, 3, 3}, 24, 8, r);
  RecipeTerms cull;
  cull.cull_at = 0.5, cull.cull_residual = 1e-12;  // every start is culled at step 150
  compare_with_cpu<cdouble>("z3xz4", Format{4, 4, 4}, 48, 4, cull);
}

TEST_CASE("the engine finds an exact 2x2:7 inside z3 on the GPU", "[gpu]") {
  EngineConfig c;
  c.target = {Format{2, 2, 2}, 7, Ring::Q};
  c.seed = 11;
  c.threads = 2;
  c.params = {{"ansatz", "z3"}, {"device", "cuda"}, {"adam_steps", 3000}, {"adam_lr", 0.02}, {"restarts", 256}};
  test::RecordingReporter rep(Ring::Q, 60);
  tdisc::search::make_engine("numeric")->run(c, rep);
  REQUIRE_FALSE(rep.valid.empty());
  CHECK(rep.invalid.empty());
}
