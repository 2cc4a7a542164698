// The catalogue: every file in algorithms/ verifies and carries its provenance, INDEX.md is up to
// date, `tdisc catalog best` picks the lowest rank usable over the ring, and the exit codes.
#include <catch2/catch.hpp>
#include <array>
#include <cstdio>
#include <ctime>
#include <map>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
namespace fs = std::filesystem;

using tdisc::test::slurp;

namespace {

Scheme with_provenance(Scheme s, const std::string& source) {
  s.provenance.source = source;
  s.provenance.extra["licence"] = "test data";
  return s;
}

// Strassen with a sign error that survives modulo 2 only.
Scheme strassen_mod2() {
  Scheme s = test::strassen();
  s.v(2, 3) = 1;
  s.ring = Ring::GF2;
  return s;
}

// Strassen with U scaled by 2 and W by 1/2: rank 7 over Q (and mod 3), not over Z or mod 2.
Scheme strassen_half() {
  Scheme s = test::strassen();
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 4; ++c) {
      s.u(r, c) *= Coeff(2);
      s.w(r, c) *= *Coeff::parse("1/2");
    }
  s.ring = Ring::Q;
  return s;
}

// A small catalogue in a fresh folder, filled through `tdisc catalog add`.
std::string small_catalogue() {
  std::string dir = test::temp_dir("catalog");
  std::string files;
  int k = 0;
  for (const Scheme& s : {classical_scheme({2, 2, 2}), strassen_mod2(), strassen_half(),
                          join(test::strassen(), classical_scheme({2, 2, 1}), Axis::P)}) {
    std::string path = dir + "/in" + std::to_string(k++) + ".json";
    write_native(path, with_provenance(s, "test"));
    files += " " + path;
  }
  auto r = test::run_tdisc("catalog add --dir " + dir + "/cat" + files);
  REQUIRE(r.code == 0);
  return dir + "/cat";
}

std::string best_line(const std::string& dir, const std::string& args) {
  auto r = test::run_tdisc("catalog best --dir " + dir + " " + args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("every catalogued scheme verifies over its ring and names source and licence", "[fast][catalog]") {
  auto entries = read_catalogue(test::source_path("algorithms"));
  REQUIRE(entries.size() >= 20);
  for (const auto& e : entries) {
    INFO(e.path);
    Scheme s = read_native(e.path);
    Verdict v = verify(s, s.ring);
    INFO(v.why_not);
    CHECK(v.valid);
    CHECK_FALSE(e.source.empty());
    CHECK_FALSE(e.licence.empty());
    // Stored under the smallest ring it is valid over: a char-0 scheme is not declared above its
    // coefficients' ring.
    if (!ring_is_modular(s.ring)) CHECK(s.ring == coefficient_ring(s));
  }
}

TEST_CASE("the catalogue holds the named classics and the headline schemes", "[fast][catalog]") {
  auto all = read_catalogue(test::source_path("algorithms"));
  auto rank_over = [&](Format f, Ring r) {
    auto top = best(all, {f, true, r});
    return top ? top->rank : -1;
  };
  CHECK(rank_over({2, 2, 2}, Ring::ZT) == 7);
  CHECK(rank_over({3, 3, 3}, Ring::ZT) == 23);
  CHECK(rank_over({2, 2, 3}, Ring::ZT) == 11);
  CHECK(rank_over({2, 3, 3}, Ring::Z) == 15);
  CHECK(rank_over({4, 4, 4}, Ring::ZT) == 49);
  CHECK(rank_over({4, 4, 4}, Ring::Q) == 48);
  CHECK(rank_over({4, 4, 4}, Ring::QI) == 48);
  CHECK(rank_over({4, 4, 4}, Ring::GF2) == 47);
  CHECK(rank_over({5, 5, 5}, Ring::QI) <= 93);
  CHECK(rank_over({6, 6, 6}, Ring::ZT) == 153);  // tdisc's own: s3 walk over GF2, Hensel-lifted
  int named = 0;
  for (const auto& e : all)
    for (const char* n : {"Strassen", "Strassen-Winograd", "Laderman", "Strassen x Strassen"}) named += e.name == n;
  CHECK(named == 4);
}

TEST_CASE("INDEX.md is up to date with the catalogue", "[fast][catalog]") {
  const std::string dir = test::source_path("algorithms");
  std::string expected = index_markdown(read_catalogue(dir),
                                        read_best_known(test::source_path("algorithms/best-known/fmm_sota.json")), 5,
                                        read_known_table(test::source_path("algorithms/best-known/rings.tsv")));
  INFO("regenerate with: tdisc catalog index");
  CHECK(slurp(dir + "/INDEX.md") == expected);
  auto r = test::run_tdisc("catalog index --check");
  INFO(r.err);
  CHECK(r.code == 0);
}

TEST_CASE("INDEX.md's summary has a row for each larger format the catalogue holds", "[fast][catalog]") {
  const std::string dir = test::source_path("algorithms");
  std::vector<CatalogueEntry> all = read_catalogue(dir);
  const std::map<Format, int> known{{Format{6, 6, 6}, 153}, {Format{2, 2, 2}, 7}};
  const std::string with = index_markdown(all, known);
  CHECK(with.find("| 6x6x6 | 153 | 153 ✓ | 153 ✓ | 153 ✓ | 153 ✓ | 153 ✓ | 153 ✓ |") != std::string::npos);
  CHECK(with.find("| 2x2x2 | 7 | 7 ✓") != std::string::npos);
  std::erase_if(all, [](const CatalogueEntry& e) { return e.format.p == 6; });
  CHECK(index_markdown(all, known).find("| 6x6x6 |") == std::string::npos);  // no scheme, no row
}

TEST_CASE("catalog best picks the lowest rank usable over the ring", "[fast][catalog]") {
  std::string dir = small_catalogue();
  CHECK(best_line(dir, "--size 2x2x2 --ring Z").find(" 8 ZT 2x2x2") != std::string::npos);
  CHECK(best_line(dir, "--size 2x2x2 --ring ZT").find(" 8 ZT 2x2x2") != std::string::npos);
  CHECK(best_line(dir, "--size 2x2x2 --ring Q").find(" 7 Q 2x2x2") != std::string::npos);
  CHECK(best_line(dir, "--size 2x2x2 --ring GF2").find(" 7 GF2 2x2x2") != std::string::npos);
  CHECK(best_line(dir, "--size 2x2x2 --ring GF3").find(" 7 Q 2x2x2") != std::string::npos);  // ½ = 2 mod 3
  CHECK(best_line(dir, "--size 2x2x2").find(" 7 Q 2x2x2") != std::string::npos);  // ties: char 0 first
  // A permutation counts unless --exact; the path printed exists.
  std::string line = best_line(dir, "--size 3x2x2 --ring Z");
  CHECK(line.find(" 11 ZT 2x2x3") != std::string::npos);
  CHECK(fs::exists(line.substr(0, line.find(' '))));
  auto exact = test::run_tdisc("catalog best --dir " + dir + " --size 3x2x2 --exact");
  CHECK(exact.code == 3);
  CHECK(exact.err.find("no scheme for 3x2x2") != std::string::npos);
  auto none = test::run_tdisc("catalog best --dir " + dir + " --size 5x5x5");
  CHECK(none.code == 3);
  auto list = test::run_tdisc("catalog list --dir " + dir + " --size 2x2x2 --ring GF2");
  CHECK(list.code == 0);
  CHECK(std::count(list.out.begin(), list.out.end(), '\n') == 2);  // classical and the mod-2 Strassen
  fs::remove_all(fs::path(dir).parent_path());
}

TEST_CASE("catalog add verifies, narrows the ring, refuses invalid files and skips dominated ones", "[fast][catalog]") {
  std::string dir = test::temp_dir("catalog-add");
  Scheme s = with_provenance(test::strassen(), "test");
  s.ring = Ring::Q;  // declared wider than needed: filed as ZT
  write_native(dir + "/s.json", s);
  auto r = test::run_tdisc("catalog add --dir " + dir + "/cat " + dir + "/s.json");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("over ZT") != std::string::npos);
  auto again = test::run_tdisc("catalog add --dir " + dir + "/cat " + dir + "/s.json");
  CHECK(again.code == 0);
  CHECK(again.out.find("already catalogued") != std::string::npos);
  write_native(dir + "/c.json", with_provenance(classical_scheme({2, 2, 2}), "test"));
  auto skipped = test::run_tdisc("catalog add --if-better --dir " + dir + "/cat " + dir + "/c.json");
  CHECK(skipped.code == 0);
  CHECK(skipped.out.find("skipped") != std::string::npos);
  CHECK(read_catalogue(dir + "/cat").size() == 1);

  Scheme bad = with_provenance(test::strassen(), "test");
  bad.u(0, 3) = 0;
  write_native(dir + "/bad.json", bad);
  auto refused = test::run_tdisc("catalog add --dir " + dir + "/cat2 " + dir + "/s.json " + dir + "/bad.json");
  CHECK(refused.code == 2);
  CHECK(refused.err.find("Brent equation") != std::string::npos);
  CHECK_FALSE(fs::exists(dir + "/cat2"));  // nothing written, not even the valid one

  Scheme anonymous = test::strassen();
  write_native(dir + "/anon.json", anonymous);
  auto no_source = test::run_tdisc("catalog add --dir " + dir + "/cat3 " + dir + "/anon.json");
  CHECK(no_source.code == 2);
  CHECK(no_source.err.find("no source") != std::string::npos);
  auto given = test::run_tdisc("catalog add --dir " + dir + "/cat3 --source me --licence CC0 " + dir + "/anon.json");
  CHECK(given.code == 0);
  fs::remove_all(dir);
}

TEST_CASE("a scheme past 1 MiB of text is filed as .json.gz, read back by every reader, and a cut one is refused", "[fast][catalog]") {
  std::string dir = test::temp_dir("catalog-gzip");
  Scheme big = with_provenance(classical_scheme({10, 10, 12}), "test");  // 1200 terms
  write_native(dir + "/big.json", big);
  const auto plain = fs::file_size(dir + "/big.json");
  REQUIRE(plain > kCompressAbove);
  auto r = test::run_tdisc("catalog add --dir " + dir + "/cat " + dir + "/big.json");
  REQUIRE(r.code == 0);
  const std::string filed = catalogue_path(dir + "/cat", read_native(dir + "/big.json"));
  CHECK(filed.size() > 8);
  CHECK(filed.substr(filed.size() - 8) == ".json.gz");
  REQUIRE(fs::exists(filed));
  const std::string bytes = slurp(filed);
  CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
  CHECK(bytes.size() * 10 < plain);
  CHECK(read_native(filed).u == big.u);  // the reader inflates
  auto entries = read_catalogue(dir + "/cat");
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].rank == 1200);
  CHECK(test::run_tdisc("catalog check --dir " + dir + "/cat").code == 0);
  CHECK(test::run_tdisc("verify " + filed).code == 0);
  CHECK(test::run_tdisc("catalog add --dir " + dir + "/cat " + dir + "/big.json").out.find("already catalogued") != std::string::npos);
  std::ofstream(dir + "/cut.json.gz", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  auto cut = test::run_tdisc("verify " + dir + "/cut.json.gz");
  CHECK(cut.code == 2);
  CHECK(cut.err.find("cut.json.gz") != std::string::npos);
  CHECK(cut.err.find("gzip data is damaged or cut short") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("every derived value of rings.tsv follows from the values it names", "[fast][catalog]") {
  std::map<std::pair<std::string, std::string>, long> rank;
  std::vector<std::array<std::string, 3>> derived;  // format, ring, source
  std::istringstream in(slurp(test::source_path("algorithms/best-known/rings.tsv")));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string format, ring, r, source;
    std::getline(f, format, '\t');
    std::getline(f, ring, '\t');
    std::getline(f, r, '\t');
    std::getline(f, source, '\t');
    rank[{format, ring}] = std::stol(r);
    if (source.rfind("derived: ", 0) == 0) derived.push_back({format, ring, source});
  }
  REQUIRE(derived.size() >= 20);
  auto sorted_name = [](std::string dims) {
    std::array<int, 3> d{};
    std::sscanf(dims.c_str(), "%dx%dx%d", &d[0], &d[1], &d[2]);
    std::sort(d.begin(), d.end());
    return std::array<int, 3>{d[0], d[1], d[2]};
  };
  auto value = [&](const std::string& part, const std::string& ring) {  // "4x4x4:47": the table's rank
    const auto colon = part.find(':');
    auto d = sorted_name(part.substr(0, colon));
    long stated = std::stol(part.substr(colon + 1));
    if (d[0] == 1) CHECK(stated == d[1] * d[2]);
    else CHECK(rank.at({std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]), ring}) == stated);
    return std::pair{d, stated};
  };
  for (const auto& [format, ring, source] : derived) {
    INFO(format << " " << ring << " " << source);
    std::istringstream words(source.substr(9));
    std::string a, op, b;
    words >> a >> op >> b;
    auto [da, ra] = value(a, ring);
    auto d = sorted_name(format);
    if (op == "↾") {  // a restriction: the same rank, one index fewer
      CHECK(b == format);
      CHECK(rank.at({format, ring}) == ra);
      CHECK(d[0] + d[1] + d[2] + 1 == da[0] + da[1] + da[2]);
      CHECK((d[0] <= da[0] && d[1] <= da[1] && d[2] <= da[2]));
      continue;
    }
    auto [db, rb] = value(b, ring);
    CHECK(rank.at({format, ring}) == (op == "⊕" ? ra + rb : ra * rb));
    long volume = long(d[0]) * d[1] * d[2];
    long va = long(da[0]) * da[1] * da[2], vb = long(db[0]) * db[1] * db[2];
    CHECK(volume == (op == "⊕" ? va + vb : va * vb));  // the parts make up the format
  }
}

TEST_CASE("catalog derive writes verified constructions", "[fast][catalog]") {
  std::string dir = test::temp_dir("catalog-derive");
  write_native(dir + "/s.json", with_provenance(test::strassen(), "Strassen 1969"));
  auto kron = test::run_tdisc("catalog derive kron " + dir + "/s.json " + dir + "/s.json -o " + dir + "/ss.json");
  REQUIRE(kron.code == 0);
  Scheme ss = read_native(dir + "/ss.json");
  CHECK(ss.format == Format{4, 4, 4});
  CHECK(ss.rank() == 49);
  CHECK(verify(ss, Ring::ZT).valid);
  CHECK(ss.provenance.extra.at("licence") == "test data");
  REQUIRE(test::run_tdisc("catalog derive classical 2x2x1 -o " + dir + "/c.json").code == 0);
  REQUIRE(test::run_tdisc("catalog derive join " + dir + "/s.json " + dir + "/c.json --axis p -o " + dir + "/j.json").code == 0);
  REQUIRE(test::run_tdisc("catalog derive permute " + dir + "/j.json --to 3x2x2 -o " + dir + "/p.json").code == 0);
  Scheme p = read_native(dir + "/p.json");
  CHECK(p.format == Format{3, 2, 2});
  CHECK(verify(p, p.ring).valid);
  auto dg = test::run_tdisc("catalog derive degroote " + dir + "/j.json --seed 42 -o " + dir + "/d.json");
  REQUIRE(dg.code == 0);
  CHECK(dg.out.find("seed 42") != std::string::npos);
  Scheme d = read_native(dir + "/d.json");
  CHECK(d.provenance.seed == 42ull);
  CHECK(verify(d, d.ring).valid);
  CHECK(test::run_tdisc("catalog derive join " + dir + "/s.json " + dir + "/ss.json --axis n -o " + dir + "/x.json").code == 2);
  CHECK(test::run_tdisc("catalog derive permute " + dir + "/j.json --to 2x2x2 -o " + dir + "/x.json").code == 1);
  CHECK_FALSE(fs::exists(dir + "/x.json"));
  fs::remove_all(dir);
}

TEST_CASE("catalog exit codes", "[fast][catalog]") {
  CHECK(test::run_tdisc("catalog").code == 1);
  CHECK(test::run_tdisc("catalog frobnicate").code == 1);
  CHECK(test::run_tdisc("catalog --help").code == 0);
  CHECK(test::run_tdisc("catalog best").code == 1);                  // --size missing
  CHECK(test::run_tdisc("catalog best --size 4x4x").code == 1);      // malformed format
  CHECK(test::run_tdisc("catalog best --size 4x4 --ring R7").code == 1);
  CHECK(test::run_tdisc("catalog list --dir /nonexistent/tdisc").code == 1);
  CHECK(test::run_tdisc("catalog add").code == 1);
  CHECK(test::run_tdisc("catalog add /nonexistent/x.json").code == 1);
  CHECK(test::run_tdisc("catalog derive kron").code == 1);
  CHECK(test::run_tdisc("catalog list --size 2x2x2").code == 0);
  CHECK(test::run_tdisc("catalog check").code == 0);
}

TEST_CASE("verifying a 6x6x6 scheme of rank 161 takes well under a second", "[slow][catalog]") {
  auto all = read_catalogue(test::source_path("algorithms"));
  auto s2 = best(all, {Format{2, 2, 2}, false, Ring::ZT}), s3 = best(all, {Format{3, 3, 3}, false, Ring::ZT});
  REQUIRE(s2);
  REQUIRE(s3);
  Scheme big = kronecker(read_native(s2->path), read_native(s3->path));
  REQUIRE(big.rank() == 161);
  // CPU time of the process, not wall-clock: other builds on a shared machine delay the test but do
  // not add to this, so the bound checks the verifier, not the load.
  const std::clock_t t0 = std::clock();
  Verdict v = verify(big, Ring::ZT);
  const double seconds = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
  CHECK(v.valid);
  CHECK(v.equations == 46656);
  // 0.026 s in-process on a shared 2-core VM (docs/PERFORMANCE.md, "Verification").
  CHECK(seconds < 1.0);
}

TEST_CASE("algorithms/seed.sh rebuilds the same catalogue from the fixtures", "[slow][catalog]") {
  std::string dir = test::temp_dir("seed") + "/algorithms";
  std::string cmd = "cd " + test::source_path("") + " && CATALOG_DIR=" + dir + " TDISC=" + TDISC_BINARY +
                    " algorithms/seed.sh >" + dir + ".log 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto relative_names = [](const std::vector<CatalogueEntry>& v) {
    std::vector<std::string> out;
    for (const auto& e : v) out.push_back(e.relative);
    return out;
  };
  CHECK(relative_names(read_catalogue(dir)) == relative_names(read_catalogue(test::source_path("algorithms"))));
  CHECK(slurp(dir + "/INDEX.md") == slurp(test::source_path("algorithms/INDEX.md")));
  fs::remove_all(fs::path(dir).parent_path());
}
