// The repair check of issue 4 on the published 4x4:48 schemes (AlphaEvolve's complex one, the FMM
// catalogue's rational one): noise 1e-3 on every entry, then rounding and exact repair recover an
// exactly verified scheme within a minute; with the third factor destroyed it is solved exactly.
#include <catch2/catch.hpp>
#include <chrono>
#include <iostream>
#include <random>

#include "decomposition/formats/formats.hpp"
#include "src/search/numeric/repair.hpp"
#include "tests/support.hpp"
#include "verifier/float_residual.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

namespace {

Factors<cdouble> noisy(const Scheme& s, double noise, unsigned seed, bool destroy_w) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  const bool complex = coefficient_ring(s) == Ring::QI;
  const FloatFactors f = float_factors(s);  // I_q × R, column r = term r
  Factors<cdouble> x{{f.a, f.b, f.c}};
  for (int q = 0; q < 3; ++q) {
    for (Eigen::Index r = 0; r < x.f[q].cols(); ++r)
      for (Eigen::Index i = 0; i < x.f[q].rows(); ++i) {
        const cdouble c = x.f[q](i, r);
        x.f[q](i, r) = {c.real() + u(rng), complex ? c.imag() + u(rng) : 0.0};
        if (q == 2 && destroy_w) x.f[q](i, r) = {u(rng) * 1000, 0.0};
      }
  }
  return x;
}

void check_recovery(const Scheme& published, Ring ring, bool destroy_w, const std::string& what) {
  REQUIRE(verify(published, ring).valid);
  auto t0 = std::chrono::steady_clock::now();
  ExactFactors e = round_factors(noisy(published, 1e-3, 48, destroy_w), Lattice::HalfGaussian, 8);
  RepairResult r = repair(published.format, e, ring);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << what << ": " << (r.scheme ? r.how : r.why_not) << " in " << seconds << " s\n";
  REQUIRE(r.scheme);
  CHECK(r.scheme->rank() == 48);
  CHECK(verify(*r.scheme, ring).valid);
  CHECK(seconds < 60);
}

}  // namespace

TEST_CASE("AlphaEvolve's complex 4x4:48 with noise 1e-3 is recovered exactly", "[slow]") {
  Scheme s = import_scheme("alphaevolve-ipynb", test::fixture("alphaevolve/mathematical_results.ipynb"), {"444", std::nullopt});
  check_recovery(s, Ring::QI, false, "alphaevolve 4x4:48, noise 1e-3");
  check_recovery(s, Ring::QI, true, "alphaevolve 4x4:48, noise 1e-3 on U,V, W destroyed");
}

TEST_CASE("the FMM catalogue's rational 4x4:48 with noise 1e-3 is recovered exactly", "[slow]") {
  Scheme s = import_scheme("fmm-mpl", test::fixture("fmm-catalogue/4x4x4_tensor.mpl"));
  REQUIRE(s.rank() == 48);
  check_recovery(s, Ring::Q, false, "fmm-catalogue 4x4:48, noise 1e-3");
  check_recovery(s, Ring::Q, true, "fmm-catalogue 4x4:48, noise 1e-3 on U,V, W destroyed");
}
