// The recipe-evolution loop (src/search/evolve/): mutation and crossover stay inside the parameter
// table's ranges, the MAP-Elites database keeps the best recipe per cell, and a tiny evolution writes a
// run directory whose best recipe is a valid --params string.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "src/search/evolve/evolve.hpp"
#include "src/search/evolve/recipe_space.hpp"
#include "src/search/numeric/params.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::evolve;

TEST_CASE("evolve: mutation and crossover stay inside the table's ranges and change something", "[fast][evolve]") {
  std::mt19937_64 rng(4);
  nlohmann::json r = {{"ansatz", "z3xz4"}, {"adam_lr", 0.02}};
  nlohmann::json other = {{"ansatz", "z3xz4"}, {"grad_noise", 1e-3}, {"soft_clip_period", 2000}};
  int changed = 0;
  for (int k = 0; k < 2000; ++k) {
    nlohmann::json child = k % 3 == 0 ? mutate(cross(r, other, rng), rng) : mutate(r, rng);
    INFO(child.dump());
    REQUIRE(numeric::validate(child).empty());
    for (const Gene& g : genes()) {
      const double v = gene_value(child, g);
      CHECK(v >= g.lo);
      CHECK(v <= g.hi);
    }
    CHECK(child["ansatz"] == "z3xz4");  // keys outside the genes are kept
    changed += child != r;
    r = child;  // a long random walk: the ranges must hold wherever it goes
  }
  CHECK(changed > 1900);
}

TEST_CASE("evolve: the MAP-Elites database keeps the best recipe of each cell", "[fast][evolve]") {
  Elites e;
  auto scored = [](nlohmann::json p, long finds, double residual) {
    Scored s;
    s.params = std::move(p);
    s.seconds = 10;
    s.numerical = finds;
    s.residual = residual;
    return s;
  };
  CHECK(e.add(scored({{"adam_lr", 0.02}}, 5, 0.1)));
  CHECK_FALSE(e.add(scored({{"adam_lr", 0.03}}, 4, 0.01)));      // fewer finds: not kept
  CHECK(e.add(scored({{"adam_lr", 0.04}}, 5, 0.05)));            // as many, lower residual: kept
  CHECK(e.add(scored({{"grad_noise", 1e-3}}, 1, 0.5)));          // another cell
  CHECK(e.add(scored({{"cull_residual", 0.5}, {"soft_clip_period", 100}}, 9, 0.5)));
  REQUIRE(e.size() == 3);
  CHECK(cell_of({{"cull_residual", 0.5}, {"soft_clip_period", 100}}) == "clip+cull");
  CHECK(e.to_json()["plain"]["params"]["adam_lr"] == 0.04);
  CHECK(e.best()->numerical == 9);
  std::mt19937_64 rng(1);
  CHECK(e.parent(rng, 1.0).numerical == 9);
}

TEST_CASE("evolve: a tiny evolution over 2x2:7 in z3 writes a valid run directory", "[fast][evolve]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "tdisc-test-evolve").string();
  std::filesystem::remove_all(dir);
  EvolveConfig c;
  c.trial.target = {Format{2, 2, 2}, 7, Ring::Q};
  c.trial.seed = 5;
  c.trial.seconds = 0.6;
  c.base = {{"ansatz", "z3"}, {"device", "cpu"}, {"adam_steps", 1500}, {"adam_lr", 0.02}};
  c.generations = 2;
  c.population = 2;
  c.out_dir = dir;
  int calls = 0;
  c.progress = [&](const Scored&, bool) { ++calls; };
  const EvolveResult r = tdisc::search::evolve::evolve(c);
  CHECK(calls == 4);
  std::ifstream in(dir + "/evolve.json");
  REQUIRE(in.good());
  const nlohmann::json j = nlohmann::json::parse(in);
  CHECK(j["format"] == "tdisc-evolve");
  CHECK(j["complete"] == true);
  REQUIRE(j["evaluations"].size() == 4);
  CHECK(j["evaluations"][0]["origin"] == "base");
  CHECK(j["evaluations"][0]["params"] == c.base);
  for (const auto& e : j["evaluations"]) {
    CHECK(e["seed"] == 5);
    CHECK(e["restarts"].get<long>() > 0);
  }
  const nlohmann::json best = nlohmann::json::parse(j["best_params"].get<std::string>());
  CHECK(numeric::validate(best).empty());
  CHECK(j["best"]["finds_per_second"].get<double>() > 0);  // 2x2:7 in z3 is found within 0.6 s
  CHECK(best == r.elites.best()->params);
  std::filesystem::remove_all(dir);
}
