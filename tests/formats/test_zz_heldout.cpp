// The held-out check: public files never opened while the importers were written or tuned
// (named in test_fixtures.cpp), imported and verified last, with their facts from the fixture
// README and the file names only.
//   flips/555-97-mod0a.exp, flips/555-97-mod0a.m (5x5x5:97 over Z), flips/666-164-mod2.exp
//   (6x6x6:164 mod 2 only), flips/456-93-mod0.m (4x5x6:93 over Z), alphaevolve keys 357 (3x5x7:80)
//   and 456 (4x5x6:90).
#include <catch2/catch.hpp>

#include "tests/formats/helpers.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

TEST_CASE("held out: flips files not used while writing the importers", "[fast][heldout]") {
  Scheme a = test::load("exp", "flips/555-97-mod0a.exp");
  CHECK(a.format == Format{5, 5, 5});
  CHECK(a.rank() == 97);
  CHECK(verify(a, Ring::Z).valid);
  Scheme am = test::load("maple", "flips/555-97-mod0a.m");
  CHECK(am.rank() == 97);
  CHECK(verify(am, Ring::Z).valid);
  Scheme b = test::load("exp", "flips/666-164-mod2.exp");
  CHECK(b.format == Format{6, 6, 6});
  CHECK(b.rank() == 164);
  CHECK(b.ring == Ring::GF2);
  CHECK(verify(b, Ring::GF2).valid);
  CHECK_FALSE(verify(b, Ring::Z).valid);
  Scheme c = test::load("maple", "flips/456-93-mod0.m");
  CHECK(c.format == Format{4, 5, 6});
  CHECK(c.rank() == 93);
  CHECK(verify(c, Ring::Z).valid);
}

TEST_CASE("held out: AlphaEvolve keys not used while writing the importer", "[fast][heldout]") {
  const std::string nb = "alphaevolve/mathematical_results.ipynb";
  Scheme a = test::load("alphaevolve-ipynb", nb, "357");
  CHECK(a.format == Format{3, 5, 7});
  CHECK(a.rank() == 80);
  CHECK(verify(a, a.ring).valid);
  Scheme b = test::load("alphaevolve-ipynb", nb, "456");
  CHECK(b.format == Format{4, 5, 6});
  CHECK(b.rank() == 90);
  CHECK(verify(b, b.ring).valid);
}
