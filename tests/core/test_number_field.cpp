// Number fields Q(ζ_n)(r), r^k = β: exact arithmetic checked against known identities and the complex
// embedding, element text round trips, and the verifier over K on schemes that hold only in K.
#include <catch2/catch.hpp>

#include <random>

#include "base/error.hpp"
#include "decomposition/formats/field_scheme_file.hpp"
#include "decomposition/native.hpp"
#include "tests/support.hpp"
#include "verifier/field_verify.hpp"

using namespace tdisc;

namespace {

std::vector<long> coefficients(const std::vector<mpz_class>& p) {
  std::vector<long> out;
  for (const mpz_class& x : p) out.push_back(x.get_si());
  return out;
}

FieldElement power(const NumberField& k, const FieldElement& x, int e) {
  FieldElement y = k.one();
  for (int t = 0; t < e; ++t) y = k.mul(y, x);
  return y;
}

FieldElement element(const NumberField& k, const std::string& text) {
  auto e = k.parse_element(text);
  REQUIRE(e.has_value());
  return *e;
}

// Strassen with term 0 rescaled by (r, r², 1/2): valid over Q(r), r³ = 2, and over no smaller ring.
FieldScheme strassen_over_cube_root_of_two() {
  NumberField k = NumberField::radical(4, 3, "2");
  FieldScheme s = field_scheme_of(test::strassen(), k);
  const FieldElement r = k.basis_element(0, 1), r2 = k.basis_element(0, 2), half = element(k, "1/2");
  for (int x = 0; x < 4; ++x) {
    s.u[x] = k.mul(s.u[x], r);
    s.v[x] = k.mul(s.v[x], r2);
    s.w[x] = k.mul(s.w[x], half);
  }
  return s;
}

}  // namespace

TEST_CASE("cyclotomic polynomials", "[fast][number_field]") {
  CHECK(coefficients(cyclotomic_polynomial(1)) == std::vector<long>{-1, 1});
  CHECK(coefficients(cyclotomic_polynomial(3)) == std::vector<long>{1, 1, 1});
  CHECK(coefficients(cyclotomic_polynomial(4)) == std::vector<long>{1, 0, 1});
  CHECK(coefficients(cyclotomic_polynomial(8)) == std::vector<long>{1, 0, 0, 0, 1});
  CHECK(coefficients(cyclotomic_polynomial(12)) == std::vector<long>{1, 0, -1, 0, 1});
  CHECK(cyclotomic_polynomial(105).size() == 49);  // φ(105) = 48, the first Φ_n with a coefficient −2
  CHECK(cyclotomic_polynomial(105)[7] == -2);
}

TEST_CASE("identities of Q(ζ_12) and of Q(ζ_12)(r), r³ = 1 + i", "[fast][number_field]") {
  NumberField k = NumberField::cyclotomic(12);
  const FieldElement z = k.basis_element(1, 0);
  CHECK(k.element_text(power(k, z, 12)) == "1");
  CHECK(k.element_text(power(k, z, 6)) == "-1");
  CHECK(k.from_coeff(Coeff(0, 1)).c == power(k, z, 3).c);  // i = ζ_12³
  const FieldElement sqrt3 = k.add(z, power(k, z, 11));    // ζ + ζ⁻¹ = 2·cos(π/6) = √3
  CHECK(k.element_text(k.mul(sqrt3, sqrt3)) == "3");
  NumberField rk = NumberField::radical(12, 3, "1 + i");
  CHECK(rk.beta() == element(k, "1 + z^3").c);
  const FieldElement r = rk.basis_element(0, 1);
  CHECK(rk.element_text(power(rk, r, 3)) == "1 + z^3");
  CHECK(rk.name() == "Q(ζ_12, r) with r^3 = 1 + z^3 (z = ζ_12)");
  CHECK(rk.spec() == "12:3:1 + z^3");
  CHECK(NumberField::parse_spec("12:3:1 + z^3") == rk);
  CHECK(NumberField::parse_spec("4").name() == "Q(i)");
  CHECK_THROWS_AS(NumberField::parse_spec("12:3"), InputError);
  CHECK_THROWS_AS(NumberField::parse_spec("12:3:q"), InputError);
  CHECK_THROWS_AS(NumberField::cyclotomic(3).from_coeff(Coeff(0, 1)), InputError);  // i ∉ Q(ζ_3)
}

TEST_CASE("products agree with the complex embedding; text round-trips", "[fast][number_field]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(-3, 3);
  for (const char* spec : {"8", "12", "12:3:1 + z^3", "4:6:2 - z", "24"}) {
    NumberField k = NumberField::parse_spec(spec);
    INFO(k.name());
    for (int trial = 0; trial < 20; ++trial) {
      FieldElement x = k.zero(), y = k.zero();
      for (auto& c : x.c) c = mpq_class(small(rng), 1 + (small(rng) + 3)), c.canonicalize();
      for (auto& c : y.c) c = small(rng);
      const std::complex<double> want = k.value(x) * k.value(y), got = k.value(k.mul(x, y));
      CHECK(std::abs(want - got) < 1e-9 * (1 + std::abs(want)));
      auto back = k.parse_element(k.element_text(x));
      REQUIRE(back.has_value());
      CHECK(back->c == x.c);
    }
  }
  NumberField k = NumberField::cyclotomic(12);
  CHECK_FALSE(k.parse_element("1 + y").has_value());
  CHECK_FALSE(k.parse_element("1 +").has_value());
  CHECK_FALSE(k.parse_element("z^").has_value());
}

TEST_CASE("the verifier over K proves a scheme that holds only in K and names the field", "[fast][number_field]") {
  FieldScheme s = strassen_over_cube_root_of_two();
  FieldVerdict v = verify_over_field(s);
  CHECK(v.valid);
  CHECK(v.field == "Q(i, r) with r^3 = 2");
  CHECK(v.equations == 64);
  // Off by one coefficient: r² → r² + 1 in V_1 breaks the equations that term 1 touches.
  s.v[0] = s.field.add(s.v[0], s.field.one());
  FieldVerdict bad = verify_over_field(s);
  CHECK_FALSE(bad.valid);
  CHECK(bad.failing_equations > 0);
  CHECK(bad.first_failure.find("expected") != std::string::npos);
}

TEST_CASE("published Gaussian schemes verify over cyclotomic fields that hold i", "[fast][number_field]") {
  Scheme qi = read_native(test::source_path("algorithms/4x4x4/r48-QI-41f141a1.json"));
  for (int n : {4, 8, 12}) {
    FieldScheme s = field_scheme_of(qi, NumberField::cyclotomic(n));
    CHECK(verify_over_field(s).valid);
  }
  FieldScheme s = field_scheme_of(qi, NumberField::cyclotomic(12));
  s.w[5] = s.field.add(s.w[5], s.field.basis_element(1, 0));  // one coefficient off by ζ_12
  CHECK_FALSE(verify_over_field(s).valid);
}

TEST_CASE("tdisc-field-scheme files round-trip and bad ones name the line", "[fast][number_field]") {
  FieldScheme s = strassen_over_cube_root_of_two();
  s.provenance.method = "test";
  const std::string text = field_scheme_text(s);
  CHECK(looks_like_field_scheme(text));
  FieldScheme back = parse_field_scheme(text, "x.json");
  CHECK(back.field == s.field);
  CHECK(back.u.size() == s.u.size());
  for (size_t x = 0; x < s.u.size(); ++x) CHECK(back.u[x].c == s.u[x].c);
  CHECK(verify_over_field(back).valid);
  std::string broken = text;
  broken.replace(broken.find("\"r\""), 3, "\"y\"");
  try {
    parse_field_scheme(broken, "x.json");
    FAIL("a malformed element was accepted");
  } catch (const InputError& e) {
    CHECK(e.located().rfind("x.json:", 0) == 0);
    CHECK(std::string(e.what()).find("not an element of") != std::string::npos);
  }
}
