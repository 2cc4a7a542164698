// Issue 29 items 2–3: the qcsr-npz reader (LITA / Tilloy layout), exact verification by residues,
// the best-known table per ring, INDEX's ★ against it, and the project construction.
#include <catch2/catch.hpp>
#include <filesystem>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/native.hpp"
#include "decomposition/projection.hpp"
#include "src/catalog/best_known.hpp"
#include "src/catalog/catalogue.hpp"
#include "tests/support.hpp"
#include "verifier/residues.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

Scheme with_changed_coefficient(Scheme s, int term) {
  s.w(term, 0) = s.w(term, 0) + Coeff(1);
  return s;
}

}  // namespace

TEST_CASE("qcsr-npz: the LITA layout imports, rationals and the C orientation exactly", "[fast][catalog][sources]") {
  Scheme s = import_scheme("qcsr-npz", test::fixture("qcsr/2x2x3_r11.npz"));
  CHECK(s.format == Format{2, 2, 3});
  CHECK(s.rank() == 11);
  CHECK(s.ring == Ring::Q);  // holds 1/2 and 1/3
  CHECK(verify(s, Ring::Q).valid);
  CHECK_FALSE(verify(s, Ring::GF2).valid);  // ½ has no residue mod 2
  // W writes C row-major (entry i·p+k); tdisc stores w(r, k·n+i). Term 9 is a00·b02 → C[0][2].
  CHECK(s.w(7, 2 * 2 + 0) == Coeff(1));
  Scheme broken = import_scheme("qcsr-npz", test::fixture("qcsr/2x2x3_r11_broken.npz"));
  Verdict v = verify(broken, Ring::Q);
  CHECK_FALSE(v.valid);
  CHECK(v.why_not.find("a[0][1]") != std::string::npos);
  auto r = test::run_tdisc("import --from qcsr-npz " + test::fixture("qcsr/2x2x3_r11_broken.npz"));
  CHECK(r.code == 2);
}

TEST_CASE("verification by residues agrees with the exact product, valid or not", "[fast][catalog][sources]") {
  // ⟨4,4,6⟩ from Strassen ⊗ classical with a rational de Groote twist (denominators in the terms).
  Scheme s = kronecker(test::strassen(), classical_scheme({2, 2, 3}));
  s.u.row(3) *= Coeff(mpq_class(2, 3));
  s.w.row(3) *= Coeff(mpq_class(3, 2));
  REQUIRE(verify(s, Ring::Q).valid);
  auto quick = verify_by_residues(s);
  REQUIRE(quick);
  CHECK(quick->valid);
  CHECK(quick->primes >= 1);
  for (int term : {0, 5, s.rank() - 1}) {
    Scheme bad = with_changed_coefficient(s, term);
    auto q = verify_by_residues(bad);
    REQUIRE(q);
    CHECK_FALSE(q->valid);
    CHECK(q->first_failing >= 0);
    CHECK_FALSE(verify(bad, Ring::Q).valid);
  }
  Scheme complex = s;
  complex.u(0, 0) = Coeff(mpq_class(0), mpq_class(1));
  CHECK_FALSE(verify_by_residues(complex));  // QI: not applicable
}

TEST_CASE("the best-known table answers per ring, any permutation", "[fast][catalog][sources]") {
  KnownTable t = read_known_table(test::source_path("algorithms/best-known/rings.tsv"));
  CHECK(t.size() == 680 * 5);  // every sorted format 2 ≤ n ≤ m ≤ p ≤ 16, five rings
  CHECK(known_rank(t, {16, 16, 16}, Ring::Q)->rank == 2236);
  CHECK(known_rank(t, {16, 16, 16}, Ring::Z)->rank == 2401);
  CHECK(known_rank(t, {4, 4, 4}, Ring::GF2)->rank == 47);
  CHECK(known_rank(t, {4, 4, 4}, Ring::QI)->rank == 48);  // QI answers with Q
  CHECK(known_rank(t, {15, 16, 16}, Ring::Q)->rank == known_rank(t, {16, 15, 16}, Ring::Q)->rank);
  for (const auto& [key, k] : t) {  // the ring inclusions hold: ZT ≥ Z ≥ Q, Z ≥ GF2, GF3
    auto at = [&](Ring r) { return t.at({key.first, r}).rank; };
    CHECK(at(Ring::ZT) >= at(Ring::Z));
    CHECK(at(Ring::Z) >= at(Ring::Q));
    CHECK(at(Ring::Z) >= at(Ring::GF2));
    CHECK(at(Ring::Z) >= at(Ring::GF3));
    CHECK_FALSE(k.source.empty());
    CHECK_FALSE(k.date.empty());
  }
  CHECK_FALSE(known_rank(t, {17, 2, 2}, Ring::Q));
  auto r = test::run_tdisc("catalog best --size 16x15x16 --ring Q --known");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("2236 Q 15x16x16 derived: 16x16x16:2236 ↾ 15x16x16", 0) == 0);  // LITA's 16³ with one index removed (the sources list 2262)
  CHECK(test::run_tdisc("catalog best --size 17x2x2 --known").code == 3);
}

TEST_CASE("INDEX marks each ring against its own best known rank; ★ links the file", "[fast][catalog][sources]") {
  std::vector<CatalogueEntry> all = read_catalogue(test::source_path("algorithms"));
  const std::map<Format, int> any{{Format{4, 4, 4}, 48}};
  KnownTable rings;
  rings[{Format{4, 4, 4}, Ring::GF2}] = {47, "s", "d"};
  rings[{Format{4, 4, 4}, Ring::Z}] = {50, "s", "d"};  // pretend Z's best were 50: our 49 beats it
  const std::string md = index_markdown(all, any, 4, rings);
  const std::string row = md.substr(md.find("| 4x4x4 |"), md.find('\n', md.find("| 4x4x4 |")) - md.find("| 4x4x4 |"));
  INFO(row);
  CHECK(row.find("| 47 ✓ |") != std::string::npos);           // GF2: equal to its ring's value
  CHECK(row.find("[49 ★](4x4x4/r49-") != std::string::npos);  // Z: below, linked
  CHECK(row.find("| 49 |") != std::string::npos);             // ZT: no ring value, 49 > any's 48
  const std::string plain = index_markdown(all, any, 4);
  CHECK(plain.find("★") != std::string::npos);  // without rings: mod-2 47 is below any-ring 48
}

TEST_CASE("project deletes the indices that make terms vanish, and the result verifies", "[fast][catalog][sources]") {
  // ⟨1,2,2⟩ classical (4 terms) on row 0, Strassen on rows 1–2: ⟨3,2,2;11⟩.
  Scheme s = join(classical_scheme({1, 2, 2}), test::strassen(), Axis::N);
  REQUIRE(s.rank() == 11);
  ProjectionChoice c = best_projection(s, {2, 2, 2});
  CHECK(c.keep_i == std::vector<int>{1, 2});
  CHECK(c.rank == 7);
  Scheme p = restrict_scheme(s, c.keep_i, c.keep_j, c.keep_k);
  CHECK(p.rank() == 7);
  CHECK(verify(p, Ring::ZT).valid);
  CHECK(restrict_to(s, {2, 2, 2}).rank() > 7);  // the leading rows keep more terms
  const std::string dir = test::temp_dir("project");
  write_native(dir + "/in.json", s);
  auto r = test::run_tdisc("catalog derive project " + dir + "/in.json --to 2x2x2 --out " + dir + "/out.json");
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("rank 7") != std::string::npos);
}

TEST_CASE("verify uses residues on a 14x14x14 scheme and still refutes a broken one", "[catalog][sources]") {
  Scheme s = kronecker(test::strassen(), classical_scheme({7, 7, 7}));  // ⟨14,14,14;2401⟩
  s.u.row(10) *= Coeff(mpq_class(5, 7));
  s.w.row(10) *= Coeff(mpq_class(7, 5));
  REQUIRE(residues_preferred(s));
  CHECK(verify(s, Ring::Q).valid);
  CHECK_FALSE(verify(s, Ring::Z).valid);  // 5/7 is not an integer
  Scheme bad = with_changed_coefficient(s, 2000);
  Verdict v = verify(bad, Ring::Q);
  CHECK_FALSE(v.valid);
  CHECK(v.failure);  // described by the exact product
}

TEST_CASE("a rational scheme whose denominators are units mod 3 holds over GF3, as rings.tsv says", "[fast][catalog][sources]") {
  // Perminov's 4x4x14:163 over Q (MIT): not over Z, but over GF3; q-mod-p.tsv names it for the table.
  Scheme s = import_scheme("perminov-json", test::fixture("perminov/4x4x14_m163_Q.json.gz"));
  CHECK(s.rank() == 163);
  CHECK(verify(s, Ring::Q).valid);
  CHECK_FALSE(verify(s, Ring::Z).valid);
  CHECK(verify(s, Ring::GF3).valid);
  KnownTable t = read_known_table(test::source_path("algorithms/best-known/rings.tsv"));
  CHECK(known_rank(t, {4, 4, 14}, Ring::GF3)->rank == 163);
  CHECK(known_rank(t, {4, 4, 14}, Ring::GF3)->source.find("Q/4x4x14_m163_Q.json") != std::string::npos);
  CHECK(known_rank(t, {4, 4, 14}, Ring::Z)->rank == 164);
}

TEST_CASE("over GF2 and GF3 a large format is verified by one contraction mod p", "[fast][catalog][sources]") {
  Scheme s = kronecker(test::strassen(), classical_scheme({7, 7, 7}));  // ⟨14,14,14;2401⟩
  s.u.row(10) *= Coeff(mpq_class(5, 7));  // 5 and 7 are units mod 2 and mod 3
  s.w.row(10) *= Coeff(mpq_class(7, 5));
  REQUIRE(residues_preferred(s));
  CHECK(holds_mod_prime(s, 2));
  CHECK(holds_mod_prime(s, 3));
  CHECK(verify(s, Ring::GF2).valid);
  CHECK(verify(s, Ring::GF3).valid);
  Scheme bad = with_changed_coefficient(s, 2000);  // +1 in one coefficient: wrong mod every prime
  CHECK_FALSE(holds_mod_prime(bad, 2));
  CHECK_FALSE(holds_mod_prime(bad, 3));
  // Wrong over Q, right mod 2 only: a coefficient off by 2 in the same place.
  Scheme even = s;
  even.w(2000, 0) = even.w(2000, 0) + Coeff(2);
  CHECK(holds_mod_prime(even, 2));
  CHECK_FALSE(holds_mod_prime(even, 3));
  const RingReport rep = classify(even);
  CHECK_FALSE(rep.valid_char0);
  CHECK(rep.valid_mod2);
  CHECK_FALSE(rep.valid_mod3);
  CHECK_THROWS(holds_mod_prime(s, 4));
}

namespace {

// A copy of the fixture checkout tests/data/cwschemes/<which> in a fresh folder, to damage.
std::string checkout_copy(const std::string& which, const std::string& tag) {
  const std::string dir = test::temp_dir(tag) + "/checkout";
  std::filesystem::copy(test::fixture("cwschemes/" + which), dir, std::filesystem::copy_options::recursive);
  return dir;
}

std::filesystem::path only_object_other_than(const std::string& dir, const std::string& root) {
  for (const auto& e : std::filesystem::directory_iterator(dir + "/src/cwschemes/data/objects"))
    if (e.path().stem().string() != root) return e.path();
  return {};
}

}  // namespace

TEST_CASE("cwschemes: a checkout in Tilloy's layout imports through its digests, exactly", "[fast][catalog][sources]") {
  const std::string entry = test::fixture("cwschemes/good/schemes/2.json");
  Scheme s = import_scheme("cwschemes", entry);
  CHECK(s.format == Format{2, 2, 2});
  CHECK(s.rank() == 7);
  CHECK(s.ring == Ring::Q);  // term 2 holds 2/3 and 3/2
  CHECK(verify(s, Ring::Q).valid);
  CHECK(s.provenance.source.find("AntoineTilloy/explicit-matmul-schemes") != std::string::npos);
  // The broken copy has consistent digests: it imports, and exact verification refutes it.
  Scheme broken = import_scheme("cwschemes", test::fixture("cwschemes/broken/schemes/2.json"));
  CHECK_FALSE(verify(broken, Ring::Q).valid);
}

TEST_CASE("cwschemes: a damaged or substituted object is refused by its digest", "[fast][catalog][sources]") {
  const std::string dir = checkout_copy("good", "cwschemes-damaged");
  const std::string root = "92ac202d90a972529538709343f424d4f12b0ab01d3ccd65abe3adb91bf68ff2";
  // The .npz object replaced by the broken checkout's (a valid gzip whose digest is another).
  const std::filesystem::path npz = only_object_other_than(dir, root);
  REQUIRE_FALSE(npz.empty());
  std::filesystem::copy_file(only_object_other_than(test::fixture("cwschemes/broken"), root), npz,
                             std::filesystem::copy_options::overwrite_existing);
  try {
    import_scheme("cwschemes", dir + "/schemes/2.json");
    FAIL("a substituted object was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("SHA-256") != std::string::npos);
  }
  // A cut-short gzip object.
  std::filesystem::resize_file(npz, 40);
  CHECK_THROWS_AS(import_scheme("cwschemes", dir + "/schemes/2.json"), InputError);
  CHECK(test::run_tdisc("import --from cwschemes " + dir + "/schemes/2.json").code == 2);
}

TEST_CASE("import-sources reads a cwschemes checkout's entries only, and refuses the broken one", "[fast][catalog][sources]") {
  const std::string out = test::temp_dir("cwschemes-sources");
  auto good = test::run_tdisc("catalog import-sources " + test::fixture("cwschemes/good") + " --dir " + out + "/cat");
  INFO(good.out << good.err);
  CHECK(good.code == 0);  // catalogue.json beside it is not read as a scheme
  CHECK(good.out.find("1 added, 0 skipped") != std::string::npos);
  CHECK(read_catalogue(out + "/cat").size() == 1);
  auto small = test::run_tdisc("catalog import-sources " + test::fixture("cwschemes/good") + " --dir " + out + "/none --max-dim 1");
  CHECK(small.code == 0);
  CHECK(small.out.find("0 added, 1 skipped") != std::string::npos);  // by the entry's size, before any object is read
  auto broken = test::run_tdisc("catalog import-sources " + test::fixture("cwschemes") + " --dir " + out + "/both");
  INFO(broken.out << broken.err);
  CHECK(broken.code == 2);
  CHECK(broken.out.find("1 added, 0 skipped (dominated, present or too large), 1 failed") != std::string::npos);
  CHECK(broken.err.find("broken/schemes/2.json") != std::string::npos);
}
