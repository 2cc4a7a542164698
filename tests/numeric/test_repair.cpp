// Rounding and exact repair: perturbed known schemes over Q and Q(i) come back exact and verified;
// a wrong factor is re-solved exactly from the other two; inconsistent systems are refused.
#include <catch2/catch.hpp>

#include "src/search/numeric/repair.hpp"
#include "tests/numeric/perturbed.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

using test::gaussian_strassen;
using test::perturbed;

namespace {

bool same_coefficients(Scheme a, Scheme b) {
  a.ring = b.ring = Ring::QI;
  return canonical_text(a) == canonical_text(b);
}

}  // namespace

TEST_CASE("the Gaussian Strassen fixture is valid and really complex", "[fast]") {
  Scheme s = gaussian_strassen();
  CHECK(verify(s, Ring::QI).valid);
  CHECK(coefficient_ring(s) == Ring::QI);
}

TEST_CASE("rounding recovers Strassen over Q from noise 1e-3 on every entry", "[fast]") {
  Scheme s = test::strassen();
  auto x = perturbed<double>(s, 1e-3, 11);
  RepairResult r = repair(s.format, round_factors(x, Lattice::Half, 0), Ring::Q);
  REQUIRE(r.scheme);
  CHECK(r.how == "rounded");
  CHECK(verify(*r.scheme, Ring::Q).valid);
  CHECK(same_coefficients(*r.scheme, s));
}

TEST_CASE("rounding recovers a Gaussian-rational scheme over Q(i)", "[fast]") {
  Scheme s = gaussian_strassen();
  auto x = perturbed<cdouble>(s, 1e-3, 12);
  RepairResult r = repair(s.format, round_factors(x, Lattice::HalfGaussian, 0), Ring::QI);
  REQUIRE(r.scheme);
  CHECK(verify(*r.scheme, Ring::QI).valid);
  CHECK(same_coefficients(*r.scheme, s));
}

TEST_CASE("repair solves a destroyed factor exactly from the other two (Q and Q(i))", "[fast]") {
  for (Scheme s : {test::strassen(), gaussian_strassen()}) {
    Ring ring = coefficient_ring(s) == Ring::QI ? Ring::QI : Ring::Q;
    auto x = perturbed<cdouble>(s, 1e-3, 13);
    x.f[2].setRandom();  // W replaced by garbage: rounding alone cannot work
    ExactFactors e = round_factors(x, Lattice::HalfGaussian, 0);
    REQUIRE_FALSE(verify(to_scheme(s.format, e, ring), ring).valid);
    RepairResult r = repair(s.format, e, ring);
    REQUIRE(r.scheme);
    CHECK(r.how == "solved factor W exactly");
    CHECK(verify(*r.scheme, ring).valid);
  }
}

TEST_CASE("repair reaches ¼ and ⅛ coefficients with a wider rational net", "[fast]") {
  Scheme s = test::strassen();
  for (Eigen::Index k = 0; k < 4; ++k) s.u(1, k) *= Coeff(mpq_class(1, 8)), s.w(1, k) *= Coeff(8);
  for (Eigen::Index k = 0; k < 4; ++k) s.v(2, k) *= Coeff(mpq_class(1, 4)), s.w(2, k) *= Coeff(4);
  REQUIRE(verify(s, Ring::Q).valid);
  auto x = perturbed<double>(s, 1e-3, 14);
  RepairResult coarse = repair(s.format, round_factors(x, Lattice::Half, 0), Ring::Q);
  CHECK((!coarse.scheme || !same_coefficients(*coarse.scheme, s)));
  RepairResult r = repair(s.format, round_factors(x, Lattice::Half, 8), Ring::Q);
  REQUIRE(r.scheme);
  CHECK(same_coefficients(*r.scheme, s));
}

TEST_CASE("an inexact rounding that no factor can fix is refused, not reported", "[fast]") {
  Scheme s = test::strassen();
  auto x = perturbed<double>(s, 1e-3, 15);
  x.f[0](0, 0) += 1, x.f[1](1, 1) += 1, x.f[2](2, 2) += 1;  // one wrong entry in every factor
  RepairResult r = repair(s.format, round_factors(x, Lattice::Half, 0), Ring::Q);
  CHECK_FALSE(r.scheme);
  CHECK_FALSE(r.why_not.empty());
}
