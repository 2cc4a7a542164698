// Dead ends (dead_end.cpp): over GF2 every rank-7 scheme of 2x2 is Strassen's up to symmetry, and no two
// of its terms share a factor: an isolated vertex of the flip graph. With undo_dead_ends a walker records
// it and stays at rank 8; without, it rests there and can only plus out. Every state is verified exactly.
#include <catch2/catch.hpp>

#include "src/search/flip/params.hpp"
#include "tests/flip/require_valid.hpp"
#include "decomposition/native.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {

WalkParams walk_params(bool undo) {
  WalkParams p;
  p.plus_min = 200, p.plus_max = 1000;
  p.undo_dead_ends = undo;
  return p;
}

bool shares_a_factor(const Terms<GF2>& t) {
  for (int i = 0; i < t.rank(); ++i)
    for (int j = i + 1; j < t.rank(); ++j)
      for (int k = 0; k < 3; ++k)
        if (t.f[k][i] == t.f[k][j]) return true;
  return false;
}

}  // namespace

TEST_CASE("undo_dead_ends records a flip-isolated scheme and keeps the walk above it", "[fast]") {
  const Format f{2, 2, 2};
  Walker<GF2> w(f, walk_params(true), 3);
  w.load(standard_terms<GF2>(f));
  int lowest = w.rank();
  for (long k = 1; k <= 100000; ++k) {
    w.step();
    lowest = std::min(lowest, w.rank());
    if (k % 5000 == 0) require_valid<GF2>(f, w.terms(), k);
  }
  CHECK(lowest == 8);  // never rests on a rank-7 scheme: each drop there was taken back
  REQUIRE(w.dead_ends() > 0);
  const Terms<GF2>& dead = w.dead_best();
  REQUIRE(dead.rank() == 7);
  require_valid<GF2>(f, dead, 0);
  CHECK_FALSE(shares_a_factor(dead));  // isolated indeed: no flip applies to it
  CHECK(w.best_rank() == 8);           // the restart point (the pool's) is the level above
  CHECK(w.plus_count() > 0);           // the plateau clock ran on at rank 8
}

TEST_CASE("without undo_dead_ends the walk rests on the isolated scheme and plusses out of it", "[fast]") {
  const Format f{2, 2, 2};
  Walker<GF2> w(f, walk_params(false), 3);
  w.load(standard_terms<GF2>(f));
  long at7 = 0;
  for (long k = 1; k <= 100000; ++k) {
    w.step();
    at7 += w.rank() == 7;
  }
  CHECK(at7 > 0);
  CHECK(w.best_rank() == 7);
  CHECK(w.dead_ends() == 0);
  CHECK(w.dead_best().rank() == 0);
}

TEST_CASE("a walk with undo_dead_ends is fixed by its seed", "[fast]") {
  const Format f{3, 3, 3};
  auto walk = [&](std::uint64_t seed) {
    Walker<GF2> w(f, walk_params(true), seed);
    w.load(standard_terms<GF2>(f));
    for (int k = 0; k < 60000; ++k) w.step();
    require_valid<GF2>(f, w.terms(), 60000);
    return std::make_tuple(w.terms().f, w.flips(), w.dead_ends(), w.best_rank());
  };
  CHECK(walk(7) == walk(7));
  CHECK(walk(7) != walk(8));
}

TEST_CASE("undo_dead_ends is a boolean of the flip parameter table", "[fast]") {
  CHECK(check_flip_params({{"undo_dead_ends", true}}).empty());
  CHECK(bind_flip_params({{"undo_dead_ends", true}}).value.walk.undo_dead_ends);
  CHECK_FALSE(bind_flip_params(nlohmann::json::object()).value.walk.undo_dead_ends);
  CHECK_FALSE(check_flip_params({{"undo_dead_ends", 3}}).empty());
}

TEST_CASE("a search with undo_dead_ends still writes the isolated scheme as its result", "[fast]") {
  const std::string dir = test::temp_dir("dead-end-run");
  auto r = test::run_tdisc("search --size 2x2 --rank 7 --ring GF2 --symmetry none --threads 1 --seed 4 --time 20s -q "
                           "--params '{\"undo_dead_ends\":true}' --out " + dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  Scheme s = read_native(dir + "/best-r7.json");
  CHECK(verify(s, Ring::GF2).valid);
}

TEST_CASE("a kick lifts a trapped walker by kick_plus ranks and it comes back down", "[fast]") {
  const Format f{2, 2, 2};
  WalkParams p = walk_params(true);
  p.kick_after = 50, p.kick_plus = 3, p.kick_flips = 300;
  Walker<GF2> w(f, p, 5);
  w.load(standard_terms<GF2>(f));
  int kicked_from = 0, kicked_to = 0;
  for (long k = 1; k <= 200000 && w.kicks() == 0; ++k) {
    const int before = w.rank();
    w.step();
    if (w.kicks() == 1) kicked_from = before, kicked_to = w.rank();
  }
  REQUIRE(w.kicks() == 1);  // the walker circled Strassen's isolated scheme 50 times
  CHECK(kicked_to == kicked_from + 3);
  require_valid<GF2>(f, w.terms(), 0);
  const long reductions = w.reductions();
  int lowest = w.rank();
  for (long k = 0; k < 20000; ++k) {
    w.step();
    lowest = std::min(lowest, w.rank());
  }
  CHECK(w.reductions() > reductions);
  CHECK(lowest == 8);  // back down to the level above the isolated scheme
  CHECK(w.kicks() > 1);
  require_valid<GF2>(f, w.terms(), 20000);
}
