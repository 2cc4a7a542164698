// The program database: elites per MAP-Elites cell inside islands, ring migration, parent choice
// from a seeded generator, and a JSON round trip that loses nothing.
#include <catch2/catch.hpp>

#include "src/llm/database.hpp"

using namespace tdisc::llm;

namespace {

Program program(int island, const std::string& cell, double fitness) {
  Program p;
  p.island = island;
  p.cell = cell;
  p.kind = "recipe";
  p.body = {{"engine", cell}};
  p.score.fitness = fitness;
  p.origin = "test";
  return p;
}

}  // namespace

TEST_CASE("each cell of each island keeps its fittest program", "[fast][llm][database]") {
  Database db({2, 100, 0.7, 400});
  int a = db.add(program(0, "flip/ZT", 10));
  int b = db.add(program(0, "flip/ZT", 5));   // worse: stored, not elite
  int c = db.add(program(0, "flip/ZT", 20));  // better: replaces
  int d = db.add(program(1, "numeric/half", 7));
  CHECK(db.size() == 4);
  CHECK(db.island_best(0)->id == c);
  CHECK(db.island_best(1)->id == d);
  CHECK(db.best()->id == c);
  CHECK(db.elites(0).size() == 1);
  (void)a;
  (void)b;
}

TEST_CASE("migration copies each island's best to the next island", "[fast][llm][database]") {
  Database db({3, 3, 0.7, 400});
  db.add(program(0, "flip/ZT", 30));
  db.add(program(1, "numeric/half", 10));
  db.add(program(2, "flip/GF2", 1));  // third addition triggers migration
  CHECK(db.migrations() == 1);
  auto island1 = db.elites(1);
  CHECK(island1.size() == 2);  // its own numeric/half and the migrant flip/ZT
  bool migrant = false;
  for (const Program* p : island1) migrant |= p->origin == "migrant" && p->cell == "flip/ZT";
  CHECK(migrant);
  CHECK(db.elites(0).size() == 2);  // flip/GF2 came round from island 2
}

TEST_CASE("parent choice mixes exploitation and exploration, reproducibly", "[fast][llm][database]") {
  Database db({1, 1000, 0.5, 400});
  for (int i = 0; i < 6; ++i) db.add(program(0, "cell" + std::to_string(i), i));
  std::mt19937_64 rng(42);
  int best_picks = 0, other_picks = 0;
  for (int t = 0; t < 400; ++t) (db.choose_parent(0, rng)->score.fitness == 5 ? best_picks : other_picks)++;
  CHECK(best_picks > 180);   // 0.5 + 0.5/6 expected ≈ 233
  CHECK(other_picks > 100);  // ≈ 167
  std::mt19937_64 r1(7), r2(7);
  for (int t = 0; t < 20; ++t) CHECK(db.choose_parent(0, r1)->id == db.choose_parent(0, r2)->id);
  auto insp = db.inspirations(db.island_best(0), 3, rng);
  CHECK(insp.size() == 3);
  for (const Program* p : insp) CHECK(p->score.fitness != 5);
}

TEST_CASE("the database survives a JSON round trip", "[fast][llm][database]") {
  Database db({2, 2, 0.7, 400});
  db.add(program(0, "flip/ZT", 3));
  db.add(program(1, "numeric/half", 4));
  db.add(program(0, "numeric/half", 9));
  Database back = Database::from_json(db.to_json());
  CHECK(back.to_json() == db.to_json());
  CHECK(back.best()->score.fitness == 9);
  int id = back.add(program(1, "x", 1));
  CHECK(id == db.to_json()["next_id"].get<int>());
}
