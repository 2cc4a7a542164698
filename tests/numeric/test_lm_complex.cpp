// Levenberg–Marquardt on complex factors: its step is the Gauss–Newton step of the realified
// problem, it lowers the penalised objective, converges on perturbed Gaussian Strassen, and drives
// the rounding of a perturbed AlphaEvolve 4x4:48 over Q(i) to an exact, verified scheme (4–9 s).
#include <catch2/catch.hpp>
#include <chrono>
#include <iostream>

#include "decomposition/formats/formats.hpp"
#include "src/search/numeric/lm.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/repair.hpp"
#include "src/search/numeric/rounding.hpp"
#include "tests/numeric/perturbed.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

namespace {

// The residual E = model − T as one real vector (real parts, then imaginary parts).
Eigen::VectorXd realified_residual(const MatmulTensor& t, const Factors<cdouble>& x) {
  Mat<cdouble> e = residual_unfolding(t, x);
  Eigen::VectorXd r(2 * e.size());
  for (Eigen::Index k = 0; k < e.size(); ++k) r(k) = e.data()[k].real(), r(e.size() + k) = e.data()[k].imag();
  return r;
}

// The LM step computed the slow, obvious way: unknowns are (Re, Im) of each free entry, the real
// Jacobian column by column (E is affine in each single entry, so a unit difference is exact).
Eigen::VectorXd realified_step(const MatmulTensor& t, const Factors<cdouble>& x, const FixedMask& fixed,
                               const Weights& w, double mu) {
  std::vector<std::pair<int, Eigen::Index>> free;
  for (int q = 0; q < 3; ++q)
    for (Eigen::Index k = 0; k < x.f[q].size(); ++k)
      if (!fixed.f[q].data()[k]) free.push_back({q, k});
  const Eigen::VectorXd r0 = realified_residual(t, x);
  const auto N = static_cast<Eigen::Index>(2 * free.size());
  Eigen::MatrixXd j(r0.size(), N);
  Eigen::VectorXd p(N), pen(N);
  for (size_t a = 0; a < free.size(); ++a)
    for (int part = 0; part < 2; ++part) {
      const auto col = static_cast<Eigen::Index>(2 * a + part);
      Factors<cdouble> y = x;
      const cdouble v = x.f[free[a].first].data()[free[a].second];
      y.f[free[a].first].data()[free[a].second] += part == 0 ? cdouble(1, 0) : cdouble(0, 1);
      j.col(col) = realified_residual(t, y) - r0;
      const cdouble d = v - nearest(w.kind, v);
      p(col) = part == 0 ? v.real() : v.imag();
      pen(col) = w.reg * p(col) + w.lattice * (part == 0 ? d.real() : d.imag());
    }
  Eigen::MatrixXd h = j.transpose() * j;
  h.diagonal().array() += w.reg + w.lattice;
  const double scale = h.diagonal().maxCoeff();
  h.diagonal().array() += mu * scale;
  return -h.llt().solve(j.transpose() * r0 + pen);
}

}  // namespace

TEST_CASE("lm is accepted with complex factors; auto re-fits stay auto (LM when small) over Q(i)", "[fast]") {
  CHECK(validate({{"method", "lm"}, {"field", "complex"}}).empty());
  Params p = resolve({{"method", "lm"}}, search::Target{{2, 2, 2}, 7, Ring::QI});
  CHECK(p.complex);
  CHECK(p.method == Method::Lm);
  CHECK(p.round_method == Method::Auto);
  CHECK(real_parameters<cdouble>(600) == kLmMaxParameters);
  CHECK(real_parameters<double>(600) == 600);
}

TEST_CASE("complex LM takes the Gauss–Newton step of the realified problem", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 2});
  Factors<cdouble> x = test::random_factors<cdouble>(t, 7, 21, 0.5);
  FixedMask fixed = no_fixed(x);
  fixed.f[0](1, 2) = fixed.f[1](3, 0) = fixed.f[2](0, 6) = 1;
  const Weights w{1e-2, 0.1, Lattice::HalfGaussian, 0};
  const Factors<cdouble> x0 = x;
  LmState st;
  REQUIRE(lm_step(t, x, fixed, w, st));
  const Eigen::VectorXd expected = realified_step(t, x0, fixed, w, 3 * st.damping);  // damping used = 3 × after
  Eigen::VectorXd taken(expected.size());
  Eigen::Index n = 0;
  for (int q = 0; q < 3; ++q)
    for (Eigen::Index k = 0; k < x.f[q].size(); ++k)
      if (!fixed.f[q].data()[k]) {
        const cdouble d = x.f[q].data()[k] - x0.f[q].data()[k];
        taken(n++) = d.real(), taken(n++) = d.imag();
      } else {
        CHECK(x.f[q].data()[k] == x0.f[q].data()[k]);
      }
  REQUIRE(n == expected.size());
  CHECK(expected.norm() > 1e-3);
  CHECK((taken - expected).norm() < 1e-9 * expected.norm());
}

TEST_CASE("complex LM lowers the penalised objective monotonically on 2x2 rank 7", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 2});
  Factors<cdouble> x = test::random_factors<cdouble>(t, 7, 5, 0.3);
  FixedMask fixed = no_fixed(x);
  fixed.f[1](2, 3) = 1;
  x.f[1](2, 3) = {0.5, -0.5};
  const Weights w{1e-3, 1e-4, Lattice::HalfGaussian, 2.0};
  LmState st;
  double prev = penalised_objective(t, x, fixed, w), first = prev;
  for (int k = 0; k < 60; ++k) {
    lm_step(t, x, fixed, w, st);
    const double now = penalised_objective(t, x, fixed, w);
    REQUIRE(now <= prev);
    prev = now;
  }
  CHECK(x.f[1](2, 3) == cdouble(0.5, -0.5));
  CHECK(prev < 0.2 * first);
}

TEST_CASE("complex LM converges on a perturbed Gaussian Strassen", "[fast]") {
  MatmulTensor t = matmul_tensor({2, 2, 2});
  Factors<cdouble> x = test::perturbed<cdouble>(test::gaussian_strassen(), 0.05, 3);
  const FixedMask none = no_fixed(x);
  const double r0 = residual(t, x);
  LmState st;
  for (int k = 0; k < 40; ++k) lm_step(t, x, none, {0, 0, Lattice::HalfGaussian, 0}, st);
  CHECK(r0 > 0.05);
  CHECK(residual(t, x) < 1e-10);
}

TEST_CASE("AlphaEvolve's complex 4x4:48 with noise 1e-3 is rounded by LM re-fits and verified", "[fast]") {
  Scheme s = import_scheme("alphaevolve-ipynb", test::fixture("alphaevolve/mathematical_results.ipynb"), {"444", std::nullopt});
  REQUIRE(verify(s, Ring::QI).valid);
  MatmulTensor t = matmul_tensor(s.format);
  Factors<cdouble> x = test::perturbed<cdouble>(s, 1e-3, 48);
  Params p;
  p.complex = true;
  p.lattice = Lattice::HalfGaussian;
  p.round_method = Method::Lm;
  p.round_fraction = 0.5;    // a dense LM step on ~1500 complex unknowns takes ~1 s: fewer batches,
  p.round_iterations = 40;  // and two LM steps per batch
  Optimiser<cdouble> opt{t, Method::Lm};
  FixedMask fixed = no_fixed(x);
  auto t0 = std::chrono::steady_clock::now();
  const double r0 = residual(t, x);
  RoundingResult rr = progressive_round(opt, x, fixed, p, [] { return false; });
  RepairResult fix = repair(s.format, round_factors(x, p.lattice, 0), Ring::QI);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "alphaevolve 4x4:48 over QI, noise 1e-3, LM re-fits: residual " << r0 << " -> " << rr.residual
            << ", " << (fix.scheme ? fix.how : fix.why_not) << " in " << seconds << " s\n";
  CHECK(r0 > p.round_residual);  // the re-fits had work to do
  CHECK(opt.method == Method::Lm);
  CHECK(rr.complete);
  REQUIRE(fix.scheme);
  CHECK(verify(*fix.scheme, Ring::QI).valid);
  CHECK(fix.scheme->rank() == 48);
}
