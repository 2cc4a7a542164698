// The z3 run policy above 4x4 (flip/params.cpp, after Moosbauer–Poole's case files): a flip limit
// that restarts at each new best, then a fresh start from the diagonal; a fixed plus period; plus
// transitions up to the start's rank. Explicit parameters win; 4x4 keeps its measured defaults.
#include <catch2/catch.hpp>

#include "src/search/flip/lanes.hpp"
#include "src/search/flip/orbits.hpp"
#include "src/search/flip/params.hpp"
#include "src/search/flip/symmetric_walker.hpp"
#include "src/search/flip/walk_start.hpp"
#include "tests/flip/require_valid.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::flip;

namespace {
FlipParams checked(Format f, int rank, nlohmann::json params, const char* symmetry = "z3") {
  EngineConfig c;
  c.target = {f, rank, Ring::GF2};
  params["symmetry"] = symmetry;
  c.params = params;
  REQUIRE(check_flip_params(c.params).empty());
  return lane_params(c, {Ring::GF2, *params::value_of(symmetry_names(), symmetry), 1}).value;
}
}  // namespace

TEST_CASE("z3 above 4x4 follows the anchor's run policy unless told otherwise", "[fast]") {
  const FlipParams p = checked({5, 5, 5}, 93, nlohmann::json::object());
  CHECK(p.fresh == 1.0);                 // a run that stalls starts over from the diagonal
  CHECK(p.restart_after == 33333333);    // 1e8 terms of orbit flips, reset at each new best
  CHECK(p.walk.plus_min == 16667);       // a plus transition every 5e4 terms without a drop
  CHECK(p.walk.plus_max == 16667);
  // plus transitions allowed up to the start's rank: (start − target) / 3 orbits above the best
  const int start = diagonal_start<GF2>(5, parse_diagonal("auto", 5, 93)).rank();
  CHECK(p.walk.plus_diff == (start - 93) / 3);
  CHECK(start > 93 + 3 * 4);  // wider than the default plus_diff of 4 orbits

  const FlipParams mine = checked({5, 5, 5}, 93, {{"restart_after", 1000}, {"plus_min", 10}, {"plus_max", 20}, {"plus_diff", 2}});
  CHECK(mine.restart_after == 1000);
  CHECK(mine.walk.plus_min == 10);
  CHECK(mine.walk.plus_max == 20);
  CHECK(mine.walk.plus_diff == 2);

  const FlipParams four = checked({4, 4, 4}, 49, nlohmann::json::object());
  CHECK(four.restart_after == kSymmetricRestartAfter);
  CHECK(four.walk.plus_diff == WalkParams{}.plus_diff);
  CHECK(four.walk.plus_min == WalkParams{}.plus_min);
}

TEST_CASE("the flip limit counts from the walker's latest best, not from its start", "[fast]") {
  // What restart_if_due reads: flips_since_best falls to 0 at every new best and grows otherwise.
  const Format f{4, 4, 4};
  WalkParams wp;
  wp.plus_min = wp.plus_max = 2000;
  SymmetricWalker<GF2> w(f, wp, 5);
  w.load(diagonal_start<GF2>(4, parse_diagonal("auto", 4, 49)));
  int best = w.best_rank(), drops = 0;
  long last_flips = 0;
  for (int k = 0; k < 200000; ++k) {
    w.step();
    if (w.best_rank() < best) {
      best = w.best_rank();
      ++drops;
      CHECK(w.flips_since_best() == 0);
      last_flips = w.flips();
    }
  }
  CHECK(drops > 5);
  CHECK(w.flips_since_best() == w.flips() - last_flips);
  require_valid<GF2>(f, w.best(), 200000);
}

TEST_CASE("s3 above 4x4 follows the anchor's 6-fold policy, counted in class flips", "[fast]") {
  const FlipParams six = checked({6, 6, 6}, 153, nlohmann::json::object(), "s3");
  CHECK(six.fresh == 1.0);
  CHECK(six.restart_after == 166666667);  // r6-153-1.txt: FLIP_LIMIT 1e9 terms, 6 terms a class flip
  CHECK(six.walk.plus_min == 83333);      // PLUS_TRANSITION_AFTER 5e5 terms
  CHECK(six.walk.plus_max == 83333);
  CHECK(six.walk.plus_ceiling == 216);    // PLUS_TRANSITION_LIMIT 216: an absolute rank
  const FlipParams five = checked({5, 5, 5}, 93, nlohmann::json::object(), "s3");
  CHECK(five.restart_after == 16666667);
  CHECK(five.walk.plus_min == 16667);
  CHECK(five.walk.plus_ceiling == 125);
  const FlipParams mine = checked({6, 6, 6}, 153, {{"plus_diff", 3}}, "s3");
  CHECK(mine.walk.plus_ceiling == 0);
  CHECK(mine.walk.plus_diff == 3);
}

TEST_CASE("no plus transition at or above plus_ceiling", "[fast]") {
  // s3 on 4x4 from the diagonal start (rank 121): a ceiling of 115 stops the walk plussing above it.
  const Format f{4, 4, 4};
  WalkParams wp;
  wp.plus_min = wp.plus_max = 50;
  wp.plus_diff = 64;
  wp.plus_ceiling = 115;
  SymmetricWalker<GF2, 2> w(f, wp, 7);
  w.load(diagonal_start<GF2>(4, {{0, 1, 2, 3}}));
  int plussed = 0;
  for (int k = 0; k < 100000; ++k) {
    const bool plus = w.plussing() && w.available_flips() > 0;
    const int before = w.rank();
    w.step();
    if (plus) {
      CHECK(before < 115);
      plussed += w.rank() > before;
    }
  }
  CHECK(plussed > 0);
  require_valid<GF2>(f, w.best(), 100000);
}
