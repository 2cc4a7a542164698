// Galois descent from Q(i) to Q (decomposition/descent.hpp): AlphaEvolve's complex 4x4:48 becomes a
// rational scheme equivalent to the Dumas–Pernet–Sedoglavic 48; Strassen moved by a complex sandwich
// comes back rational; a set of terms with no identity-matching cocycle is refused with a proof; the
// norm test of Q(i). Every rational result is checked by the verifier over Q.
#include <catch2/catch.hpp>

#include "decomposition/constructions.hpp"
#include "decomposition/descent.hpp"
#include "decomposition/native.hpp"
#include "decomposition/sandwich_simplify.hpp"
#include "decomposition/scheme_ansatz.hpp"
#include "decomposition/stabiliser.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

Scheme catalogue(const std::string& file) { return read_native(test::source_path("algorithms/" + file)); }

CoeffMatrix matrix(int d, std::initializer_list<Coeff> entries) {
  CoeffMatrix m(d, d);
  int k = 0;
  for (const Coeff& c : entries) m.data()[k++] = c;
  return m;
}

}  // namespace

TEST_CASE("AlphaEvolve's complex 4x4:48 descends to a rational 48 equivalent to the published rational one",
          "[fast][symmetry][descent]") {
  const Scheme complex48 = catalogue("4x4x4/r48-QI-41f141a1.json");
  REQUIRE(coefficient_ring(complex48) == Ring::QI);
  const Descent d = descend_to_rationals(complex48, 1, 8);
  INFO(d.why_not);
  REQUIRE(d.rational);
  CHECK(coefficient_ring(*d.rational) != Ring::QI);
  CHECK(verify(*d.rational, Ring::Q).valid);
  // The cocycle: each matrix M meets M·conj(M) = I, and it carries each term onto its conjugate.
  const Scheme conjugated = conjugate(complex48);
  CHECK(isotropy_between(complex48, conjugated));
  CHECK(isotropy_between(*d.rational, catalogue("4x4x4/r48-Q-2fc8ef12.json")));
  // The seed decides the result.
  const Descent again = descend_to_rationals(complex48, 1, 8);
  REQUIRE(again.rational);
  CHECK(scheme_sha256(*again.rational) == scheme_sha256(*d.rational));
}

TEST_CASE("Strassen moved by a complex sandwich descends back to Q", "[fast][symmetry][descent]") {
  const Scheme strassen = catalogue("2x2x2/r7-ZT-02268ba0.json");
  const Coeff i(0, 1);
  const Scheme moved = de_groote(strassen, matrix(2, {1, i, 0, 1}), matrix(2, {1, 0, Coeff(1, 1), 1}),
                                 matrix(2, {2, i, i, 1}));
  REQUIRE(coefficient_ring(moved) == Ring::QI);
  REQUIRE(verify(moved, Ring::QI).valid);
  const Descent d = descend_to_rationals(moved, 7, 16);
  REQUIRE(d.rational);
  CHECK(coefficient_ring(*d.rational) != Ring::QI);
  CHECK(verify(*d.rational, Ring::Q).valid);
  CHECK(d.cocycle.P.size() == 4);
}

TEST_CASE("a rational scheme is its own descent", "[fast][symmetry][descent]") {
  const Scheme q = catalogue("4x4x4/r48-Q-2fc8ef12.json");
  const Descent d = descend_to_rationals(q, 1, 1);
  REQUIRE(d.rational);
  CHECK(scheme_sha256(*d.rational) == scheme_sha256(q));
}

TEST_CASE("terms with no sandwich onto their conjugates are refused with a proof", "[fast][symmetry][descent]") {
  // Term 1 of the complex 48 scaled by i: its conjugate is −1 times the conjugate scaled, so the
  // identity matching the other 47 terms force cannot carry it (not a scheme any more, but a set of
  // rank-one tensors has a descent or not all the same).
  Scheme s = catalogue("4x4x4/r48-QI-41f141a1.json");
  for (Eigen::Index j = 0; j < s.u.cols(); ++j) s.u(0, j) *= Coeff(0, 1);
  const Descent d = descend_to_rationals(s, 1, 4);
  CHECK_FALSE(d.rational);
  CHECK(d.proved_none);
  CHECK(d.why_not.find("no sandwich carries each term onto its complex conjugate") != std::string::npos);
}

TEST_CASE("norms of Q(i): sums of two rational squares", "[fast][symmetry][descent]") {
  for (const char* q : {"1", "2", "5", "1/2", "25/13", "9"}) {
    const NormSplit n = split_norm(mpq_class(q));
    INFO(q);
    REQUIRE(n.decided);
    REQUIRE(n.c);
    CHECK(n.c->re() * n.c->re() + n.c->im() * n.c->im() == mpq_class(q));
  }
  for (const char* q : {"3", "-1", "7/2", "21"}) {
    INFO(q);
    const NormSplit n = split_norm(mpq_class(q));
    CHECK(n.decided);
    CHECK_FALSE(n.c);
  }
}

TEST_CASE("tdisc descend writes a verified rational scheme; a GF2 scheme is refused with its file",
          "[fast][symmetry][descent][cli]") {
  const std::string out = test::temp_dir("descend-cli") + "/r48.json";
  const auto r = test::run_tdisc("descend " + test::source_path("algorithms/4x4x4/r48-QI-41f141a1.json") +
                                 " --tries 4 -o " + out);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("rational over Q") != std::string::npos);
  const Scheme written = read_native(out);
  CHECK(verify(written, Ring::Q).valid);
  CHECK(written.provenance.seed == 1u);
  const std::string gf2 = test::source_path("algorithms/4x4x4/r47-GF2-d3d54b5e.json");
  const auto bad = test::run_tdisc("descend " + gf2);
  CHECK(bad.code == 2);
  CHECK(bad.err.find("tdisc: " + gf2) != std::string::npos);
  CHECK(bad.err.find("GF2") != std::string::npos);
}

TEST_CASE("a rational sandwich from the scheme's own rank-one factors makes the descended 48 sparser",
          "[fast][symmetry][descent]") {
  const Descent d = descend_to_rationals(catalogue("4x4x4/r48-QI-41f141a1.json"), 1, 4);
  REQUIRE(d.rational);
  const Simplified a = simplify_by_sandwich(*d.rational, 3, 32);
  CHECK(a.tried == 32);
  CHECK(sparsity(a.scheme) < sparsity(*d.rational));
  CHECK(a.sandwich.P.size() == 16);
  CHECK(verify(a.scheme, Ring::Q).valid);
  CHECK(isotropy_between(a.scheme, *d.rational));
  // The seed decides; no tries leaves the scheme as it was, only normalised.
  CHECK(scheme_sha256(simplify_by_sandwich(*d.rational, 3, 32).scheme) == scheme_sha256(a.scheme));
  const Simplified none = simplify_by_sandwich(*d.rational, 3, 0);
  CHECK(none.sandwich.P.size() == 0);
  CHECK(same_tensor_set(none.scheme, *d.rational));
}

TEST_CASE("normalised terms: U and V primitive integral with a positive first entry, the tensor unchanged",
          "[fast][symmetry][descent]") {
  Scheme s = catalogue("4x4x4/r48-Q-2fc8ef12.json");
  const Scheme before = s;
  for (Eigen::Index j = 0; j < s.u.cols(); ++j) s.u(0, j) *= Coeff(mpq_class(-3, 2));
  for (Eigen::Index j = 0; j < s.w.cols(); ++j) s.w(0, j) *= Coeff(mpq_class(-2, 3));
  normalise_terms(s);
  CHECK(same_tensor_set(s, before));
  for (int r = 0; r < s.rank(); ++r) {
    Eigen::Index first = 0;
    while (s.u(r, first).is_zero()) ++first;
    CHECK(s.u(r, first).re() > 0);
    mpz_class g = 0;
    for (Eigen::Index j = 0; j < s.u.cols(); ++j) {
      CHECK(s.u(r, j).is_integer());
      mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), s.u(r, j).re().get_num_mpz_t());
    }
    CHECK(g == 1);
  }
}
