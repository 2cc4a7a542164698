// The exit-code contract of tdisc import and tdisc export (DESIGN §4): 0 ok, 1 usage or I/O,
// 2 invalid input; output written atomically, and nothing left behind on any error.
#include <catch2/catch.hpp>
#include <filesystem>

#include "decomposition/native.hpp"
#include "tests/formats/helpers.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using test::run_tdisc;

TEST_CASE("import: a valid file is verified, reported and written as native", "[fast][cli]") {
  std::string dir = test::temp_dir("cli-import");
  auto r = run_tdisc("import --from exp " + test::fixture("flips/444-47-mod2.exp") + " -o " + dir + "/s.json");
  CHECK(r.code == 0);
  CHECK(r.out.find("4x4x4 rank 47, valid mod 2 only") != std::string::npos);
  Scheme s = read_native(dir + "/s.json");
  CHECK(s.ring == Ring::GF2);
  CHECK(s.rank() == 47);
  CHECK(s.provenance.method == "import");
  CHECK(s.provenance.source.find("444-47-mod2.exp") != std::string::npos);
  CHECK(verify(s, Ring::GF2).valid);

  r = run_tdisc("import --from alphaevolve-ipynb --key 444 " + test::fixture("alphaevolve/mathematical_results.ipynb"));
  CHECK(r.code == 0);  // no -o: the native file on stdout, the report on stderr
  CHECK(r.err.find("valid over QI") != std::string::npos);
  Scheme q = parse_native(r.out, "stdout");
  CHECK(q.ring == Ring::QI);
  CHECK(q.provenance.extra.at("key") == "444");

  r = run_tdisc("import --from exp " + test::fixture("flips/366-85-mod2.exp") + " -o " + dir + "/t.json");
  CHECK(r.code == 0);
  CHECK(r.out.find("holds 86 terms; rank = 86") != std::string::npos);

  r = run_tdisc("import --from exp " + test::fixture("flips/333-27-mod2.exp") + " -o " + dir + "/u.json");
  CHECK(r.code == 0);  // the standard algorithm: the name says mod 2, the verifier says ZT
  CHECK(r.out.find("valid over ZT") != std::string::npos);
  CHECK(read_native(dir + "/u.json").ring == Ring::ZT);
  std::filesystem::remove_all(dir);
}

TEST_CASE("import: usage and I/O errors exit 1, bad input exits 2, nothing is written", "[fast][cli]") {
  std::string dir = test::temp_dir("cli-errors");
  const std::string out = " -o " + dir + "/out.json";
  const std::string exp = test::fixture("flips/223-11-mod0.exp");
  CHECK(run_tdisc("import " + exp + out).code == 1);                          // no --from
  CHECK(run_tdisc("import --from nosuch " + exp + out).code == 1);            // unknown format
  CHECK(run_tdisc("import --from exp" + out).code == 1);                      // no FILE
  CHECK(run_tdisc("import --from exp " + dir + "/missing.exp" + out).code == 1);  // cannot read
  CHECK(run_tdisc("import --from exp --dims 2x2 " + exp + out).code == 2);    // wrong dims: bad input
  CHECK(run_tdisc("import --from exp --dims banana " + exp + out).code == 1); // malformed flag
  CHECK(run_tdisc("import --from fast-matmul " + test::fixture("fast-matmul/bini322-10-52-approx") + out).code == 2);
  CHECK(test::listing(dir).empty());
  // An existing output file is left untouched when the import fails.
  test::write_file(dir + "/out.json", "keep me");
  CHECK(run_tdisc("import --from exp --dims 2,2,2 " + exp + out).code == 2);
  CHECK(test::slurp_file(dir + "/out.json") == "keep me");
  CHECK(test::listing(dir).size() == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("import --list-keys and --help", "[fast][cli]") {
  auto r = run_tdisc("import --from alphatensor-npz --list-keys " + test::fixture("alphatensor/factorizations_f2.npz"));
  CHECK(r.code == 0);
  CHECK(r.out.rfind("2,2,2\n2,2,3\n", 0) == 0);
  r = run_tdisc("import --help");
  CHECK(r.code == 0);
  CHECK(r.out.find("alphatensor-npz") != std::string::npos);
  r = run_tdisc("export --help");
  CHECK(r.code == 0);
  CHECK(r.out.find("latex") != std::string::npos);
}

TEST_CASE("export: to a file, to stdout, and refusals with no file left", "[fast][cli]") {
  std::string dir = test::temp_dir("cli-export");
  REQUIRE(run_tdisc("import --from fmm-mpl " + test::fixture("fmm-catalogue/2x2x2_tensor.mpl") + " -o " + dir + "/s.json").code == 0);
  auto r = run_tdisc("export --to exp " + dir + "/s.json -o " + dir + "/s.exp");
  CHECK(r.code == 0);
  Scheme back = import_scheme("exp", dir + "/s.exp");
  CHECK(back.u == read_native(dir + "/s.json").u);
  r = run_tdisc("export --to slp " + dir + "/s.json");
  CHECK(r.code == 0);
  CHECK(r.out.find("m1 = ") != std::string::npos);
  CHECK(run_tdisc("export " + dir + "/s.json").code == 1);                        // no --to
  CHECK(run_tdisc("export --to nosuch " + dir + "/s.json -o " + dir + "/x").code == 1);
  CHECK(run_tdisc("export --to flip-cpd " + dir + "/s.json -o " + dir + "/x").code == 1);  // import-only format
  CHECK(run_tdisc("export --to exp " + dir + "/missing.json -o " + dir + "/x").code == 1);
  test::write_file(dir + "/bad.json", test::slurp_file(dir + "/s.json").substr(0, 100));
  CHECK(run_tdisc("export --to exp " + dir + "/bad.json -o " + dir + "/x").code == 2);
  REQUIRE(run_tdisc("import --from alphaevolve-ipynb --key 444 " + test::fixture("alphaevolve/mathematical_results.ipynb") +
                    " -o " + dir + "/c.json").code == 0);
  r = run_tdisc("export --to exp " + dir + "/c.json -o " + dir + "/x");
  CHECK(r.code == 2);
  CHECK(r.err.find("complex") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/x"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("tdisc import: a hostile file is 'tdisc: FILE:LINE: what' with exit code 2", "[formats][hostile][cli]") {
  std::string dir = tdisc::test::temp_dir("hostile");
  std::string path = dir + "/deep.m";
  tdisc::test::write_file(path, std::string(100000, '{'));
  auto r = tdisc::test::run_tdisc("import --from maple " + path + " -o " + dir + "/out.json");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Matchers::Contains("tdisc: " + path + ":1: braces nested deeper than"));
}
