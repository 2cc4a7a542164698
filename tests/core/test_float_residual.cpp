// The float views of a scheme (verifier/float_residual): factor matrices with column r = term r,
// and the Brent residual ‖E‖_F — the norm, not its square — for real and complex factors.
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/support.hpp"
#include "verifier/float_residual.hpp"

using namespace tdisc;

TEST_CASE("float factors: column r is term r, W indexed k·n+i, Gaussian parts kept", "[fast][verify]") {
  Scheme s = test::classical(Format{2, 3, 4});  // term r = (i, j, k) in that order
  s.u(5, s.format.a_index(1, 2)) = Coeff(mpq_class(1, 2), mpq_class(-3, 4));
  const FloatFactors x = float_factors(s);
  REQUIRE(x.a.rows() == 6);
  REQUIRE(x.b.rows() == 12);
  REQUIRE(x.c.rows() == 8);
  REQUIRE(x.a.cols() == 24);
  CHECK(x.c(s.format.c_index(3, 1), 23) == std::complex<double>(1, 0));  // term (1,2,3): W[k=3][i=1]
  CHECK(x.a(s.format.a_index(1, 2), 5) == std::complex<double>(0.5, -0.75));
}

TEST_CASE("Brent residual: 0 for valid schemes, the Frobenius norm of the error otherwise", "[fast][verify]") {
  Scheme c = test::classical(Format{2, 3, 2});
  CHECK(brent_residual(c) == 0);
  CHECK(brent_residual(test::strassen()) == 0);
  c.u(0, 0) = 2;  // the term a00⊗b00⊗c00 now counts twice: one entry of E is 1
  CHECK(brent_residual(c) == 1);
  c.v(1, 1) = 2;  // a second wrong term, a second entry off by one: ‖E‖_F = √2, not 2
  CHECK(brent_residual(c) == Approx(std::sqrt(2.0)));
}

TEST_CASE("Brent residual: real and complex factors agree; shapes are checked", "[fast][verify]") {
  const Scheme s = test::strassen();
  FloatFactors x = float_factors(s);
  x.a(0, 0) += 0.25;
  const Eigen::MatrixXd a = x.a.real(), b = x.b.real(), c = x.c.real();
  const double real = brent_residual<double>(s.format, a, b, c);
  CHECK(real > 0);
  CHECK(real == Approx(brent_residual<std::complex<double>>(s.format, x.a, x.b, x.c)));
  const Eigen::MatrixXd e = brent_residual_unfolding<double>(s.format, a, b, c);
  CHECK(e.rows() == 4);
  CHECK(e.cols() == 16);
  CHECK(e.norm() == real);
  CHECK_THROWS(brent_residual<double>(Format{2, 2, 3}, a, b, c));
}
