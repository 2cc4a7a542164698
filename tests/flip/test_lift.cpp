// Hensel lifting: a known integer scheme is recovered from its image mod 2 (and mod 3), exactly.
#include <catch2/catch.hpp>

#include "src/search/flip/convert.hpp"
#include "src/search/flip/lift.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {

// The image of s mod p with entries in {-1, 0, 1}.
Scheme image_mod(const Scheme& s, Ring r) {
  if (r == Ring::GF2) return scheme_from_terms<GF2>(s.format, terms_from_scheme<GF2>(s));
  return scheme_from_terms<GF3>(s.format, terms_from_scheme<GF3>(s));
}

bool congruent(const Scheme& a, const Scheme& b, int p) {
  auto same = [p](const CoeffMatrix& x, const CoeffMatrix& y) {
    for (int r = 0; r < x.rows(); ++r)
      for (int c = 0; c < x.cols(); ++c) {
        mpq_class d = x(r, c).re() - y(r, c).re();
        mpz_class num = d.get_num(), den = d.get_den();
        if (den % p == 0 || num % p != 0) return false;
      }
    return true;
  };
  return same(a.u, b.u) && same(a.v, b.v) && same(a.w, b.w);
}

}  // namespace

TEST_CASE("lifting recovers Strassen's integer scheme from its image mod 2", "[fast]") {
  Scheme s = tdisc::test::strassen();
  Scheme mod2 = image_mod(s, Ring::GF2);
  REQUIRE(verify(mod2, Ring::GF2).valid);
  REQUIRE_FALSE(verify(mod2, Ring::Z).valid);  // the 0/1 image is no integer scheme
  LiftResult r = hensel_lift(mod2, 2, 20);
  INFO(r.why_not);
  REQUIRE(r.scheme);
  CHECK(verify(*r.scheme, Ring::Z).valid);
  CHECK(congruent(*r.scheme, mod2, 2));
}

TEST_CASE("lifting recovers Strassen's integer scheme from its image mod 3", "[fast]") {
  Scheme s = tdisc::test::strassen();
  Scheme mod3 = image_mod(s, Ring::GF3);
  REQUIRE(verify(mod3, Ring::GF3).valid);
  LiftResult r = hensel_lift(mod3, 3, 20);
  INFO(r.why_not);
  REQUIRE(r.scheme);
  CHECK(verify(*r.scheme, Ring::Z).valid);
  CHECK(congruent(*r.scheme, mod3, 3));
}

TEST_CASE("lifting a GF2 walk result gives an exact integer scheme or says why not", "[fast]") {
  const Format f{3, 3, 3};
  WalkParams p;
  Walker<GF2> w(f, p, 17);
  w.load(standard_terms<GF2>(f));
  while (w.best_rank() > 23 && w.flips() < 20000000) w.step();
  REQUIRE(w.best_rank() == 23);
  Scheme mod2 = scheme_from_terms<GF2>(f, w.best());
  LiftResult r = hensel_lift(mod2, 2, 20);
  if (r.scheme) {
    CHECK(verify(*r.scheme, Ring::Q).valid);
    CHECK(congruent(*r.scheme, mod2, 2));
  } else {
    CHECK_FALSE(r.why_not.empty());
  }
}
