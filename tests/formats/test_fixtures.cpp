// Every public fixture (tests/data, copies of published schemes) imports and verifies exactly over its ring; the
// mod-2 ones (and the whole factorizations_f2.npz) hold only modulo 2.
// Held out (never used while writing the importers, tested last in test_zz_heldout.cpp):
//   flips/555-97-mod0a.exp, flips/555-97-mod0a.m, flips/666-164-mod2.exp, flips/456-93-mod0.m,
//   alphaevolve keys 357 and 456.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/formats/helpers.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using test::load;

namespace {

bool held_out(const std::string& name) {
  return name == "555-97-mod0a.exp" || name == "555-97-mod0a.m" || name == "666-164-mod2.exp" || name == "456-93-mod0.m";
}

// A file or entry that says mod 2: valid over GF2, declared GF2, and (unless it is the standard
// algorithm, valid everywhere) not valid over Z.
void check_mod2(const Scheme& s, bool also_valid_over_z = false) {
  CHECK(s.ring == Ring::GF2);
  CHECK(verify(s, Ring::GF2).valid);
  CHECK(verify(s, Ring::Z).valid == also_valid_over_z);
  CHECK(classify(s).describe() == (also_valid_over_z ? "valid over ZT" : "valid mod 2 only"));
}

void check_char0(const Scheme& s, Ring expected) {
  CHECK(s.ring == expected);
  Verdict v = verify(s, s.ring);
  INFO(v.why_not);
  CHECK(v.valid);
  CHECK(classify(s).describe() == "valid over " + std::string(ring_name(expected)));
}

}  // namespace

TEST_CASE("flips .exp and .m files import and verify over their rings", "[fast][fixtures]") {
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(test::fixture("flips"))) {
    std::string name = e.path().filename().string();
    const auto ext = e.path().extension();
    if (ext != ".exp" && ext != ".m") continue;  // LICENSE, ORIGIN.md
    if (held_out(name)) continue;
    std::string format = ext == ".exp" ? "exp" : "maple";
    ImportedScheme im = import_located(format, e.path().string());
    const Scheme& s = im.scheme;
    INFO(name);
    ++files;
    // The name states the dimensions and (except 366-85-mod2.exp, which holds 86 terms) the rank.
    CHECK(s.format.digits() == name.substr(0, 3));
    int named_rank = std::stoi(name.substr(4));
    if (name == "366-85-mod2.exp") {
      CHECK(s.rank() == 86);
      REQUIRE(im.notes.size() == 1);
      CHECK(im.notes[0].find("holds 86 terms") != std::string::npos);
    } else {
      CHECK(s.rank() == named_rank);
    }
    if (name.find("mod2") != std::string::npos) check_mod2(s, name == "333-27-mod2.exp");
    else CHECK(verify(s, Ring::Z).valid);
    CHECK(s.provenance.source.find("GPL-3") != std::string::npos);
  }
  CHECK(files == 65 - 4);
}

TEST_CASE("the whole-term negation in 555-97-mod0.exp is read into the C factor", "[fast][fixtures]") {
  ImportedScheme im = import_located("exp", test::fixture("flips/555-97-mod0.exp"));
  CHECK(im.term_lines[42] == 43);
  // -(a25*(…)*c12): u = a25, w = -c12 (W[0][1] = −1, the coefficient in C[1][0]).
  CHECK(im.scheme.u(42, im.scheme.format.a_index(1, 4)) == Coeff(1));
  CHECK(im.scheme.w(42, im.scheme.format.c_index(0, 1)) == Coeff(-1));
  check_char0(im.scheme, Ring::Z);
}

TEST_CASE("FMM catalogue Maple files import and verify, including the rational 4x4x4:48", "[fast][fixtures]") {
  struct Case { const char* file; int rank; Ring ring; };
  for (Case c : {Case{"2x2x2_tensor.mpl", 7, Ring::ZT}, Case{"2x4x5_tensor.mpl", 32, Ring::Q},
                 Case{"3x3x3_tensor.mpl", 23, Ring::ZT}, Case{"3x3x6_tensor.mpl", 40, Ring::Q},
                 Case{"4x4x4_tensor.mpl", 48, Ring::Q}}) {
    INFO(c.file);
    Scheme s = load("fmm-mpl", std::string("fmm-catalogue/") + c.file);
    CHECK(s.rank() == c.rank);
    check_char0(s, c.ring);
    CHECK_FALSE(verify(s, Ring::Z).valid == (c.ring == Ring::Q));
  }
}

TEST_CASE("Perminov JSON (arrays and text form agree) and Maple files import and verify", "[fast][fixtures]") {
  struct Case { const char* file; const char* format; int rank; Ring ring; };
  for (Case c : {Case{"2x4x5_m33_ZT.json", "perminov-json", 33, Ring::ZT}, Case{"2x4x9_m58_Q.json", "perminov-json", 58, Ring::Q},
                 Case{"3x4x5_m47_ZT.json", "perminov-json", 47, Ring::ZT}, Case{"4x4x4_m49_ZT.json", "perminov-json", 49, Ring::ZT},
                 Case{"4x4x4_m49_ZT.m", "maple", 49, Ring::ZT}}) {
    INFO(c.file);
    Scheme s = load(c.format, std::string("perminov/") + c.file);
    CHECK(s.rank() == c.rank);
    check_char0(s, c.ring);
  }
}

TEST_CASE("Perminov JSON past 9 rows or columns: names run together, read where one split fits, else from the arrays", "[fast][fixtures]") {
  // 2x9x10: "b110" is (1,10) in a 9×10 B, the text form reads and agrees with the arrays; 2x12x15:
  // "b111" fits (1,11) and (11,1) of a 12×15 B, so the arrays are read alone. Both gzip-compressed.
  Scheme a = load("perminov-json", "perminov/2x9x10_m143_ZT.json.gz");
  CHECK(a.format == Format{2, 9, 10});
  CHECK(a.rank() == 143);
  check_char0(a, Ring::ZT);
  Scheme b = load("perminov-json", "perminov/2x12x15_m281_ZT.json.gz");
  CHECK(b.format == Format{2, 12, 15});
  CHECK(b.rank() == 281);
  check_char0(b, Ring::ZT);
  // Without the arrays the ambiguous name is refused, with the file, line and the two readings' matrix.
  std::string dir = test::temp_dir("perminov-wide");
  std::string text = R"json({"n": [2, 12, 15], "m": 1, "z2": false,
  "multiplications": ["m1 = (a11) * (b111)"], "elements": ["c11 = m1"]})json";
  std::ofstream(dir + "/2x12x15_m1_ZT.json") << text;
  CHECK_THAT(test::refusal([&] { import_scheme("perminov-json", dir + "/2x12x15_m1_ZT.json"); }),
             Catch::Contains("2x12x15_m1_ZT.json:2:") && Catch::Contains("'b111' as one entry of B (12×15"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("fast-matmul files import from C orientation; the approximate Bini scheme is refused", "[fast][fixtures]") {
  struct Case { const char* file; Format f; int rank; };
  for (Case c : {Case{"classical222-8-24", {2, 2, 2}, 8}, Case{"grey-strassen", {2, 2, 2}, 7},
                 Case{"grey322-11-50", {3, 2, 2}, 11}, Case{"grey333-23-152", {3, 3, 3}, 23},
                 Case{"hk323-15-94", {3, 2, 3}, 15}}) {
    INFO(c.file);
    Scheme s = load("fast-matmul", std::string("fast-matmul/") + c.file);
    CHECK(s.format == c.f);
    CHECK(s.rank() == c.rank);
    check_char0(s, Ring::ZT);
  }
  CHECK_THAT(test::refusal([] { load("fast-matmul", "fast-matmul/bini322-10-52-approx"); }),
             Catch::Contains("bini322-10-52-approx:3:") && Catch::Contains("approximate (border-rank)"));
}

TEST_CASE("fast-matmul's C orientation really is converted: W is not taken as it stands", "[fast][fixtures]") {
  // Read as if it were trace form (W rows = k·n+i), grey322-11-50 (n=3, p=2) would not verify.
  Scheme s = load("fast-matmul", "fast-matmul/grey322-11-50");
  Scheme wrong = s;
  const Format& f = s.format;
  for (int r = 0; r < s.rank(); ++r)
    for (int i = 0; i < f.n; ++i)
      for (int k = 0; k < f.p; ++k) wrong.w(r, i * f.p + k) = s.w(r, f.c_index(k, i));
  CHECK(verify(s, Ring::ZT).valid);
  CHECK_FALSE(verify(wrong, Ring::Q).valid);
}

TEST_CASE("flip-cpd straight-line schemes import (C orientation) and verify", "[fast][fixtures]") {
  Scheme s3 = load("flip-cpd", "flip-cpd/gg-333-rank23-rec-0-0-0-z.txt");
  CHECK(s3.rank() == 23);
  check_char0(s3, Ring::ZT);
  Scheme s4 = load("flip-cpd", "flip-cpd/gg-444-rank49-rec-0-0-0-z.txt");
  CHECK(s4.rank() == 49);
  check_char0(s4, Ring::ZT);
}

TEST_CASE("AlphaEvolve notebook: the complex 4x4x4:48 and the other decompositions", "[fast][fixtures]") {
  const std::string nb = "alphaevolve/mathematical_results.ipynb";
  auto keys = list_keys("alphaevolve-ipynb", test::fixture(nb));
  CHECK(keys.size() == 15);
  Scheme s = load("alphaevolve-ipynb", nb, "444");
  CHECK(s.rank() == 48);
  check_char0(s, Ring::QI);
  CHECK_FALSE(verify(s, Ring::Q).valid);
  CHECK(s.provenance.source.find("CC-BY-4.0") != std::string::npos);
  CHECK(load("alphaevolve-ipynb", nb, "4,4,4").u == s.u);  // "4,4,4" names the same key
  struct Case { const char* key; int rank; Ring ring; };
  for (Case c : {Case{"245", 32, Ring::Q}, Case{"247", 45, Ring::ZT}, Case{"248", 51, Ring::ZT}, Case{"256", 47, Ring::ZT},
                 Case{"333", 23, Ring::ZT}, Case{"346", 54, Ring::Q}, Case{"347", 63, Ring::QI}, Case{"348", 74, Ring::ZT},
                 Case{"356", 68, Ring::Z}, Case{"445", 61, Ring::ZT}, Case{"447", 85, Ring::ZT}, Case{"555", 93, Ring::ZT}}) {
    INFO(c.key);
    Scheme x = load("alphaevolve-ipynb", nb, c.key);
    CHECK(x.rank() == c.rank);
    check_char0(x, c.ring);
  }
}

TEST_CASE("AlphaTensor f2 archive: every entry only mod 2, including 4x4x4:47", "[fast][fixtures]") {
  const std::string npz = "alphatensor/factorizations_f2.npz";
  auto keys = list_keys("alphatensor-npz", test::fixture(npz));
  REQUIRE(keys.size() == 20);
  for (const std::string& k : keys) {
    INFO(k);
    Scheme s = load("alphatensor-npz", npz, k);
    check_mod2(s);
    if (k == "4,4,4") CHECK(s.rank() == 47);
    if (k == "5,5,5") CHECK(s.rank() == 96);
  }
}

TEST_CASE("AlphaTensor real archive: plain and pickled entries up to 5x5x5 verify", "[fast][fixtures]") {
  const std::string npz = "alphatensor/factorizations_r.npz";
  auto keys = list_keys("alphatensor-npz", test::fixture(npz));
  REQUIRE(keys.size() == 93);
  int checked = 0;
  for (const std::string& k : keys) {
    Format f = *parse_format(k);
    if (std::max({f.n, f.m, f.p}) > 5) continue;
    INFO(k);
    Scheme s = load("alphatensor-npz", npz, k);
    CHECK(verify(s, s.ring).valid);
    CHECK(s.ring != Ring::GF2);
    ++checked;
  }
  CHECK(checked == 20);
  CHECK(load("alphatensor-npz", npz, "4,4,4").rank() == 49);  // plain int64 array (3, 16, 49)
  CHECK(load("alphatensor-npz", npz, "345").rank() == 47);    // pickled object array, key "345"
}

TEST_CASE("AlphaTensor real archive: all 93 entries, up to 11x12x12, verify exactly", "[slow][fixtures]") {
  const std::string npz = "alphatensor/factorizations_r.npz";
  const std::vector<std::string> keys = list_keys("alphatensor-npz", test::fixture(npz));
  CHECK(keys.size() == 93);
  int verified = 0;
  for (const std::string& k : keys) {
    INFO(k);
    Scheme s = load("alphatensor-npz", npz, k);
    const bool ok = verify(s, s.ring).valid;
    CHECK(ok);
    verified += ok;
  }
  CHECK(verified == 93);
}
