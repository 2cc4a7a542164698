// The restart pool (pool.hpp): per rank level, restarts draw from the lowest level holding
// level_fill states; with level_fill 1 it is the lowest rank seen, as before levels existed.
#include <catch2/catch.hpp>

#include <climits>

#include "src/search/flip/pool.hpp"

using namespace tdisc::search::flip;

namespace {

// A stand-in scheme of the given rank whose first factor tags it (the pool never looks inside).
Terms<GF2> tagged(int rank, std::uint64_t tag) {
  Terms<GF2> t;
  t.sign.assign(rank, 1);
  for (auto& k : t.f) k.assign(rank, 1);
  t.f[0][0] = tag;
  return t;
}

}  // namespace

TEST_CASE("a pool with level_fill 1 restarts from the lowest rank at once", "[fast]") {
  Pool<GF2> pool(4);
  Rng rng(1);
  CHECK(pool.rank() == INT_MAX);
  CHECK(pool.offer(tagged(10, 1), rng));
  CHECK(!pool.offer(tagged(12, 2), rng));  // higher: not kept
  CHECK(pool.offer(tagged(9, 3), rng));
  CHECK(pool.rank() == 9);
  CHECK(pool.states().size() == 1);
  CHECK(pool.sample(rng).f[0][0] == 3u);
  for (int k = 0; k < 10; ++k) pool.offer(tagged(9, 10 + k), rng);
  CHECK(pool.states().size() == 4);  // capacity per level
}

TEST_CASE("a pool with level_fill k moves down only when the lower level holds k states", "[fast]") {
  Pool<GF2> pool(8, 3);
  Rng rng(2);
  pool.offer(tagged(10, 1), rng);
  CHECK(pool.rank() == 10);  // no level is full: the highest one
  pool.offer(tagged(10, 2), rng);
  pool.offer(tagged(10, 3), rng);
  CHECK(pool.rank() == 10);
  CHECK(!pool.offer(tagged(9, 4), rng));  // one state at 9: restarts still draw from 10
  CHECK(!pool.offer(tagged(8, 5), rng));
  CHECK(pool.lowest_rank() == 8);
  CHECK(pool.rank() == 10);
  for (int k = 0; k < 20; ++k) CHECK(pool.sample(rng).rank() == 10);
  pool.offer(tagged(9, 6), rng);
  CHECK(pool.offer(tagged(9, 7), rng));  // the third state at 9: the population moves down
  CHECK(pool.rank() == 9);
  for (int k = 0; k < 20; ++k) {
    const auto t = pool.sample(rng);
    CHECK(t.rank() == 9);
    CHECK((t.f[0][0] == 4u || t.f[0][0] == 6u || t.f[0][0] == 7u));
  }
  CHECK(pool.states().size() == 4);  // level 10 is gone; 9 (three) and 8 (one) remain
  CHECK(pool.lowest_rank() == 8);
}
