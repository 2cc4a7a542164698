// Isotropies on term columns, group closure and symmetric ansätze, checked exactly against the
// scheme-level constructions (rotate, transpose, de_groote) and the verifier.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "decomposition/ansatz.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

// Whether two schemes hold the same multiset of rank-one tensors (terms in any order).
bool same_terms(const Scheme& a, const Scheme& b) {
  if (a.rank() != b.rank()) return false;
  std::vector<bool> used(b.rank(), false);
  for (int r = 0; r < a.rank(); ++r) {
    bool found = false;
    for (int q = 0; q < b.rank() && !found; ++q)
      if (!used[q] && same_tensor(term_column(a, r), term_column(b, q), a.format)) used[q] = found = true;
    if (!found) return false;
  }
  return true;
}

CoeffMatrix small_matrix(std::initializer_list<std::initializer_list<long>> rows) {
  CoeffMatrix m(static_cast<int>(rows.size()), static_cast<int>(rows.begin()->size()));
  int r = 0;
  for (auto row : rows) {
    int c = 0;
    for (long x : row) m(r, c++) = x;
    ++r;
  }
  return m;
}

}  // namespace

TEST_CASE("term_action agrees with rotate, transpose and de_groote term by term", "[fast][symmetry]") {
  const Scheme s = test::strassen();
  const Format f = s.format;
  CHECK(same_terms(apply_isotropy(term_action(Isotropy{false, 1, {}, {}, {}}, f), s), rotate(s)));
  CHECK(same_terms(apply_isotropy(term_action(Isotropy{true, 0, {}, {}, {}}, f), s), transpose(s)));
  CoeffMatrix P = small_matrix({{1, 1}, {0, 1}}), Q = small_matrix({{0, 1}, {1, 0}}), S = small_matrix({{1, 0}, {2, 1}});
  Scheme g = apply_isotropy(term_action(Isotropy{false, 0, P, Q, S}, f), s);
  CHECK(same_terms(g, de_groote(s, P, Q, S)));
  CHECK(verify(g, Ring::Z).valid);
  // P = 2I scales (U, W) by (2, ½): the same isotropy as the identity. Scaling U alone is not one,
  // and it breaks the scheme: the checks can fail.
  CoeffMatrix twice = small_matrix({{2, 0}, {0, 2}});
  const CoeffMatrix id = term_action(Isotropy{}, f);
  CHECK(same_isotropy(term_action(Isotropy{false, 0, twice, {}, {}}, f), id, f));
  CoeffMatrix u_only = id;
  for (int j = 0; j < f.a_size(); ++j) u_only(j, j) = 2;
  CHECK_FALSE(same_isotropy(u_only, id, f));
  CHECK_FALSE(verify(apply_isotropy(u_only, s), Ring::Q).valid);
}

TEST_CASE("same_tensor allows scalars with product one, and only those", "[fast][symmetry]") {
  const Scheme s = test::strassen();
  CoeffMatrix x = term_column(s, 0), y = x;
  const int a = s.format.a_size(), b = s.format.b_size();
  for (int j = 0; j < a; ++j) y(j, 0) *= Coeff(2);
  for (int j = a; j < a + b; ++j) y(j, 0) *= Coeff(mpq_class(1, 2));
  CHECK(same_tensor(x, y, s.format));
  for (int j = a; j < a + b; ++j) y(j, 0) *= Coeff(3);
  CHECK_FALSE(same_tensor(x, y, s.format));
}

TEST_CASE("built-in groups: z3 has order 3, Kaporin's z3xz4 order 12; a free generator is refused",
          "[fast][symmetry]") {
  const Format f{4, 4, 4};
  CHECK(builtin_group("z3", f)->order() == 3);
  auto g = builtin_group("z3xz4", f);
  REQUIRE(g);
  CHECK(g->order() == 12);
  for (int e = 0; e < g->order(); ++e) CHECK(same_isotropy(word_action(*g, g->words[e]), g->elements[e], f));
  CHECK_FALSE(builtin_group("z3", Format{2, 3, 4}));
  CoeffMatrix two = small_matrix({{2, 0}, {0, 1}});  // infinite order: the closure must stop
  CHECK_THROWS_AS(generate_group(Format{2, 2, 2}, {Isotropy{false, 0, two, {}, {}}}, 64), InputError);
}

TEST_CASE("Kaporin's z3xz4 ansatz at 4x4:48: 3 shift-fixed and 3 free seeds, 192 unknowns", "[fast][symmetry]") {
  Ansatz a = builtin_ansatz("z3xz4", Format{4, 4, 4}, 48);
  CHECK(a.rank() == 48);
  REQUIRE(a.orbits.size() == 6);
  CHECK(a.parameters() == 192);
  CHECK(a.orbits[0].map_elements.size() == 4);
  CHECK(a.orbits[0].basis.cols() == 16);
  CHECK(a.orbits[5].map_elements.size() == 12);
  CHECK_THROWS_AS(builtin_ansatz("z3xz4", Format{4, 4, 4}, 49), InputError);
  CHECK_THROWS_AS(builtin_ansatz("z3", Format{4, 4, 4}, 48, 1), InputError);
}

TEST_CASE("an expansion is invariant: every group element maps its terms onto its terms", "[fast][symmetry]") {
  Ansatz a = builtin_ansatz("z3xz4", Format{4, 4, 4}, 48);
  std::vector<CoeffMatrix> seeds;
  long counter = 1;
  for (const AnsatzOrbit& o : a.orbits) {
    CoeffMatrix t(o.basis.cols(), 1);
    for (Eigen::Index j = 0; j < t.rows(); ++j, ++counter)  // one value per entry, sequenced
      t(j, 0) = Coeff(mpq_class((counter * 7) % 5 - 2, 1 + (counter + 1) % 3));
    seeds.push_back(t);
  }
  Scheme s = expand(a, seeds);
  for (int e = 0; e < a.group.order(); ++e) CHECK(same_terms(apply_isotropy(a.group.elements[e], s), s));
}

TEST_CASE("a z3-invariant scheme is rebuilt from its seeds: Strassen under its cyclic symmetry", "[fast][symmetry]") {
  // Strassen's scheme is invariant under the shift up to term order: 1 fixed term + 2 orbits of 3.
  const Scheme s = test::strassen();
  REQUIRE(same_terms(rotate(s), s));
  Ansatz a = builtin_ansatz("z3", s.format, 7);
  CHECK(a.orbits.size() == 3);
  // Seeds: the shift-fixed term (U = V = W), then one representative of each orbit of three.
  std::vector<int> fixed, reps;
  std::vector<bool> used(7, false);
  Scheme r = rotate(s);
  for (int t = 0; t < 7; ++t) {
    if (used[t]) continue;
    CoeffMatrix x = term_column(s, t);
    if (same_tensor(exact_product(a.group.elements[1], x), x, s.format)) fixed.push_back(t);
    else reps.push_back(t);
    for (int e = 0; e < 3; ++e)
      for (int q = 0; q < 7; ++q)
        if (same_tensor(exact_product(a.group.elements[e], x), term_column(s, q), s.format)) used[q] = true;
  }
  REQUIRE(fixed.size() == 1);
  REQUIRE(reps.size() == 2);
  std::vector<CoeffMatrix> seeds;
  // A fixed term of Strassen has U = V = W only up to scalars; take its U block as the seed.
  CoeffMatrix u = term_column(s, fixed[0]);
  CoeffMatrix seed(a.orbits[0].basis.cols(), 1);
  for (Eigen::Index j = 0; j < seed.rows(); ++j) seed(j, 0) = u(j, 0);
  seeds.push_back(seed);
  for (int t : reps) seeds.push_back(term_column(s, t));
  Scheme e = expand(a, seeds);
  CHECK(verify(e, Ring::ZT).valid);
  CHECK(same_terms(e, s));
}
