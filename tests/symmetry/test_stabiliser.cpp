// The stabiliser of a scheme: Strassen's group of order 36 (Burichenko 2014), Laderman's S4 (Burichenko
// 2015), the catalogue's 4x4:48s, the classical algorithm (an infinite group, refused), a scheme with one
// coefficient changed; each element checked independently of the search, with the verifier.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "decomposition/scheme_ansatz.hpp"
#include "decomposition/stabiliser.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

Scheme catalogue(const std::string& file) { return read_native(test::source_path("algorithms/" + file)); }

// The rational 4x4:48's group, computed once for the cases that need it.
const IsotropyGroup& r48_group() {
  static const IsotropyGroup g = stabiliser(catalogue("4x4x4/r48-Q-2fc8ef12.json"));
  return g;
}

// The same multiset of rank-one tensors, by the symmetry core's same_tensor (not the search's keys).
bool same_terms(const Scheme& a, const Scheme& b) {
  if (a.rank() != b.rank()) return false;
  std::vector<bool> used(static_cast<size_t>(b.rank()), false);
  for (int r = 0; r < a.rank(); ++r) {
    bool found = false;
    for (int q = 0; q < b.rank() && !found; ++q)
      if (!used[static_cast<size_t>(q)] && same_tensor(term_column(a, r), term_column(b, q), a.format))
        used[static_cast<size_t>(q)] = found = true;
    if (!found) return false;
  }
  return true;
}

// Every element maps s onto itself; the images under the generators are again valid schemes.
void check_every_element(const IsotropyGroup& g, const Scheme& s) {
  for (int e = 0; e < g.order(); ++e) {
    INFO("element " << e);
    CHECK(same_terms(apply_isotropy(g.elements[static_cast<size_t>(e)], s), s));
  }
  for (const Isotropy& x : g.generators) CHECK(verify(apply_isotropy(term_action(x, g.format), s), Ring::QI).valid);
}

int with_sigma(const IsotropyGroup& g, bool transposed, int shift) {  // generators of that outer part
  int n = 0;
  for (const Isotropy& x : g.generators) n += x.transposed == transposed && x.shift == shift;
  return n;
}

}  // namespace

TEST_CASE("Strassen's stabiliser has order 36, including transposition (Burichenko 2014)", "[fast][symmetry]") {
  const Scheme s = test::strassen();
  const IsotropyGroup g = stabiliser(s);
  CHECK(g.order() == 36);  // S3 × S3: Burichenko, "On symmetries of the Strassen algorithm", arXiv:1408.6273
  check_every_element(g, s);
  CHECK(rank_types(s) == "6×(1,1,1) + 1×(2,2,2)");
  // Winograd's variant is in Strassen's orbit (de Groote 1978): the same order.
  CHECK(stabiliser(catalogue("2x2x2/r7-ZT-5b72cc28.json")).order() == 36);
  // 36 = 6 sandwiches × the 6 permutations of the factors: some generator must transpose, one shift.
  CHECK(with_sigma(g, true, 0) + with_sigma(g, true, 1) + with_sigma(g, true, 2) > 0);
  CHECK(with_sigma(g, false, 1) + with_sigma(g, false, 2) + with_sigma(g, true, 1) + with_sigma(g, true, 2) > 0);
}

TEST_CASE("Laderman's stabiliser is S4 of order 24 (Burichenko 2015)", "[fast][symmetry]") {
  const Scheme s = catalogue("3x3x3/r23-ZT-5f0ca47d.json");
  const IsotropyGroup g = stabiliser(s);
  CHECK(g.order() == 24);
  check_every_element(g, s);
}

TEST_CASE("the catalogue's 4x4:48s, rational and complex, share a group of order 64", "[fast][symmetry]") {
  // FMM's page says "a group of 16 isotropies" for this orbit; the exact search finds 32 sandwiches and
  // 32 more elements composed with transpose∘shift, each checked here (docs/symmetry.md).
  for (const char* file : {"4x4x4/r48-Q-2fc8ef12.json", "4x4x4/r48-QI-41f141a1.json"}) {
    INFO(file);
    const Scheme s = catalogue(file);
    const bool rational = std::string(file).find("-Q-") != std::string::npos;
    const IsotropyGroup g = rational ? r48_group() : stabiliser(s);
    CHECK(g.order() == 64);
    CHECK(rank_types(s) == "32×(1,1,1) + 16×(2,2,2)");
    if (rational) check_every_element(g, s);  // element by element
  }
}

TEST_CASE("the classical algorithm's stabiliser is infinite and refused with the reason", "[fast][symmetry]") {
  const Scheme s = classical_scheme({2, 2, 2});
  try {
    stabiliser(s);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("infinite") != std::string::npos);
  }
}

TEST_CASE("a zero factor and a modular scheme are refused, not searched", "[fast][symmetry]") {
  Scheme s = test::strassen();
  for (Eigen::Index c = 0; c < s.u.cols(); ++c) s.u(3, c) = 0;
  CHECK_THROWS_WITH(stabiliser(s), Catch::Contains("zero factor"));
  CHECK_THROWS_WITH(stabiliser(catalogue("4x4x4/r47-GF2-d3d54b5e.json")), Catch::Contains("GF2"));
}

TEST_CASE("one coefficient changed gives a smaller group", "[fast][symmetry]") {
  Scheme s = test::strassen();
  s.w(0, 0) = s.w(0, 0) + Coeff(2);  // no longer valid, but still a set of rank-one tensors
  const IsotropyGroup g = stabiliser(s);
  CHECK(g.order() < 36);
  Scheme q = catalogue("4x4x4/r48-Q-2fc8ef12.json");
  q.v(5, 3) = q.v(5, 3) + Coeff(1);
  CHECK(stabiliser(q).order() < 64);
}

TEST_CASE("Hopcroft-Kerr as 3x2x3 has S3 x Z2 (Burichenko 2015); as 2x3x3, without the transpose, S3", "[fast][symmetry]") {
  const Scheme hk = catalogue("2x3x3/r15-ZT-a7276e5e.json");
  CHECK(stabiliser(hk).order() == 6);  // ⟨2,3,3⟩: n ≠ p, so no transpose (an isotropy with m = p is not expressible)
  const Scheme turned = permute_to(hk, {3, 2, 3});
  const IsotropyGroup g = stabiliser(turned);
  CHECK(g.order() == 12);
  check_every_element(g, turned);
}

TEST_CASE("a non-square format has sandwiches only", "[fast][symmetry]") {
  const Scheme s = catalogue("2x4x5/r32-Q-16679ed6.json");
  const IsotropyGroup g = stabiliser(s);
  CHECK(g.order() >= 1);
  for (const Isotropy& x : g.generators) CHECK((!x.transposed && x.shift == 0));
  check_every_element(g, s);
}

TEST_CASE("the ansatz of a scheme gives it back from its representatives", "[fast][symmetry]") {
  for (const char* file : {"2x2x2/r7-ZT-02268ba0.json", "4x4x4/r48-Q-2fc8ef12.json"}) {
    INFO(file);
    const Scheme s = catalogue(file);
    const IsotropyGroup g = std::string(file).find("r48") != std::string::npos ? r48_group() : stabiliser(s);
    const SchemeAnsatz sa = scheme_ansatz(s, g);
    CHECK(sa.ansatz.rank() == s.rank());
    int covered = 0;
    for (size_t o = 0; o < sa.ansatz.orbits.size(); ++o) {
      const AnsatzOrbit& orbit = sa.ansatz.orbits[o];
      CHECK(orbit.map_elements.front() == 0);
      CHECK(orbit.map_elements.size() * orbit.stabiliser_elements.size() == static_cast<size_t>(g.order()));
      covered += static_cast<int>(orbit.map_elements.size());
    }
    CHECK(covered == s.rank());
    const Scheme back = expand(sa.ansatz, sa.seeds);
    CHECK(same_terms(back, s));
    CHECK(verify(back, Ring::QI).valid);
    // Any other seed expands to a scheme that the whole group maps onto itself.
    std::vector<CoeffMatrix> other = sa.seeds;
    for (CoeffMatrix& theta : other)
      for (Eigen::Index i = 0; i < theta.rows(); ++i) theta(i, 0) += Coeff(static_cast<long>(i % 3) - 1);
    const Scheme moved = expand(sa.ansatz, other);
    for (int e = 0; e < g.order(); ++e) CHECK(same_terms(apply_isotropy(g.elements[static_cast<size_t>(e)], moved), moved));
  }
}

TEST_CASE("Strassen x Strassen has 432 symmetries: 36² / 6 pairs sharing their factor permutation, times the swap",
          "[slow][symmetry]") {
  const Scheme s = catalogue("4x4x4/r49-ZT-ab549ddb.json");
  const IsotropyGroup g = stabiliser(s);
  CHECK(g.order() == 432);
  const SchemeAnsatz sa = scheme_ansatz(s, g);
  CHECK(sa.ansatz.orbits.size() == 3);  // 36 (1,1,1) terms, 12 (2,2,2), and I⊗I⊗I
  CHECK(same_terms(expand(sa.ansatz, sa.seeds), s));
}

TEST_CASE("isotropy_between: Strassen ~ Winograd, the rational ~ the complex 48, not a changed scheme", "[fast][symmetry]") {
  const Scheme strassen = test::strassen();
  const Scheme winograd = catalogue("2x2x2/r7-ZT-5b72cc28.json");
  const auto g = isotropy_between(strassen, winograd);
  REQUIRE(g.has_value());
  CHECK(same_terms(apply_isotropy(term_action(*g, strassen.format), strassen), winograd));
  Scheme changed = strassen;
  changed.w(0, 0) = changed.w(0, 0) + Coeff(2);
  CHECK_FALSE(isotropy_between(changed, strassen).has_value());
  // FRONTIER §1b: AlphaEvolve's complex 48 is the rational one up to a change of basis over Q(i).
  const Scheme q = catalogue("4x4x4/r48-Q-2fc8ef12.json");
  const Scheme qi = catalogue("4x4x4/r48-QI-41f141a1.json");
  const auto h = isotropy_between(q, qi);
  REQUIRE(h.has_value());
  CHECK(same_terms(apply_isotropy(term_action(*h, q.format), q), qi));
}

TEST_CASE("scheme_ansatz refuses a group that does not fix the scheme", "[fast][symmetry]") {
  Scheme changed = test::strassen();
  changed.w(0, 0) = changed.w(0, 0) + Coeff(2);
  CHECK_THROWS_WITH(scheme_ansatz(changed, stabiliser(test::strassen())), Catch::Contains("does not fix"));
}
