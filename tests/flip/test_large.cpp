// Large formats in the flip walks (issue 29 item 1): factors of more than 64 entries take 2 or 4
// words, chosen from the format at its boundaries; starts above 254 terms walk and reduce; results
// stay exact; schemes over Q with unit denominators walk mod p and lift back. Every check re-verifies.
#include <catch2/catch.hpp>

#include <algorithm>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/formats/imported.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/lift.hpp"
#include "tests/flip/require_valid.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {

// Walks from `start` until the best rank is `drops` below the start's, at least one reduction was
// made (ZT walks from these starts reduce often but mostly after plus transitions, so they take
// drops = 0) and at least `min_flips` flips were made (at most max_steps moves), re-verifying every
// `every` moves.
template <class F>
Walker<F> walk_down(const Format& f, const Terms<F>& start, int drops, long min_flips, long max_steps, std::uint64_t seed,
                    long every = 1000) {
  WalkParams p;
  p.plus_min = 2000, p.plus_max = 5000;
  Walker<F> w(f, p, seed);
  w.load(start);
  long k = 0;
  while (k < max_steps && (w.best_rank() > start.rank() - drops || w.reductions() == 0 || w.flips() < min_flips)) {
    w.step();
    if (++k % every == 0) require_valid<F>(f, w.terms(), k);
  }
  INFO(F::name << " " << f.str() << " from rank " << start.rank() << ": best " << w.best_rank() << " after " << k << " moves");
  CHECK(w.best_rank() <= start.rank() - drops);
  CHECK(w.reductions() > 0);
  CHECK(w.flips() >= min_flips);
  require_valid<F>(f, w.best(), k);
  require_valid<F>(f, w.terms(), k);
  return w;
}

// ⟨2,2,2;7⟩ ⊗ classical(g): each classical block reduces quickly, as 2x2x2..4x4x4 walks from the
// standard algorithm do (the standard algorithm of a large format itself has few nearby reductions).
Scheme strassen_times_classical(Format g) { return kronecker(test::strassen(), classical_scheme(g)); }

Scheme fmm(const std::string& file) { return import_located("fmm-mpl", test::fixture("fmm-catalogue/" + file)).scheme; }

bool has_denominator(const Scheme& s, long d) {
  for (const CoeffMatrix* m : {&s.u, &s.v, &s.w})
    for (int r = 0; r < m->rows(); ++r)
      for (int c = 0; c < m->cols(); ++c)
        if ((*m)(r, c).re().get_den() % d == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("the factor width is chosen from the largest factor, at its boundaries", "[fast]") {
  CHECK(words_for(1) == 1);
  CHECK(words_for(64) == 1);
  CHECK(words_for(65) == 2);
  CHECK(words_for(128) == 2);
  CHECK(words_for(129) == 4);
  CHECK(words_for(256) == 4);
  CHECK(words_for(257) == 0);
  CHECK(factor_words({4, 4, 4}) == 1);
  CHECK(factor_words({8, 8, 8}) == 1);    // 64 entries: today's one-word walker
  CHECK(factor_words({5, 13, 1}) == 2);   // A has 65 entries
  CHECK(factor_words({1, 5, 13}) == 2);   // B has 65
  CHECK(factor_words({13, 1, 5}) == 2);   // W has 65
  CHECK(factor_words({8, 16, 8}) == 2);   // 128
  CHECK(factor_words({10, 10, 10}) == 2);
  CHECK(factor_words({12, 12, 12}) == 4);
  CHECK(factor_words({16, 16, 16}) == 4);  // 256
  CHECK(factor_words({16, 17, 1}) == 0);   // 272: too wide
  // a one-word walker refuses a 65-entry factor; a two-word one holds it
  CHECK_THROWS_AS(Walker<GF2W<1>>(Format{5, 13, 1}, WalkParams{}, 1), ContractError);
  CHECK_NOTHROW(Walker<GF2W<2>>(Format{5, 13, 1}, WalkParams{}, 1));
}

TEST_CASE("entry 64 and beyond survive packing, checkpoints and unpacking", "[fast]") {
  for (Format f : {Format{5, 13, 1}, Format{1, 5, 13}, Format{13, 1, 5}, Format{16, 16, 1}}) {
    INFO(f.str());
    const Scheme classical = classical_scheme(f);
    auto round_trip = [&](auto tag) {
      using F = decltype(tag);
      Terms<F> t = terms_from_scheme<F>(classical);
      REQUIRE(t.rank() == f.classical_rank());
      require_valid<F>(f, t, 0);
      Terms<F> back = terms_from_json<F>(f, terms_json<F>(f, t));
      CHECK(terms_json<F>(f, back) == terms_json<F>(f, t));
      require_valid<F>(f, standard_terms<F>(f), 0);
    };
    if (words_for(std::max({f.a_size(), f.b_size(), f.c_size()})) == 2) {
      round_trip(GF2W<2>{}), round_trip(ZTW<2>{}), round_trip(GF3W<2>{});
    } else {
      round_trip(GF2W<4>{}), round_trip(ZTW<4>{}), round_trip(GF3W<4>{});
    }
  }
}

TEST_CASE("walkers with 2 and 4 words per factor walk small formats exactly", "[fast]") {
  // the wide policies on 3x3x3 and 2x3x4: every move, reduction and plus transition re-verified
  walk_down<GF2W<2>>({3, 3, 3}, standard_terms<GF2W<2>>({3, 3, 3}), 3, 20000, 200000, 1);
  walk_down<ZTW<2>>({3, 3, 3}, standard_terms<ZTW<2>>({3, 3, 3}), 0, 20000, 200000, 2);
  walk_down<GF3W<4>>({3, 3, 3}, standard_terms<GF3W<4>>({3, 3, 3}), 0, 20000, 200000, 3);
  walk_down<ZTW<4>>({3, 3, 3}, standard_terms<ZTW<4>>({3, 3, 3}), 0, 20000, 200000, 4);
}

// The word count changes how a factor is stored, never what a walk does: the same seed gives the same
// moves, so the same scheme, at 1, 2 and 4 words (buckets keep members in insertion order).
template <template <int> class P>
void same_walk_at_every_width(Format f, long moves, std::uint64_t seed) {
  auto walk = [&](auto tag) {
    using F = decltype(tag);
    WalkParams p;
    p.plus_min = 300, p.plus_max = 2000;
    Walker<F> w(f, p, seed);
    w.load(standard_terms<F>(f));
    for (long k = 0; k < moves; ++k) w.step();
    REQUIRE(w.reductions() > 0);
    return terms_json<F>(f, w.terms()).dump() + " best " + std::to_string(w.best_rank());
  };
  const std::string one = walk(P<1>{});
  INFO(P<1>::name << " " << f.str());
  CHECK(walk(P<2>{}) == one);
  CHECK(walk(P<4>{}) == one);
}

TEST_CASE("a walk at 2 or 4 words per factor is the one-word walk, move for move", "[fast]") {
  same_walk_at_every_width<GF2W>({3, 3, 3}, 30000, 1);
  same_walk_at_every_width<ZTW>({3, 3, 3}, 30000, 2);
  same_walk_at_every_width<GF3W>({3, 3, 4}, 30000, 3);
  same_walk_at_every_width<ZTW>({4, 4, 4}, 30000, 4);
}

TEST_CASE("a start above 254 terms walks and reduces (one-word factors, 8x8x8 from 448)", "[fast]") {
  const Format f{8, 8, 8};
  const Scheme start = strassen_times_classical({4, 4, 4});  // ⟨8,8,8;448⟩
  REQUIRE(start.rank() == 448);
  walk_down<GF2>(f, terms_from_scheme<GF2>(start), 1, 3000, 400000, 5, 5000);
  walk_down<ZT>(f, terms_from_scheme<ZT>(start), 0, 3000, 400000, 6, 5000);
}

TEST_CASE("large formats walk and reduce exactly: 9x9x9 (2 words) and 12x12x12 (4 words)", "[fast]") {
  const Format f{9, 9, 9};
  const Scheme start = kronecker(fmm("3x3x3_tensor.mpl"), classical_scheme({3, 3, 3}));  // ⟨9,9,9;621⟩, 81 entries
  REQUIRE(start.rank() == 621);
  REQUIRE(factor_words(f) == 2);
  walk_down<GF2W<2>>(f, terms_from_scheme<GF2W<2>>(start), 2, 3000, 400000, 7, 20000);
  walk_down<ZTW<2>>(f, terms_from_scheme<ZTW<2>>(start), 0, 3000, 400000, 8, 20000);
  const Format g{12, 12, 12};
  const Scheme big = kronecker(kronecker(test::strassen(), test::strassen()), classical_scheme({3, 3, 3}));  // rank 1323
  REQUIRE(factor_words(g) == 4);
  walk_down<GF2W<4>>(g, terms_from_scheme<GF2W<4>>(big), 2, 3000, 400000, 9, 50000);
}

TEST_CASE("a wide-word walk result is lifted back to characteristic 0", "[fast]") {
  // The lift is format-agnostic (it takes the scheme, not the packed words): a GF2W<2> walk's 2x2x3
  // result must lift for some seed of a few, and the lift must verify exactly and agree mod 2.
  const Format f{2, 2, 3};
  bool lifted = false;
  for (std::uint64_t seed = 1; seed <= 8 && !lifted; ++seed) {
    Walker<GF2W<2>> w(f, WalkParams{}, seed);
    w.load(standard_terms<GF2W<2>>(f));
    while (w.best_rank() > 11 && w.flips() < 2000000) w.step();
    REQUIRE(w.best_rank() == 11);
    Scheme mod2 = scheme_from_terms<GF2W<2>>(f, w.best());
    LiftResult r = hensel_lift(mod2, 2, 20);
    if (!r.scheme) continue;
    CHECK(verify(*r.scheme, Ring::Q).valid);
    CHECK(verify(*r.scheme, Ring::GF2).valid);
    lifted = true;
  }
  CHECK(lifted);
}

TEST_CASE("a lift too large for the dense solver says so instead of allocating", "[fast]") {
  const Scheme start = strassen_times_classical({4, 4, 8});  // 8x8x16: a million Brent equations
  Scheme mod2 = scheme_from_terms<GF2W<2>>(start.format, terms_from_scheme<GF2W<2>>(start));
  LiftResult r = hensel_lift(mod2, 2, 20);
  CHECK_FALSE(r.scheme);
  CHECK_THAT(r.why_not, Catch::Contains("dense"));
  CHECK_FALSE(lift_fits(start.format, start.rank()));
  CHECK(lift_fits({4, 4, 4}, 49));
}

TEST_CASE("schemes over Q whose denominators are units mod p walk mod p", "[fast]") {
  // Published rational schemes of the FMM catalogue whose denominators are powers of 2 (units mod 3):
  // 3x3x6:40 and AlphaEvolve's 4x4x4:48. Each reduces mod 3 to a valid scheme of the same rank and
  // walks there. (Lifting such a walk back to Q is not solved: the dense Hensel lift finds a 3-adic
  // solution, but for these two no rational reconstruction of it verifies; the lift then says so.)
  for (const char* file : {"3x3x6_tensor.mpl", "4x4x4_tensor.mpl"}) {
    const Scheme q = fmm(file);
    INFO(file);
    REQUIRE(verify(q, Ring::Q).valid);
    REQUIRE(has_denominator(q, 2));
    REQUIRE_FALSE(verify(q, Ring::Z).valid);
    const Terms<GF3> t = terms_from_scheme<GF3>(q);  // 1/2 becomes 2⁻¹ = −1 mod 3
    REQUIRE(t.rank() == q.rank());
    require_valid<GF3>(q.format, t, 0);
    WalkParams wp;
    wp.plus_min = wp.plus_max = 1000000;  // plus transitions only where no flip applies
    Walker<GF3> w(q.format, wp, 1);
    w.load(t);
    for (int k = 1; k <= 20000; ++k) {
      w.step();
      if (k % 2000 == 0) require_valid<GF3>(q.format, w.terms(), k);
    }
    CHECK(w.flips() > 10000);
    CHECK(w.best_rank() <= q.rank());  // (a scheme with no shared factor plusses first: the rank may rise)
    LiftResult r = hensel_lift(scheme_from_terms<GF3>(q.format, w.best()), 3, 20);
    if (r.scheme) CHECK(verify(*r.scheme, Ring::Q).valid);  // a lift is never offered unverified
    else CHECK_FALSE(r.why_not.empty());
  }
}

TEST_CASE("search accepts starts above 254 terms and formats of 4-word factors, and refuses factors above 256 entries", "[fast]") {
  const std::string dir = test::temp_dir("large");
  auto r = test::run_tdisc("search --size 7x7x7 --rank 300 --ring GF2 --symmetry none --threads 1 --seed 1 --time 2s -q --out " +
                           dir + "/r7");
  INFO(r.out << r.err);
  CHECK(r.code == 3);  // the budget ran out: the 343-term start was walked, not refused
  auto v = test::run_tdisc("verify " + dir + "/r7/best-r343.json --ring GF2");
  CHECK(v.code == 0);
  auto big = test::run_tdisc("search --size 12x12x12 --rank 1000 --ring ZT --symmetry none --threads 1 --seed 1 --time 2s -q --out " +
                             dir + "/r12");
  INFO(big.out << big.err);
  CHECK(big.code == 3);
  CHECK(test::slurp(dir + "/r12/events.jsonl").find("\"event\":\"finished\"") != std::string::npos);
  // its checkpoint (4-word factors as entry lists) resumes
  auto resumed = test::run_tdisc("search --resume " + dir + "/r12 --time 2s -q");
  INFO(resumed.out << resumed.err);
  CHECK(resumed.code == 3);
  CHECK(test::slurp(dir + "/r12/events.jsonl").find("\"event\":\"walkers_restored\"") != std::string::npos);
  auto wide = test::run_tdisc("search --size 16x17x16 --rank 4000 --ring GF2 --time 2s -q --out " + dir + "/r17");
  CHECK(wide.code == 1);
  CHECK_THAT(wide.err, Catch::Contains("256 entries"));
}


