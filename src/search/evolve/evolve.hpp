// The recipe-evolution loop: a population per generation, each recipe a variation of an elite of the
// MAP-Elites database (elites.hpp) by tdisc's own mutation and crossover (recipe_space.hpp), scored
// by a short in-process run (evaluate.hpp) on the same seed. The run directory gets evolve.json after
// every evaluation (written to a temporary name and renamed), so a cut-off run keeps what it scored.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/search/evolve/elites.hpp"
#include "src/search/evolve/evaluate.hpp"

namespace tdisc::search::evolve {

// The hook for another proposer (an LLM, src/llm): given the database, up to `count` recipes for the
// next generation. Invalid recipes are skipped and logged; the rest of the generation is mutation.
using Proposer = std::function<std::vector<nlohmann::json>(const Elites& elites, int count)>;

struct EvolveConfig {
  Trial trial;
  nlohmann::json base = nlohmann::json::object();  // the recipe generation 0 starts from (scored as is)
  int generations = 3, population = 8;
  unsigned long long seed = 1;   // the evolution's draws (mutation, parents)
  double crossover = 0.3;        // chance that a child is the crossover of two elites (then mutated)
  std::string out_dir;           // empty: nothing written
  Proposer proposer;             // empty: tdisc's mutation only
  std::function<void(const Scored&, bool elite)> progress;  // after each evaluation
};

struct EvolveResult {
  Elites elites;
  std::vector<Scored> history;
  std::vector<std::string> rejected;  // proposals that failed validation, with the reason
};

EvolveResult evolve(const EvolveConfig& config);

// The run directory's JSON: the settings, every evaluation (recipe, seed, counts), the elites and the
// best recipe as a --params string.
nlohmann::json evolve_json(const EvolveConfig& config, const EvolveResult& r, bool complete);

}  // namespace tdisc::search::evolve
