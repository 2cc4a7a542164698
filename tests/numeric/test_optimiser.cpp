// The optimisers on their own: ALS and LM reduce the residual on known-rank targets.
#include <catch2/catch.hpp>

#include "src/search/numeric/als.hpp"
#include "src/search/numeric/lm.hpp"
#include "tests/numeric/perturbed.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

using test::random_factors;

TEST_CASE("the matmul tensor has nmp ones and the classical factors fit it exactly", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 3, 4});
  CHECK(t.ones[0].size() == 24);
  Factors<double> x;  // the classical scheme: term r is the r-th one of T
  for (int q = 0; q < 3; ++q) x.f[q] = Mat<double>::Zero(t.dims[q], 24);
  for (int r = 0; r < 24; ++r)
    for (int q = 0; q < 3; ++q) x.f[q](t.ones[0][r][q], r) = 1;
  CHECK(residual(t, x) == 0.0);
  x.f[0](0, 0) = 2;
  CHECK(residual(t, x) == Approx(1.0));
}

TEST_CASE("ALS decreases the residual on 2x2 rank 7, real and complex", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 2});
  auto xr = random_factors<double>(t, 7, 1, 0.5);
  auto xc = random_factors<cdouble>(t, 7, 1, 0.5);
  FixedMask none = no_fixed(xr);
  double r0 = residual(t, xr), c0 = residual(t, xc);
  for (int k = 0; k < 200; ++k) {
    als_sweep(t, xr, none, {1e-3, 0, Lattice::Half, 0});
    als_sweep(t, xc, none, {1e-3, 0, Lattice::HalfGaussian, 0});
  }
  CHECK(residual(t, xr) < 0.5 * r0);
  CHECK(residual(t, xc) < 0.5 * c0);
}

TEST_CASE("ALS keeps fixed entries and still lowers the residual", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 2});
  auto x = random_factors<double>(t, 8, 3, 0.5);
  FixedMask fixed = no_fixed(x);
  fixed.f[1](2, 3) = 1;
  x.f[1](2, 3) = 0.5;
  double r0 = residual(t, x);
  for (int k = 0; k < 50; ++k) als_sweep(t, x, fixed, {1e-4, 0, Lattice::Half, 0});
  CHECK(x.f[1](2, 3) == 0.5);
  CHECK(residual(t, x) < r0);
}

TEST_CASE("LM decreases the penalised objective monotonically on 2x2x3 rank 11", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 3});
  auto x = random_factors<double>(t, 11, 7, 0.3);
  FixedMask none = no_fixed(x);
  Weights w{1e-3, 0, Lattice::Half, 0};
  LmState st;
  double prev = penalised_objective(t, x, none, w), first = prev;
  for (int k = 0; k < 60; ++k) {
    lm_step(t, x, none, w, st);
    double now = penalised_objective(t, x, none, w);
    REQUIRE(now <= prev);
    prev = now;
  }
  CHECK(prev < 0.2 * first);
}
