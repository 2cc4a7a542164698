// The exact verifier on schemes built in code: valid ones pass, corrupted ones fail and the
// failing equation is named.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "tests/support.hpp"
#include "verifier/stats.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

TEST_CASE("classical schemes are valid over ZT for many formats", "[fast][verify]") {
  for (Format f : {Format{1, 1, 1}, Format{2, 3, 4}, Format{3, 3, 3}, Format{4, 2, 5}}) {
    Scheme s = test::classical(f);
    INFO(f.str());
    CHECK(verify(s, Ring::ZT).valid);
    CHECK(classify(s).describe() == "valid over ZT");
    SchemeStats st = scheme_stats(s);
    CHECK(st.rank == f.classical_rank());
    CHECK(st.stability == Approx(f.m));
  }
}

TEST_CASE("Strassen verifies, with additions 18 and stability factor 12", "[fast][verify]") {
  Scheme s = test::strassen();
  Verdict v = verify(s, Ring::ZT);
  REQUIRE(v.valid);
  CHECK(v.equations == 64);
  SchemeStats st = scheme_stats(s);
  CHECK(st.additions == 18);
  CHECK(st.stability == Approx(12));
  CHECK(verify(s, Ring::GF2).valid);
  CHECK(verify(s, Ring::GF3).valid);
}

TEST_CASE("a corrupted coefficient is refused and the equation named", "[fast][verify]") {
  Scheme s = test::strassen();
  s.u(0, 3) = 0;  // M1 = (A11)(B11+B22): breaks the a[1][1] equations
  Verdict v = verify(s, Ring::Q);
  REQUIRE_FALSE(v.valid);
  REQUIRE(v.failure);
  // First failing equation in (a, b, c) order: (a[1][1], b[0][0], c[0][0]) expects 1 but only
  // M4 = A22(B21−B11) still reaches it, with coefficient −1.
  CHECK(v.failure->i == 1);
  CHECK(v.failure->j == 1);
  CHECK(v.failure->got == "-1");
  CHECK(v.failure->terms == std::vector<int>{3});
  CHECK(v.why_not.find("Brent equation") != std::string::npos);
  CHECK(classify(s).describe() == "not valid over any ring");
}

TEST_CASE("a sign error survives mod 2 only", "[fast][verify]") {
  Scheme s = test::strassen();
  s.v(2, 3) = 1;  // M3 = A11(B12+B22): correct modulo 2 only
  CHECK_FALSE(verify(s, Ring::Z).valid);
  CHECK(verify(s, Ring::GF2).valid);
  CHECK_FALSE(verify(s, Ring::GF3).valid);
  CHECK(classify(s).describe() == "valid mod 2 only");
}

TEST_CASE("rational and Gaussian coefficients verify exactly", "[fast][verify]") {
  // Scale U_r by 2 and W_r by 1/2 (and V_r by i, W_r by −i): the same scheme, other rings.
  Scheme s = test::strassen();
  for (int r = 0; r < 7; ++r) {
    for (int c = 0; c < 4; ++c) {
      s.u(r, c) *= Coeff(2);
      s.w(r, c) *= *Coeff::parse("1/2");
    }
  }
  CHECK(coefficient_ring(s) == Ring::Q);
  CHECK(verify(s, Ring::Q).valid);
  CHECK_FALSE(verify(s, Ring::Z).valid);  // cannot hold 1/2
  CHECK(verify(s, Ring::GF3).valid);      // 1/2 = 2 mod 3
  CHECK_FALSE(verify(s, Ring::GF2).valid);
  for (int c = 0; c < 4; ++c) {
    s.v(1, c) *= *Coeff::parse("i");
    s.w(1, c) *= *Coeff::parse("-i");
  }
  CHECK(coefficient_ring(s) == Ring::QI);
  CHECK(verify(s, Ring::QI).valid);
  CHECK_FALSE(verify(s, Ring::Q).valid);
  s.w(1, 0) = *Coeff::parse("1/2+i");
  CHECK_FALSE(verify(s, Ring::QI).valid);
}

TEST_CASE("native files round-trip and bad ones are refused with a line", "[fast][native]") {
  Scheme s = test::strassen();
  s.provenance.method = "test";
  s.provenance.seed = 42;
  std::string text = native_text(s);
  Scheme back = parse_native(text, "mem.json");
  CHECK(back.u == s.u);
  CHECK(back.w == s.w);
  CHECK(back.provenance.seed == 42u);
  CHECK(scheme_hash8(back) == scheme_hash8(s));

  std::string bad = text;
  bad.replace(bad.find("\"rank\": 7"), 9, "\"rank\": 8");
  CHECK_THROWS_WITH(parse_native(bad, "x.json"), Catch::Contains("rank is 8"));
  bad = text;
  auto at = bad.find("\"v\": [\n    [\"") + 12;
  bad.replace(at, 1, "q");
  try {
    parse_native(bad, "x.json");
    FAIL("accepted a bad coefficient");
  } catch (const InputError& e) {
    CHECK(e.line() > 10);
    CHECK(e.located().rfind("x.json:", 0) == 0);
  }
  bad = text;
  bad.replace(bad.find("\"version\": 1"), 12, "\"version\": 2");
  CHECK_THROWS_WITH(parse_native(bad, "x.json"), Catch::Contains("version"));
  CHECK_THROWS_WITH(parse_native(text.substr(0, text.size() / 2), "x.json"), Catch::Contains("JSON"));
}

TEST_CASE("verify_mod: Strassen and the rational 4x4:48 over Z/n for the emulation's odd moduli", "[fast][verify]") {
  const Scheme strassen = test::strassen();
  const Scheme r48 = read_native(test::source_path("codegen/schemes/r48-4x4x4-Q.json"));
  for (long n : {255L, 253L, 251L, 247L, 217L, 149L, 3L}) {
    INFO("mod " << n);
    CHECK(verify_mod(strassen, n).valid);
    const ModularVerdict v = verify_mod(r48, n);
    CHECK(v.valid);
    CHECK(v.equations == 4096);
  }
  CHECK(verify_mod(strassen, 2).valid);  // integer coefficients: every modulus
  CHECK(verify_mod(strassen, 256).valid);
  const ModularVerdict even = verify_mod(r48, 256);  // ½ is not a unit mod 256
  CHECK(!even.valid);
  CHECK(even.why_not.find("not a unit mod 256") != std::string::npos);
  CHECK(!verify_mod(strassen, 1).valid);
  Scheme broken = strassen;
  broken.u(0, 3) = 0;
  const ModularVerdict bad = verify_mod(broken, 251);
  CHECK(!bad.valid);
  REQUIRE(bad.failure);
  CHECK(bad.failure->failing_equations > 0);
  Scheme shifted = strassen;  // a coefficient changed by a multiple of n: still valid mod n, not mod others
  shifted.u(0, 3) = 1 + 255;
  CHECK(verify_mod(shifted, 255).valid);
  CHECK(verify_mod(shifted, 17).valid);
  CHECK(!verify_mod(shifted, 251).valid);
}
