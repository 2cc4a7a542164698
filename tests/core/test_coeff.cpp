// Exact coefficients: parsing, printing, arithmetic.
#include <catch2/catch.hpp>

#include "decomposition/coeff.hpp"
#include "decomposition/format.hpp"
#include "decomposition/ring.hpp"

using tdisc::Coeff;

TEST_CASE("coefficients parse and print canonically", "[fast][coeff]") {
  for (auto [in, out] : std::vector<std::pair<std::string, std::string>>{
           {"-2", "-2"}, {"1/2", "1/2"}, {"2/4", "1/2"}, {"0.25", "1/4"}, {"-0.", "0"}, {"i", "i"},
           {"-i", "-i"}, {"-1/2i", "-1/2i"}, {"1/2-1/2i", "1/2-1/2i"}, {"3+2i", "3+2i"}, {"+1", "1"}}) {
    auto c = Coeff::parse(in);
    INFO(in);
    REQUIRE(c);
    CHECK(c->str() == out);
  }
  for (const char* bad : {"", "x", "1/0", "1//2", "--1", "2ii", "1.2.3", "1e3"}) {
    INFO(bad);
    CHECK_FALSE(Coeff::parse(bad));
  }
}

TEST_CASE("Gaussian rational arithmetic is exact", "[fast][coeff]") {
  Coeff i = *Coeff::parse("i"), half = *Coeff::parse("1/2");
  CHECK((i * i).str() == "-1");
  CHECK(((Coeff(1) + i) * (Coeff(1) - i)).str() == "2");
  CHECK((Coeff(1) / (Coeff(1) + i)).str() == "1/2-1/2i");
  CHECK((half + half) == Coeff(1));
  CHECK(half.denominator() == 2);
  CHECK(Coeff::from_double(-0.125)->str() == "-1/8");
  CHECK(Coeff(-1).is_ternary());
  CHECK_FALSE(Coeff(2).is_ternary());
}

TEST_CASE("formats and rings parse", "[fast][coeff]") {
  CHECK(tdisc::parse_format("4x4") == tdisc::Format{4, 4, 4});
  CHECK(tdisc::parse_format("2x3x4") == tdisc::Format{2, 3, 4});
  CHECK(tdisc::parse_format("3,4,5") == tdisc::Format{3, 4, 5});
  CHECK(tdisc::parse_format("345") == tdisc::Format{3, 4, 5});
  CHECK_FALSE(tdisc::parse_format("0x4"));
  CHECK_FALSE(tdisc::parse_format("4x"));
  CHECK(tdisc::parse_ring("gf2") == tdisc::Ring::GF2);
  CHECK(tdisc::parse_ring("QI") == tdisc::Ring::QI);
  CHECK_FALSE(tdisc::parse_ring("R"));
  CHECK(tdisc::ring_contains(tdisc::Ring::Q, tdisc::Ring::ZT));
  CHECK_FALSE(tdisc::ring_contains(tdisc::Ring::Z, tdisc::Ring::Q));
  CHECK_FALSE(tdisc::ring_contains(tdisc::Ring::QI, tdisc::Ring::GF2));
}

TEST_CASE("coefficients with leading zeros are decimal, not octal (fuzzing found 08 throwing, 010 read as 8)", "[fast][coeff]") {
  CHECK(*Coeff::parse("010") == Coeff(10));
  CHECK(*Coeff::parse("08") == Coeff(8));
  CHECK(*Coeff::parse("0.010") == Coeff(mpq_class(1, 100)));
  CHECK(*Coeff::parse("0.08") == Coeff(mpq_class(2, 25)));
  CHECK(*Coeff::parse("010/012") == Coeff(mpq_class(5, 6)));
  CHECK(*Coeff::parse("-09i") == Coeff(0, -9));
  CHECK(!Coeff::parse("0x10"));
}
