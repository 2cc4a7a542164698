// The flip-graph walker: walks stay inside the valid schemes, moves change the rank as the papers
// say, and a seed fixes the walk. Every check re-verifies with the exact verifier.
#include <catch2/catch.hpp>

#include "decomposition/constructions.hpp"
#include "src/search/flip/convert.hpp"
#include "tests/flip/require_valid.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {

template <class F>
void long_walk(Format f, long moves, std::uint64_t seed) {
  WalkParams p;
  p.plus_min = 300, p.plus_max = 2000;  // many plus transitions and reductions in a short walk
  Walker<F> w(f, p, seed);
  w.load(standard_terms<F>(f));
  for (long k = 1; k <= moves; ++k) {
    w.step();
    if (k % 1000 == 0) require_valid<F>(f, w.terms(), k);
  }
  require_valid<F>(f, w.best(), moves);
  CHECK(w.flips() > moves / 2);
  CHECK(w.plus_count() > 0);
  CHECK(w.reductions() > 0);
}

}  // namespace

TEST_CASE("a long random walk never leaves the valid schemes", "[fast]") {
  long_walk<GF2>({3, 3, 3}, 30000, 1);
  long_walk<ZT>({3, 3, 3}, 30000, 2);
  long_walk<GF3>({3, 3, 3}, 30000, 3);
  long_walk<ZT>({2, 3, 4}, 30000, 4);
  long_walk<GF2>({4, 4, 4}, 20000, 5);
}

TEST_CASE("a very long random walk never leaves the valid schemes", "[slow]") {
  long_walk<GF2>({4, 4, 4}, 1000000, 11);
  long_walk<ZT>({4, 4, 4}, 1000000, 12);
  long_walk<GF3>({3, 3, 4}, 1000000, 13);
}

namespace {

// The index kept move by move (reductions and plus transitions update it term by term) holds the
// same flips as one built from scratch for the same terms, every 500 moves of a walk that plusses
// and reduces often.
template <class F>
void index_matches_a_rebuild(Format f, const Terms<F>& start, long moves, std::uint64_t seed) {
  WalkParams p;
  p.plus_min = 50, p.plus_max = 400;
  Walker<F> w(f, p, seed);
  w.load(start);
  for (long k = 1; k <= moves; ++k) {
    w.step();
    if (k % 500 != 0) continue;
    Walker<F> fresh(f, p, seed);
    fresh.load(w.terms());
    INFO(F::name << " " << f.str() << " after " << k << " moves, rank " << w.rank());
    REQUIRE(w.available_flips() == fresh.available_flips());
    if (fresh.reducible()) REQUIRE(w.reducible());  // the kept list may also hold stale pairs, never miss one
  }
  CHECK(w.plus_count() > 10);
  CHECK(w.reductions() > 10);
  require_valid<F>(f, w.terms(), moves);
}

}  // namespace

TEST_CASE("the index kept move by move equals one rebuilt from the terms", "[fast]") {
  index_matches_a_rebuild<GF2>({3, 3, 3}, standard_terms<GF2>({3, 3, 3}), 20000, 11);
  index_matches_a_rebuild<ZT>({3, 3, 4}, standard_terms<ZT>({3, 3, 4}), 20000, 12);
  index_matches_a_rebuild<GF3>({3, 3, 3}, standard_terms<GF3>({3, 3, 3}), 20000, 13);
  // Strassen² over GF2 has no flip: the walk plusses out and reduces straight back, over and over.
  const Scheme s2 = kronecker(test::strassen(), test::strassen());
  index_matches_a_rebuild<GF2>({4, 4, 4}, terms_from_scheme<GF2>(s2), 20000, 14);
}

TEST_CASE("plus transitions raise the rank by one, reductions lower it by one", "[fast]") {
  const Format f{3, 3, 3};
  WalkParams p;
  p.plus_min = 200, p.plus_max = 400;
  Walker<ZT> w(f, p, 99);
  w.load(standard_terms<ZT>(f));
  int plus_seen = 0, reduce_seen = 0;
  for (int k = 0; k < 50000; ++k) {
    const int before = w.rank();
    if (w.plussing()) {
      w.plus_transition();
      REQUIRE((w.rank() == before + 1 || w.rank() == before));  // unchanged only when no pair admits one
      plus_seen += w.rank() == before + 1;
      require_valid<ZT>(f, w.terms(), k);
    } else if (w.reducible()) {
      w.reduce();
      REQUIRE(w.rank() <= before);
      REQUIRE(w.rank() >= before - 2);  // −2 only when the merged factor vanishes
      reduce_seen += w.rank() == before - 1;
      require_valid<ZT>(f, w.terms(), k);
    } else {
      w.flip();
      REQUIRE(w.rank() >= before - 1);  // a flip drops at most its one zeroed term
    }
  }
  CHECK(plus_seen > 10);
  CHECK(reduce_seen > 0);
}

TEST_CASE("a reduction merges two terms that share two factors", "[fast]") {
  // Split one term of the standard 2x2x2 algorithm: a⊗b⊗c = a⊗b⊗(c − c') + a⊗b⊗c'.
  const Format f{2, 2, 2};
  Terms<ZT> t = standard_terms<ZT>(f);
  Planes c = t.f[2][0], other = t.f[2][1];
  bool ok;
  Planes diff = ZT::add(c, ZT::neg(other), ok);
  REQUIRE(ok);
  int s = ZT::normalize(diff);
  t.f[2][0] = diff;
  t.sign[0] = static_cast<std::int8_t>(s);
  t.f[0].push_back(t.f[0][0]);
  t.f[1].push_back(t.f[1][0]);
  t.f[2].push_back(other);
  t.sign.push_back(1);
  require_valid<ZT>(f, t, 0);
  Walker<ZT> w(f, WalkParams{}, 1);
  w.load(t);
  REQUIRE(w.rank() == 9);
  REQUIRE(w.reducible());
  w.reduce();
  CHECK(w.rank() == 8);
  require_valid<ZT>(f, w.terms(), 1);
}

TEST_CASE("the same seed gives the same walk", "[fast]") {
  const Format f{3, 3, 3};
  auto walk = [&](std::uint64_t seed) {
    Walker<ZT> w(f, WalkParams{}, seed);
    w.load(standard_terms<ZT>(f));
    for (int k = 0; k < 200000; ++k) w.step();
    return terms_json<ZT>(f, w.terms()).dump();
  };
  CHECK(walk(5) == walk(5));
  CHECK(walk(5) != walk(6));
}

TEST_CASE("schemes convert to packed terms and back exactly", "[fast]") {
  Scheme s = tdisc::test::strassen();
  Terms<ZT> t = terms_from_scheme<ZT>(s);
  Scheme back = scheme_from_terms<ZT>(s.format, t);
  CHECK(verify(back, Ring::Z).valid);
  Terms<GF2> t2 = terms_from_scheme<GF2>(s);
  CHECK(verify(scheme_from_terms<GF2>(s.format, t2), Ring::GF2).valid);
  Terms<GF3> t3 = terms_from_scheme<GF3>(s);
  CHECK(verify(scheme_from_terms<GF3>(s.format, t3), Ring::GF3).valid);
  Scheme half = s;
  half.u(0, 0) = Coeff(mpq_class(1, 2));
  CHECK_THROWS(terms_from_scheme<ZT>(half));
  CHECK_THROWS(terms_from_scheme<GF2>(half));
}
