// Broken copies of real fixtures (made here, never by editing the fixtures): a changed coefficient,
// a truncated file, wrong dimensions, an approximate scheme, a missing key, a coefficient the
// declared ring cannot hold. Each is refused with FILE:LINE and, where the Brent equations fail,
// the failing equation and the lines of its terms.
#include <catch2/catch.hpp>
#include <filesystem>

#include "base/error.hpp"
#include "tests/formats/helpers.hpp"

using namespace tdisc;
using test::broken_copy;
using test::run_tdisc;

namespace {

// Runs "tdisc import" into dir/out.json; the import must fail with exit 2, name FILE:…, and
// leave no file behind.
test::RunResult refused_import(const std::string& args, const std::string& dir) {
  auto r = run_tdisc("import " + args + " -o " + dir + "/out.json");
  CHECK(r.code == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/out.json"));
  for (const std::string& name : test::listing(dir)) CHECK(name.find("out.json") == std::string::npos);  // no temp files
  return r;
}

}  // namespace

TEST_CASE("one changed coefficient: refused, the failing equation named at the line of the term", "[fast][refuse]") {
  std::string dir = test::temp_dir("corrupt");
  struct Case { const char* format; const char* fixture; const char* name; const char* from; const char* to; const char* line_text; };
  for (Case c : {Case{"exp", "flips/223-11-mod0.exp", "223-11-mod0.exp", "(c21+2*c22)", "(c21+3*c22)", "(c21+3*c22)"},
                 Case{"maple", "flips/224-14-mod0.m", "224-14-mod0.m", "{{{0, 1}, {0, 0}}", "{{{0, 1}, {0, 1}}", "{{{0, 1}, {0, 1}}"},
                 Case{"fmm-mpl", "fmm-catalogue/3x3x3_tensor.mpl", "3x3x3_tensor.mpl", "[[1,0,0],[0,0,0],[0,0,0]]", "[[1,0,0],[0,0,0],[0,0,-1]]", "[[1,0,0],[0,0,0],[0,0,-1]]"},
                 Case{"flip-cpd", "flip-cpd/gg-333-rank23-rec-0-0-0-z.txt", "gg-333-rank23-rec-0-0-0-z.txt", "m6  = (a4)(b2)", "m6  = (a4)(b2 + b3)", "m6  = (a4)(b2 + b3)"}}) {
    INFO(c.fixture);
    std::string path = broken_copy(c.fixture, dir, c.name, c.from, c.to);
    int line = test::line_of(path, c.line_text);
    REQUIRE(line > 0);
    std::string out_dir = test::temp_dir("corrupt-out");
    auto r = refused_import(std::string("--from ") + c.format + " " + path, out_dir);
    CHECK(r.err.rfind("tdisc: " + path + ":", 0) == 0);
    CHECK(r.err.find("Brent equation") != std::string::npos);
    // The corrupted term contributes to the failing equation, so its line is named.
    CHECK((r.err.find("line " + std::to_string(line) + "\n") != std::string::npos ||
           r.err.find("line " + std::to_string(line) + ",") != std::string::npos ||
           r.err.find(", " + std::to_string(line) + ",") != std::string::npos ||
           r.err.find(", " + std::to_string(line) + "\n") != std::string::npos ||
           r.err.find(path + ":" + std::to_string(line) + ":") != std::string::npos));
    std::filesystem::remove_all(out_dir);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a sign error in a mod-0 file survives only mod 2: refused as Z, reported", "[fast][refuse]") {
  std::string dir = test::temp_dir("sign");
  std::string path = broken_copy("flips/223-11-mod0.exp", dir, "223-11-mod0.exp", "(-a21)", "(a21)");
  auto r = run_tdisc("import --from exp " + path + " -o " + dir + "/out.json");
  // A scheme valid mod 2 is still a valid scheme: imported, and said to be valid mod 2 only.
  CHECK(r.code == 0);
  CHECK(r.out.find("valid mod 2 only") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("truncated files are refused with a line and nothing is written", "[fast][refuse]") {
  std::string dir = test::temp_dir("trunc");
  auto truncate = [&](const std::string& rel, const std::string& name, double keep) {
    std::string text = test::slurp_file(test::fixture(rel));
    std::string path = dir + "/" + name;
    size_t cut = static_cast<size_t>(static_cast<double>(text.size()) * keep);
    if (name.size() > 4 && name.substr(name.size() - 4) == ".exp") cut = text.rfind('\n', cut) + 1;  // whole terms lost
    test::write_file(path, text.substr(0, cut));
    return path;
  };
  struct Case { const char* format; const char* fixture; const char* name; const char* expect; };
  for (Case c : {Case{"exp", "flips/444-49-mod0.exp", "444-49-mod0.exp", "Brent equation"},
                 Case{"maple", "flips/444-49-mod0.m", "444-49-mod0.m", "truncated"},
                 Case{"fmm-mpl", "fmm-catalogue/4x4x4_tensor.mpl", "4x4x4_tensor.mpl", "truncated"},
                 Case{"perminov-json", "perminov/3x4x5_m47_ZT.json", "3x4x5_m47_ZT.json", "truncated"},
                 Case{"fast-matmul", "fast-matmul/grey333-23-152", "grey333-23-152", "truncated"},
                 Case{"flip-cpd", "flip-cpd/gg-444-rank49-rec-0-0-0-z.txt", "gg-444-rank49-rec-0-0-0-z.txt", "truncated"},
                 Case{"alphaevolve-ipynb", "alphaevolve/mathematical_results.ipynb", "mathematical_results.ipynb", "truncated"},
                 Case{"alphatensor-npz", "alphatensor/factorizations_f2.npz", "factorizations_f2.npz", "truncated"}}) {
    INFO(c.fixture);
    std::string path = truncate(c.fixture, c.name, 0.6);
    std::string key = std::string(c.format) == "alphaevolve-ipynb" ? " --key 444" : std::string(c.format) == "alphatensor-npz" ? " --key 4,4,4" : "";
    std::string out_dir = test::temp_dir("trunc-out");
    auto r = refused_import(std::string("--from ") + c.format + " " + path + key, out_dir);
    CHECK(r.err.rfind("tdisc: " + path + ":", 0) == 0);
    CHECK(r.err.find(c.expect) != std::string::npos);
    std::filesystem::remove_all(out_dir);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a damaged byte inside a deflated .npz entry is caught by its CRC or by inflate", "[fast][refuse]") {
  std::string dir = test::temp_dir("npz");
  std::string bytes = test::slurp_file(test::fixture("alphatensor/factorizations_f2.npz"));
  bytes[100] = static_cast<char>(bytes[100] ^ 0x10);  // inside the first entry's deflate stream
  test::write_file(dir + "/factorizations_f2.npz", bytes);
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", dir + "/factorizations_f2.npz", {"2,2,2", {}}); }), Catch::Contains("entry 2,2,2.npy") && (Catch::Contains("CRC") || Catch::Contains("damaged")));
  std::filesystem::remove_all(dir);
}

TEST_CASE("wrong dimensions are refused with the line that shows it", "[fast][refuse]") {
  std::string dir = test::temp_dir("dims");
  // The same .exp under a name claiming 2x2x2: b13 (line 1) cannot be in B (2×2).
  std::string path = dir + "/222-11-mod0.exp";
  test::write_file(path, test::slurp_file(test::fixture("flips/223-11-mod0.exp")));
  CHECK_THAT(test::refusal([&] { import_scheme("exp", path); }), Catch::Contains("222-11-mod0.exp:1:") && Catch::Contains("b13 is outside B"));
  CHECK_THAT(test::refusal([&] { import_scheme("exp", test::fixture("flips/223-11-mod0.exp"), {"", Format{2, 2, 2}}); }), Catch::Contains("outside"));
  CHECK_THAT(test::refusal([&] { import_scheme("maple", test::fixture("flips/223-11-mod0.m"), {"", Format{2, 2, 2}}); }), Catch::Contains("wrong dimensions"));
  CHECK_THAT(test::refusal([&] { import_scheme("fast-matmul", test::fixture("fast-matmul/grey-strassen"), {"", Format{3, 3, 3}}); }), Catch::Contains("wrong dimensions"));
  CHECK_THAT(test::refusal([&] { import_scheme("perminov-json", test::fixture("perminov/2x4x5_m33_ZT.json"), {"", Format{2, 4, 4}}); }), Catch::Contains("wrong dimensions"));
  CHECK_THAT(test::refusal([&] { import_scheme("flip-cpd", test::fixture("flip-cpd/gg-333-rank23-rec-0-0-0-z.txt"), {"", Format{2, 2, 2}}); }), Catch::Contains("outside") || Catch::Contains("wrong dimensions"));
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", test::fixture("alphatensor/factorizations_r.npz"), {"2,2,3", Format{2, 2, 2}}); }), Catch::Contains("wrong dimensions"));
  CHECK_THAT(test::refusal([&] { import_scheme("alphaevolve-ipynb", test::fixture("alphaevolve/mathematical_results.ipynb"), {"245", Format{2, 5, 4}}); }), Catch::Contains("wrong dimensions"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("missing or unknown keys are refused with the keys available", "[fast][refuse]") {
  const std::string npz = test::fixture("alphatensor/factorizations_r.npz");
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", npz); }), Catch::Contains("--key") && Catch::Contains("2,2,2 2,2,3"));
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", npz, {"6,6,6", {}}); }), Catch::Contains("no scheme with key \"6,6,6\"") && Catch::Contains("11,12,12"));
  const std::string nb = test::fixture("alphaevolve/mathematical_results.ipynb");
  CHECK_THAT(test::refusal([&] { import_scheme("alphaevolve-ipynb", nb); }), Catch::Contains("--key") && Catch::Contains("444"));
  CHECK_THAT(test::refusal([&] { import_scheme("alphaevolve-ipynb", nb, {"666", {}}); }), Catch::Contains("245 247"));
}

TEST_CASE("a coefficient the declared ring cannot hold is refused", "[fast][refuse]") {
  std::string dir = test::temp_dir("ring");
  std::string path = broken_copy("flips/444-47-mod2.exp", dir, "444-47-mod2.exp", "a", "1/2*a");
  CHECK_THAT(test::refusal([&] { import_scheme("exp", path); }), Catch::Contains("cannot be held in GF2"));
  std::string json = broken_copy("perminov/2x4x9_m58_Q.json", dir, "2x4x9_m58_Q.json", "\"z2\": false", "\"z2\": true");
  CHECK_THAT(test::refusal([&] { import_scheme("perminov-json", json); }), Catch::Contains("cannot be held in GF2"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("Perminov's text form must agree with its arrays", "[fast][refuse]") {
  std::string dir = test::temp_dir("perm");
  std::string path = broken_copy("perminov/2x4x5_m33_ZT.json", dir, "2x4x5_m33_ZT.json", "m1 = (a21 - a22)", "m1 = (a21 + a22)");
  CHECK_THAT(test::refusal([&] { import_scheme("perminov-json", path); }), Catch::Contains("2x4x5_m33_ZT.json:7:") && Catch::Contains("term 1: the text form disagrees"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("garbage inside a term is refused at its line and column", "[fast][refuse]") {
  std::string dir = test::temp_dir("garbage");
  std::string path = broken_copy("flips/223-11-mod0.exp", dir, "223-11-mod0.exp", "a12*b21*(c11+c12)", "a12*b21*(c11+c12)*a11");
  CHECK_THAT(test::refusal([&] { import_scheme("exp", path); }), Catch::Contains("223-11-mod0.exp:2:") && Catch::Contains("not trilinear"));
  path = broken_copy("flips/223-11-mod0.exp", dir, "223-11-mod0.exp", "a12*b21*(c11+c12)", "a12*b21");
  CHECK_THAT(test::refusal([&] { import_scheme("exp", path); }), Catch::Contains("223-11-mod0.exp:2:") && Catch::Contains("no factor in c"));
  path = broken_copy("flips/223-11-mod0.exp", dir, "223-11-mod0.exp", "a12*b21*(c11+c12)", "a12*b21*(c11+c12");
  CHECK_THAT(test::refusal([&] { import_scheme("exp", path); }), Catch::Contains("223-11-mod0.exp:2:") && Catch::Contains("expected ')'"));
  std::filesystem::remove_all(dir);
}
