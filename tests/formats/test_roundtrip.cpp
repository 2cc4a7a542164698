// Every exporter re-imports to the identical scheme (formats with both directions), the slp text
// parses back to the same scheme, and LaTeX and the Python script say what they should.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <sys/wait.h>

#include "base/error.hpp"
#include "decomposition/formats/readers.hpp"
#include "tests/formats/helpers.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

struct Named {
  std::string name;
  Scheme scheme;
};

// Schemes over every ring the formats meet: ZT, Z, Q (½…⅛), QI, GF2, and a non-square format.
std::vector<Named> samples() {
  std::vector<Named> out;
  out.push_back({"strassen", test::strassen()});
  out.push_back({"223-11 Z", test::load("exp", "flips/223-11-mod0.exp")});
  out.push_back({"fmm 4x4x4:48 Q", test::load("fmm-mpl", "fmm-catalogue/4x4x4_tensor.mpl")});
  out.push_back({"alphaevolve 444 QI", test::load("alphaevolve-ipynb", "alphaevolve/mathematical_results.ipynb", "444")});
  out.push_back({"alphatensor f2 444 GF2", test::load("alphatensor-npz", "alphatensor/factorizations_f2.npz", "4,4,4")});
  out.push_back({"perminov 2x4x9 Q", test::load("perminov-json", "perminov/2x4x9_m58_Q.json")});
  return out;
}

bool same_factors(const Scheme& a, const Scheme& b) {
  return a.format == b.format && a.u == b.u && a.v == b.v && a.w == b.w;
}

std::string extension(const std::string& format) {
  if (format == "native" || format == "perminov-json") return ".json";
  if (format == "exp") return ".exp";
  if (format == "maple") return ".m";
  if (format == "fmm-mpl") return ".mpl";
  return ".txt";
}

// slp: "mK = (…) * (…)" then "cIK = …", read back with the straight-line reader.
Scheme read_slp(const std::string& text, Format f) {
  fmt::ProductLines pl;
  std::istringstream in(text);
  std::string l;
  for (int line = 1; std::getline(in, l); ++line) {
    if (l.empty() || l[0] == '#') continue;
    size_t eq = l.find(" = ");
    REQUIRE(eq != std::string::npos);
    if (l[0] == 'm') {
      pl.products.push_back(l.substr(eq + 3));
      pl.product_lines.push_back(line);
    } else {
      pl.outputs.emplace_back(l.substr(0, eq), l.substr(eq + 3));
      pl.output_lines.push_back(line);
    }
  }
  return fmt::scheme_from_products("slp", pl, f, false).scheme;
}

}  // namespace

TEST_CASE("every format with both directions round-trips to the identical scheme", "[fast][roundtrip]") {
  const std::vector<std::string> both = {"native", "exp", "maple", "fmm-mpl", "perminov-json", "fast-matmul"};
  for (const std::string& format : both) {
    CHECK(std::find(import_formats().begin(), import_formats().end(), format) != import_formats().end());
    CHECK(std::find(export_formats().begin(), export_formats().end(), format) != export_formats().end());
  }
  for (const Named& x : samples()) {
    REQUIRE(verify(x.scheme, x.scheme.ring).valid);
    for (const std::string& format : both) {
      INFO(x.name << " via " << format);
      bool complex = coefficient_ring(x.scheme) == Ring::QI;
      if (complex && (format == "exp" || format == "perminov-json" || format == "fast-matmul")) {
        CHECK_THROWS_WITH(export_scheme(format, x.scheme), Catch::Contains("complex"));
        continue;
      }
      std::string text = export_scheme(format, x.scheme);
      // A mod-2 scheme travels with "mod2" in the file name, as the flips files do.
      std::string path = std::string("roundtrip") + (x.scheme.ring == Ring::GF2 ? "-mod2" : "") + extension(format);
      Scheme back = import_from_bytes(format, path, text).scheme;
      CHECK(same_factors(back, x.scheme));
      CHECK(back.ring == x.scheme.ring);
      CHECK(scheme_hash8(back) == scheme_hash8(x.scheme));
      // And the text itself is a fixed point.
      CHECK(export_scheme(format, back) == text);
    }
  }
}

TEST_CASE("slp is a straight-line program that reads back to the same scheme", "[fast][roundtrip]") {
  std::string text = export_scheme("slp", test::strassen());
  CHECK(text.find("m1 = (a11 + a22) * (b11 + b22)\n") != std::string::npos);
  CHECK(text.find("c11 = m1 + m4 - m5 + m7\n") != std::string::npos);
  CHECK(text.find("c22 = m1 - m2 + m3 + m6\n") != std::string::npos);
  for (const Named& x : samples()) {
    if (coefficient_ring(x.scheme) == Ring::QI) continue;  // "(1/2+i)*a11" is for people, not this reader
    INFO(x.name);
    CHECK(same_factors(read_slp(export_scheme("slp", x.scheme), x.scheme.format), x.scheme));
  }
}

TEST_CASE("LaTeX lists the products and the C entries with exact coefficients", "[fast][export]") {
  std::string t = export_scheme("latex", test::strassen());
  CHECK(t.find("\\begin{align*}") != std::string::npos);
  CHECK(t.find("M_{1} &= \\left(A_{11} + A_{22}\\right)\\left(B_{11} + B_{22}\\right) \\\\") != std::string::npos);
  CHECK(t.find("M_{7} &= \\left(A_{12} - A_{22}\\right)\\left(B_{21} + B_{22}\\right)") != std::string::npos);
  CHECK(t.find("C_{11} &= M_{1} + M_{4} - M_{5} + M_{7} \\\\") != std::string::npos);
  CHECK(t.find("C_{22} &= M_{1} - M_{2} + M_{3} + M_{6}\n\\end{align*}") != std::string::npos);
  std::string q = export_scheme("latex", test::load("fmm-mpl", "fmm-catalogue/4x4x4_tensor.mpl"));
  CHECK(q.find("\\tfrac{1}{8}") != std::string::npos);
  size_t products = 0;
  for (size_t at = q.find("&="); at != std::string::npos; at = q.find("&=", at + 1)) ++products;
  CHECK(products == 48 + 16);  // 48 products and 16 entries of C
  std::string c = export_scheme("latex", test::load("alphaevolve-ipynb", "alphaevolve/mathematical_results.ipynb", "444"));
  CHECK(c.find("\\tfrac{1}{2}i\\right)") != std::string::npos);
}

// Hidden from the plain run: tests/formats/tests.cmake runs it as formats_python where python3
// exists and reports it skipped (exit 77) where it does not.
TEST_CASE("the Python script rebuilds the scheme and really checks it", "[.][python][export]") {
  REQUIRE(std::system("python3 -c 'import fractions' >/dev/null 2>&1") == 0);
  std::string dir = test::temp_dir("python");
  auto run = [&](const Scheme& s, const std::string& name) {
    std::string path = dir + "/" + name + ".py";
    test::write_file(path, export_scheme("python", s));
    std::string out = dir + "/" + name + ".out";
    int status = std::system(("python3 " + path + " --pure >" + out + " 2>&1").c_str());
    return std::pair{WEXITSTATUS(status), test::slurp_file(out)};
  };
  for (const Named& x : samples()) {
    INFO(x.name);
    auto [code, out] = run(x.scheme, "ok");
    CHECK(code == 0);
    CHECK(out.rfind("OK: ", 0) == 0);
  }
  Scheme bad = test::strassen();
  bad.w(6, 0) = 2;  // M7 counted twice in C11
  auto [code, out] = run(bad, "bad");
  CHECK(code == 1);
  CHECK(out.find("FAIL: Brent equation") != std::string::npos);
  Scheme mod2 = test::strassen();
  mod2.v(2, 3) = 1;  // right mod 2 only
  mod2.ring = Ring::GF2;
  auto [code2, out2] = run(mod2, "mod2");
  CHECK(code2 == 0);
  CHECK(out2.find("valid mod 2") != std::string::npos);
  mod2.ring = Ring::Z;
  CHECK(run(mod2, "mod2z").first == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("exporters refuse what their format cannot hold", "[fast][export]") {
  Scheme big = test::classical({10, 1, 1});
  CHECK_THROWS_AS(export_scheme("exp", big), InputError);
  CHECK_NOTHROW(export_scheme("slp", big));  // wide names "a10_1"
  CHECK(export_scheme("slp", big).find("a10_1") != std::string::npos);
  CHECK_THROWS_AS(export_scheme("no-such-format", big), UsageError);
  CHECK_THROWS_AS(export_scheme("flip-cpd", big), UsageError);  // import only
}

TEST_CASE("exp quirks: bare factors, whole-term negation and a trailing /3 read as the same scheme", "[fast][roundtrip]") {
  Scheme s = test::strassen();
  std::string text = export_scheme("exp", s);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 7);
  REQUIRE(lines[0] == "(a11+a22)*(b11+b22)*(c11+c22)");
  REQUIRE(lines[1] == "(a21+a22)*(b11)*(c12-c22)");
  REQUIRE(lines[2] == "(a11)*(b12-b22)*(c21+c22)");
  lines[0] = "(a11+a22)*(b11+b22)*(3*c11+3*c22)/3";  // trailing /3 scaling of the whole term
  lines[1] = "-((a21+a22)*b11*(-c12+c22))";          // whole-term negation, bare factor b11
  lines[2] = "a11*(b12-b22)*(c21+c22)";              // bare factor a11
  std::string quirky;
  for (auto& l : lines) quirky += l + "\n";
  Scheme back = import_from_bytes("exp", "222-7-mod0.exp", quirky).scheme;
  CHECK(back.u == s.u);
  CHECK(back.v == s.v);
  CHECK(back.w == s.w);
  CHECK(verify(back, Ring::ZT).valid);
}
