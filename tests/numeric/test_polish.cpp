// The near-miss test (polish.hpp): near an exact scheme the residual falls; a border-rank
// approximation, which has no exact scheme nearby, is called degenerate.
#include <catch2/catch.hpp>

#include "src/search/numeric/als.hpp"
#include "src/search/numeric/polish.hpp"
#include "src/search/numeric/restart.hpp"
#include "tests/numeric/perturbed.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

namespace {

Params with_clip(double clip) {
  Params p;
  p.clip = clip;
  return p;
}

// ⟨2,2,3⟩ has rank 11 and border rank 10 (Bini's approximate algorithm): no exact rank-10 scheme
// exists over R, so an unclipped ALS run at rank 10 can only approach T with growing norms.
Factors<double> border_rank_approximation(const MatmulTensor& t) {
  Factors<double> x = test::random_factors<double>(t, 10, 7, 0.5);
  const FixedMask none = no_fixed(x);
  for (int k = 0; k < 4000; ++k) als_sweep(t, x, none, Weights{1e-3 * std::pow(1e-9, k / 4000.0), 0, Lattice::Half, 0});
  return x;
}

}  // namespace

TEST_CASE("a perturbed exact scheme passes the near-miss test", "[fast]") {
  const MatmulTensor t = matmul_tensor({2, 2, 2});
  const Factors<double> x = test::perturbed<double>(test::strassen(), 1e-4, 3);
  const PolishTest r = polish_test(t, x, with_clip(0.5));  // Strassen's ±1 lie beyond this clip
  CHECK(r.before > 1e-5);
  CHECK(r.after < 0.1 * r.before);
  CHECK(r.largest > 0.5);
  CHECK(r.converging);
}

TEST_CASE("a border-rank approximation of 2x2x3 at rank 10 is degenerate", "[fast]") {
  const MatmulTensor t = matmul_tensor({2, 2, 3});
  const Factors<double> x = border_rank_approximation(t);
  INFO("residual " << residual(t, x));
  REQUIRE(residual(t, x) < 0.1);  // close to T: a near-miss by its residual
  const PolishTest r = polish_test(t, x, with_clip(2));
  INFO("after " << r.after << ", largest entry " << r.largest);
  CHECK(r.largest > 2);
  CHECK(r.after > 0.1 * r.before);
  CHECK_FALSE(r.converging);
  // Inside the clip the same creep is not enough: exact schemes can converge that slowly too.
  CHECK(polish_test(t, x, with_clip(r.largest + 1)).converging);
  // Off, the test calls everything converging and leaves the near-miss alone.
  Params off = with_clip(2);
  off.polish_iterations = 0;
  CHECK(polish_test(t, x, off).converging);
}

TEST_CASE("the CPU engine ends a border-rank near-miss as degenerate instead of rounding it", "[fast]") {
  const MatmulTensor t = matmul_tensor({2, 2, 3});
  const search::Target target{{2, 2, 3}, 10, Ring::Q};
  // A loose threshold and a clip of 3 let this restart (found by trying seeds) reach residual 0.11
  // at rank 10, where no exact scheme exists, with an entry past the clip.
  nlohmann::json recipe = {{"discretise_below", 0.2}, {"clip", 3}, {"als_iterations", 4000},
                           {"stall_iterations", 2000}, {"init_scale", 0.5}};
  const Params tested = resolve(recipe, target);
  recipe["polish_iterations"] = 0;
  const Params untested = resolve(recipe, target);
  const RestartOutcome a = run_restart({.tensor = t, .params = tested, .target = target, .seed = restart_seed(99, 0)});
  INFO("stage " << a.stage << ", residual " << a.residual << ", ratio " << a.polish_ratio << ", largest " << a.largest_entry);
  CHECK(a.stage == "degenerate");
  CHECK(a.polish_ratio > 0.1);
  CHECK(a.largest_entry > 3);
  CHECK_FALSE(a.near_miss);  // not kept as a seed
  const RestartOutcome b = run_restart({.tensor = t, .params = untested, .target = target, .seed = restart_seed(99, 0)});
  CHECK(b.residual == a.residual);  // the same restart up to the test
  CHECK((b.stage == "rounding" || b.stage == "repair"));  // rounded, and failed: there is nothing to find
  CHECK(b.near_miss);
}
