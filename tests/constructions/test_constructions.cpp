// Constructions checked by the exact verifier: every derived scheme is valid with the predicted
// format and rank, and a wrong placement of transposes/inverses is caught.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/exact_solve.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

// ⟨2,2,3;11⟩ = Strassen ⊕ classical ⟨2,2,1⟩ along p: a non-square, non-symmetric test scheme.
Scheme hk223() { return join(test::strassen(), classical_scheme({2, 2, 1}), Axis::P); }

void require_valid(const Scheme& s, Format f, int rank, Ring over = Ring::Z) {
  INFO(f.str() + " rank " + std::to_string(rank) + " " + s.provenance.source);
  REQUIRE(s.format == f);
  REQUIRE(s.rank() == rank);
  Verdict v = verify(s, over);
  INFO(v.why_not);
  REQUIRE(v.valid);
}

bool same_coefficients(const Scheme& a, const Scheme& b) {
  return a.format == b.format && a.u == b.u && a.v == b.v && a.w == b.w;
}

}  // namespace

TEST_CASE("classical schemes are valid for every format up to 3x3x3", "[fast][constructions]") {
  for (int n = 1; n <= 3; ++n)
    for (int m = 1; m <= 3; ++m)
      for (int p = 1; p <= 3; ++p) {
        Scheme s = classical_scheme({n, m, p});
        require_valid(s, {n, m, p}, n * m * p, Ring::ZT);
        CHECK(s.ring == Ring::ZT);
      }
}

TEST_CASE("join along each axis adds ranks", "[fast][constructions]") {
  Scheme s = test::strassen();
  require_valid(join(s, classical_scheme({1, 2, 2}), Axis::N), {3, 2, 2}, 11);
  require_valid(join(s, classical_scheme({2, 1, 2}), Axis::M), {2, 3, 2}, 11);
  require_valid(join(s, classical_scheme({2, 2, 1}), Axis::P), {2, 2, 3}, 11);
  require_valid(join(s, s, Axis::M), {2, 4, 2}, 14, Ring::ZT);
  require_valid(join(classical_scheme({2, 3, 1}), classical_scheme({3, 3, 1}), Axis::N), {5, 3, 1}, 15, Ring::ZT);
  CHECK_THROWS_AS(join(s, classical_scheme({2, 3, 2}), Axis::N), ContractError);
}

TEST_CASE("rotation: (U,V,W) -> (V,W,U) gives <m,p,n>, three turns give back the scheme", "[fast][constructions]") {
  Scheme s = hk223();
  Scheme r1 = rotate(s), r2 = rotate(r1), r3 = rotate(r2);
  require_valid(r1, {2, 3, 2}, 11);
  require_valid(r2, {3, 2, 2}, 11);
  CHECK(same_coefficients(r3, s));
  CHECK(r1.provenance.method == "rotate");
  CHECK(r1.provenance.parent == "sha256:" + scheme_sha256(s));
}

TEST_CASE("transpose: (U,V,W) -> (Vt,Ut,Wt) gives <p,m,n>, and is an involution", "[fast][constructions]") {
  Scheme s = hk223();
  Scheme t = transpose(s);
  require_valid(t, {3, 2, 2}, 11);
  CHECK(same_coefficients(transpose(t), s));
  require_valid(transpose(classical_scheme({2, 3, 4})), {4, 3, 2}, 24, Ring::ZT);
  // The plain (untransposed) swap (V,U,W) is not a scheme: the transposes are needed.
  Scheme wrong = t;
  wrong.u = s.v;
  wrong.v = s.u;
  wrong.w = s.w;
  CHECK_FALSE(verify(wrong, Ring::Q).valid);
}

TEST_CASE("permute_to reaches all six permutations", "[fast][constructions]") {
  Scheme s = join(hk223(), classical_scheme({2, 1, 3}), Axis::M);  // ⟨2,3,3;17⟩
  REQUIRE(verify(s, Ring::Z).valid);
  for (Format f : {Format{2, 3, 3}, Format{3, 3, 2}, Format{3, 2, 3}}) require_valid(permute_to(s, f), f, 17);
  Scheme t = join(classical_scheme({2, 3, 4}), classical_scheme({2, 3, 4}), Axis::N);  // ⟨4,3,4⟩
  Scheme u = classical_scheme({2, 3, 4});
  for (Format f : {Format{2, 3, 4}, Format{2, 4, 3}, Format{3, 2, 4}, Format{3, 4, 2}, Format{4, 2, 3},
                   Format{4, 3, 2}})
    require_valid(permute_to(u, f), f, 24, Ring::ZT);
  CHECK_THROWS_AS(permute_to(t, {2, 3, 4}), ContractError);
}

TEST_CASE("Kronecker products have the product format and rank", "[fast][constructions]") {
  Scheme s = test::strassen();
  Scheme ss = kronecker(s, s);
  require_valid(ss, {4, 4, 4}, 49, Ring::ZT);
  CHECK(ss.ring == Ring::ZT);
  // Non-square on both sides, so a mix-up of the index interleaving cannot go unnoticed.
  Scheme a = hk223();                       // ⟨2,2,3;11⟩
  Scheme b = classical_scheme({1, 3, 2});   // ⟨1,3,2;6⟩
  require_valid(kronecker(a, b), {2, 6, 6}, 66);
  require_valid(kronecker(b, a), {2, 6, 6}, 66);
  require_valid(kronecker(rotate(a), transpose(a)), {6, 6, 4}, 121);
}

TEST_CASE("a Kronecker product is labelled with the ring of its coefficients, not its first factor's",
          "[fast][constructions]") {
  const Scheme s = test::strassen();  // ZT
  Scheme q = s;                       // Q: term 0 scaled by 2 in U and by ½ in W, still exact
  for (Eigen::Index c = 0; c < q.u.cols(); ++c) q.u(0, c) *= Coeff(2);
  for (Eigen::Index c = 0; c < q.w.cols(); ++c) q.w(0, c) *= Coeff(1) / Coeff(2);
  q.ring = coefficient_ring(q);
  REQUIRE(q.ring == Ring::Q);
  REQUIRE(verify(q, Ring::Q).valid);
  for (const Scheme& k : {kronecker(s, q), kronecker(q, s)}) {
    CHECK(k.ring == Ring::Q);  // ZT ⊗ Q is Q (a copy in codegen once called it ZT)
    CHECK(verify(k, Ring::Q).valid);
    CHECK_FALSE(verify(k, Ring::ZT).valid);
  }
}

TEST_CASE("restriction keeps validity and drops the terms that vanish", "[fast][constructions]") {
  Scheme c = classical_scheme({4, 3, 2});
  auto [low, high] = split(c, Axis::N, 1);
  require_valid(low, {1, 3, 2}, 6, Ring::ZT);
  require_valid(high, {3, 3, 2}, 18, Ring::ZT);
  Scheme s = hk223();
  auto [left, right] = split(s, Axis::P, 2);
  // Strassen's seven survive on the left, the four classical products on the right.
  require_valid(left, {2, 2, 2}, 7);
  require_valid(right, {2, 2, 1}, 4);
  Scheme r = restrict_to(test::strassen(), {2, 2, 1});
  REQUIRE(verify(r, Ring::Z).valid);
  CHECK(r.rank() <= 7);
  CHECK(r.rank() >= 4);  // rank of ⟨2,2,1⟩ is 4
  Scheme q = restrict_scheme(test::strassen(), {1}, {1, 0}, {0, 1});  // reordered inner index
  REQUIRE(q.format == Format{1, 2, 2});
  REQUIRE(verify(q, Ring::Z).valid);
  CHECK_THROWS_AS(restrict_scheme(c, {0, 0}, {0}, {0}), ContractError);
}

TEST_CASE("exact inverse", "[fast][constructions]") {
  CoeffMatrix g = random_unimodular(5, 7);
  auto gi = inverse(g);
  REQUIRE(gi);
  CoeffMatrix id = CoeffMatrix::Constant(5, 5, Coeff(0));
  for (int x = 0; x < 5; ++x) id(x, x) = 1;
  CoeffMatrix prod = CoeffMatrix::Constant(5, 5, Coeff(0));
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 5; ++y)
      for (int z = 0; z < 5; ++z) prod(x, y) += g(x, z) * (*gi)(z, y);
  CHECK(prod == id);
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 5; ++y) CHECK((*gi)(x, y).is_integer());
  CoeffMatrix singular = CoeffMatrix::Constant(3, 3, Coeff(1));
  CHECK_FALSE(inverse(singular));
}

TEST_CASE("de Groote action with random unimodular matrices stays valid (seeded)", "[fast][constructions]") {
  Scheme s = hk223();
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    INFO("seed " << seed);
    Scheme t = de_groote(s, random_unimodular(2, seed), random_unimodular(2, seed + 100),
                         random_unimodular(3, seed + 200));
    require_valid(t, {2, 2, 3}, 11);
  }
  // Over GF2: a scheme valid mod 2 only stays valid mod 2 only.
  Scheme g = test::strassen();
  g.v(2, 3) = 1;
  g.ring = Ring::GF2;
  Scheme h = de_groote(g, random_unimodular(2, 5), random_unimodular(2, 6), random_unimodular(2, 7));
  CHECK(h.ring == Ring::GF2);
  CHECK(verify(h, Ring::GF2).valid);
  CHECK_FALSE(verify(h, Ring::Z).valid);
}

TEST_CASE("de Groote action with rational matrices gives a valid scheme over Q", "[fast][constructions]") {
  CoeffMatrix P(2, 2), Q(2, 2), S(3, 3);
  P << Coeff(2), Coeff(1), Coeff(1), Coeff(1);
  Q << Coeff(3), Coeff(0), Coeff(1), Coeff(1);
  S << Coeff(1), Coeff(2), Coeff(0), Coeff(0), Coeff(1), Coeff(1), Coeff(1), Coeff(0), Coeff(2);
  Scheme t = de_groote(hk223(), P, Q, S);
  require_valid(t, {2, 2, 3}, 11, Ring::Q);
  CHECK(t.ring == Ring::Q);  // 1/3 and 1/5 appear
  // The tempting wrong placement (P U Q, Q V S, S W P without inverses) is refuted.
  Scheme wrong = hk223();
  for (int r = 0; r < wrong.rank(); ++r) {
    CoeffMatrix u = term_matrix(wrong.u, r, 2, 2), uu = CoeffMatrix::Constant(2, 2, Coeff(0));
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 2; ++y)
        for (int z = 0; z < 2; ++z) uu(x, y) += P(x, z) * u(z, y);
    set_term_matrix(wrong.u, r, uu);  // P U without Q⁻¹ on the right, others untouched
  }
  CHECK_FALSE(verify(wrong, Ring::Q).valid);
  CoeffMatrix singular = CoeffMatrix::Constant(2, 2, Coeff(1));
  CHECK_THROWS_AS(de_groote(hk223(), singular, Q, S), ContractError);
}

TEST_CASE("exact Gauss–Jordan: consistent, underdetermined and inconsistent systems", "[fast][constructions]") {
  CoeffMatrix k(3, 2), b(3, 1), pref(2, 1);
  k << Coeff(1), Coeff(1), Coeff(2), Coeff(2), Coeff(0), Coeff(0);
  b << Coeff(mpq_class(1, 3)), Coeff(mpq_class(2, 3)), Coeff(0);
  pref << Coeff(0), Coeff(5);
  ExactSolution sol = solve_exact(k, b, pref);
  REQUIRE(sol.x);
  CHECK(sol.rank == 1);
  CHECK((*sol.x)(1, 0) == Coeff(5));  // free unknown kept at its preferred value
  CHECK((*sol.x)(0, 0) == Coeff(mpq_class(1, 3)) - Coeff(5));
  b(2, 0) = Coeff(0, 1);  // 0 = i: inconsistent
  k(2, 0) = Coeff(0);
  CHECK_FALSE(solve_exact(k, b, pref).x);
}
